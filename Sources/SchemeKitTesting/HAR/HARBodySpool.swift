import Foundation
import SchemeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects a body being recorded: in memory up to a limit, then in a temporary file beside the
/// HAR file, so a large body never sits in memory whole. The bytes are hashed as they arrive
/// (FNV-1a 64), and a spilled body is finally named by content, `<hash>-<size>.<ext>`, as
/// Playwright names its body files by SHA-1.
///
/// A file with that name may already exist: the same body recorded before (the bytes are
/// compared, and the file reused) or, rarely, a different body with the same hash and size (then
/// `-1`, `-2` … is added to the name). The name is claimed with `link(2)`, which never replaces
/// a file, after the bytes were flushed to disk; a crash leaves at worst a temporary file.
///
/// Not thread-safe: one spool per exchange, used under the exchange's lock.
final class HARBodySpool {
    /// Where a finished body went.
    enum Stored {
        /// Small enough to keep in the HAR file.
        case inline(Data)
        /// Written beside the HAR file under this name.
        case file(name: String, url: URL)
    }

    let directory: URL
    let limit: Int
    private var memory = Data()
    private var descriptor: Int32 = -1
    private var temporary: URL?
    private(set) var count = 0
    private var hash = FNV1a.offsetBasis
    /// The first I/O error; the exchange is then not recorded.
    private(set) var failure: HARError?

    /// - Parameters:
    ///   - directory: Where body files go (the HAR file's directory).
    ///   - limit: The largest body kept in memory (and so inline).
    init(directory: URL, limit: Int) {
        self.directory = directory
        self.limit = max(0, limit)
    }

    deinit { discard() }

    /// Adds bytes.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        hash = FNV1a.hash64(bytes, basis: hash)
        count += bytes.count
        if descriptor < 0, memory.count + bytes.count <= limit {
            memory.append(contentsOf: bytes)
            return
        }
        if descriptor < 0 { spill() }
        guard descriptor >= 0 else { return }
        writeAll(bytes)
    }

    /// Adds bytes.
    func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }

    /// Moves what is in memory to a new temporary file.
    private func spill() {
        let url = directory.appendingPathComponent(".har-body-\(UUID().uuidString).tmp")
        let opened = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            failure = HARFileIO.failure("create a body file in \(directory.lastPathComponent)")
            return
        }
        descriptor = opened
        temporary = url
        let buffered = memory
        memory = Data()
        buffered.withUnsafeBytes { writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                failure = HARFileIO.failure("write a body file")
                return
            }
            offset += written
        }
    }

    /// Ends the body: inline bytes, or the content-named file (`fileExtension` without a dot).
    func finish(fileExtension: String) throws(HARError) -> Stored {
        if let failure { throw failure }
        guard descriptor >= 0, let temporary else { return .inline(memory) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        descriptor = -1
        guard synced else {
            discard()
            throw HARFileIO.failure("flush a body file")
        }
        let base = "\(FNV1a.hex(hash))-\(count)"
        let suffix = fileExtension.isEmpty ? "" : ".\(fileExtension)"
        for attempt in 0..<1000 {
            let name = attempt == 0 ? base + suffix : "\(base)-\(attempt)\(suffix)"
            let target = directory.appendingPathComponent(name)
            if link(temporary.path, target.path) == 0 {
                unlink(temporary.path)
                self.temporary = nil
                HARFileIO.syncDirectory(directory)
                return .file(name: name, url: target)
            }
            guard errno == EEXIST else {
                let error = HARFileIO.failure("name the body file \(name)")
                discard()
                throw error
            }
            // The name is taken: the same body recorded before, or a hash collision.
            if HARFileIO.regularFileSize(target) == count, HARFileIO.sameContents(target, temporary) {
                discard()
                return .file(name: name, url: target)
            }
        }
        discard()
        throw HARError(.writeFailed, "too many body files named \(base)*")
    }

    /// Throws the body away (a stopped or failed exchange).
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if let temporary {
            unlink(temporary.path)
            self.temporary = nil
        }
        memory = Data()
    }
}
