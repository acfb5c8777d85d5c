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
    /// The temporary file, once the body outgrew memory.
    private var spilled: AtomicFile.Writer?
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
        if spilled == nil, memory.count + bytes.count <= limit {
            memory.append(contentsOf: bytes)
            return
        }
        do {
            if spilled == nil { try spill() }
            try spilled?.append(bytes)
        } catch {
            failure = HARError(.writeFailed, "cannot write a body file: \(error)")
        }
    }

    /// Adds bytes.
    func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }

    /// Moves what is in memory to a new temporary file.
    private func spill() throws(AtomicFile.Failure) {
        let writer = try AtomicFile.Writer(
            temporaryPath: directory.appendingPathComponent(".har-body-\(UUID().uuidString).tmp").path)
        spilled = writer
        let buffered = memory
        memory = Data()
        try writer.append(buffered)
    }

    /// Ends the body: inline bytes, or the content-named file (`fileExtension` without a dot).
    func finish(fileExtension: String) throws(HARError) -> Stored {
        if let failure { throw failure }
        guard let writer = spilled else { return .inline(memory) }
        let base = "\(FNV1a.hex(hash))-\(count)"
        let suffix = fileExtension.isEmpty ? "" : ".\(fileExtension)"
        defer { discard() }
        do {
            for attempt in 0..<1000 {
                let name = attempt == 0 ? base + suffix : "\(base)-\(attempt)\(suffix)"
                let target = directory.appendingPathComponent(name)
                // link(2) never replaces: a taken name is the same body recorded before, or a collision.
                if try writer.claim(target.path, durability: .persistent) { return .file(name: name, url: target) }
                if HARFileIO.regularFileSize(target) == count,
                    HARFileIO.sameContents(target, URL(fileURLWithPath: writer.temporaryPath))
                {
                    return .file(name: name, url: target)
                }
            }
        } catch {
            throw HARError(.writeFailed, "cannot name the body file \(base)\(suffix): \(error)")
        }
        throw HARError(.writeFailed, "too many body files named \(base)*")
    }

    /// Throws the body away (a stopped or failed exchange).
    func discard() {
        spilled?.discard()
        spilled = nil
        memory = Data()
    }
}
