#if Chromium
    import Foundation

    /// Splits the byte stream of a DevTools pipe into messages: NUL-terminated JSON, or CBOR
    /// envelopes (`d8 18 5a` and a four-byte big-endian length).
    ///
    /// A plain value fed by ``ChromiumPipe``'s reader thread: ``append(_:)`` the bytes of each
    /// `read`, then take ``next()`` until it returns `nil`. Only the bytes of a message that spans
    /// reads are kept between calls, and each byte is scanned once.
    ///
    /// A message longer than ``maximumMessageSize`` is refused with ``MessageTooLarge`` as soon as
    /// that is known (a CBOR envelope's length, or that many JSON bytes without a NUL), so a broken
    /// or hostile peer cannot make the framer buffer without bound.
    struct ChromiumMessageFramer {
        /// The framing failed: the stream is not the format it should be.
        struct MalformedStream: Error, CustomStringConvertible {
            var description: String
        }

        /// A message is longer than ``ChromiumMessageFramer/maximumMessageSize``.
        struct MessageTooLarge: Error, CustomStringConvertible {
            /// The message's size, or for JSON the bytes seen so far without its end.
            var size: Int
            /// The limit it passed.
            var limit: Int

            var description: String {
                "a DevTools message of \(size) bytes or more is over the \(limit)-byte limit"
            }
        }

        /// The default limit: 256 MiB, Chromium's own largest message.
        static let defaultMaximumMessageSize = 256 << 20

        let format: ChromiumWireFormat
        /// The longest message accepted, framing included. Default: ``defaultMaximumMessageSize``.
        let maximumMessageSize: Int
        private var pending: [UInt8] = []
        /// Where the next message starts in `pending`.
        private var start = 0
        /// How far `pending` was searched for a NUL without finding one (JSON).
        private var scanned = 0

        init(format: ChromiumWireFormat, maximumMessageSize: Int = Self.defaultMaximumMessageSize) {
            self.format = format
            self.maximumMessageSize = maximumMessageSize
        }

        /// Bytes held for a message not yet complete.
        var bufferedCount: Int { pending.count - start }

        /// Adds the bytes of one read.
        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            if start > 0 {
                // Everything before `start` was handed out: drop it before growing.
                pending.removeFirst(start)
                scanned -= start
                start = 0
            }
            pending.append(contentsOf: bytes)
        }

        /// The next complete message, or `nil` when more bytes are needed.
        ///
        /// - Throws: ``MalformedStream`` when a CBOR message does not start with an envelope,
        ///   ``MessageTooLarge`` when a message is longer than ``maximumMessageSize``.
        mutating func next() throws -> Data? {
            switch format {
            case .json:
                let from = max(start, scanned)
                guard from < pending.count else { return nil }
                let end: Int? = pending.withUnsafeBytes { raw in
                    guard let found = memchr(raw.baseAddress! + from, 0, raw.count - from) else { return nil }
                    return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                }
                guard let end else {
                    scanned = pending.count
                    // The NUL is not counted: a message of exactly the limit may still end.
                    if pending.count - start > maximumMessageSize {
                        throw MessageTooLarge(size: pending.count - start, limit: maximumMessageSize)
                    }
                    return nil
                }
                guard end - start <= maximumMessageSize else {
                    throw MessageTooLarge(size: end - start, limit: maximumMessageSize)
                }
                let message = Data(pending[start..<end])
                start = end + 1
                scanned = start
                return message
            case .cbor:
                let available = pending.count - start
                guard available >= 7 else { return nil }
                let length = pending.withUnsafeBytes { raw in
                    CDPCBOR.envelopeLength(UnsafeRawBufferPointer(rebasing: raw[start..<start + 7]))
                }
                guard let length else { throw MalformedStream(description: "a CBOR message without an envelope") }
                guard 7 + length <= maximumMessageSize else {
                    throw MessageTooLarge(size: 7 + length, limit: maximumMessageSize)
                }
                guard available >= 7 + length else { return nil }
                let message = Data(pending[start..<start + 7 + length])
                start += 7 + length
                return message
            }
        }
    }
#endif
