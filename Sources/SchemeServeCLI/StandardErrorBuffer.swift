// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit

    /// Lines on their way to standard error, written in batches: the access log hands its lines
    /// over one by one and calls ``flush()`` after each batch (at least every poll interval of its
    /// writer, 10 ms), so a busy server makes one `write(2)` per batch instead of one per request,
    /// and a quiet one still shows each line within that interval. Past ``limit`` bytes it writes
    /// at once. Thread-safe.
    final class StandardErrorBuffer: Sendable {
        /// The most bytes held before a write.
        static let limit = 64 << 10

        private let pending = Locked([UInt8]())

        /// Adds `line` (with its newline); writes everything held once past ``limit``.
        func append(_ line: String) {
            append(Array(line.utf8))
        }

        /// Adds `lines` (whole lines, with their newlines); writes everything held once past ``limit``.
        func append(_ lines: [UInt8]) {
            let full = pending.withLock { bytes -> [UInt8]? in
                bytes.append(contentsOf: lines)
                guard bytes.count >= Self.limit else { return nil }
                defer { bytes.removeAll(keepingCapacity: true) }
                return bytes
            }
            if let full { Self.write(full) }
        }

        /// Writes what is held.
        func flush() {
            let bytes = pending.withLock { bytes -> [UInt8] in
                defer { bytes.removeAll(keepingCapacity: true) }
                return bytes
            }
            if !bytes.isEmpty { Self.write(bytes) }
        }

        /// All of `bytes` to standard error; what it does not take (a closed descriptor) is dropped.
        private static func write(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Foundation.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0, errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }
#endif
