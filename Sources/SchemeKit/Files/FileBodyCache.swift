import Foundation

/// The bodies of small files in memory, keyed by what `fstat` said about the open file.
///
/// The key is device, inode, size and modification time (nanoseconds): whatever changes a file on
/// disk changes its key, so an entry is never served for other bytes than it holds, and an entry
/// for an old version is never looked up again and ages out. Storage is core's LRU memory tier
/// (``MemoryStorage/Backend``), bounded by bytes and count, without expiry. Thread-safe.
final class FileBodyCache: Sendable {
    /// The largest body kept, in bytes.
    let maxFileSize: Int
    private let storage: MemoryStorage.Backend<Data, ContinuousClock>

    init(_ limits: LocalFileHandler.BodyCache) {
        maxFileSize = limits.maxFileSize
        storage = MemoryStorage.Backend(
            config: MemoryStorage.Config(
                totalCostLimit: limits.totalCostLimit, countLimit: limits.countLimit, expiration: .never),
            clock: ContinuousClock())
    }

    /// Whether `file` is small enough to be kept.
    func admits(_ file: FileDescriptorStat) -> Bool {
        file.kind == .regular && file.size > 0 && file.size <= Int64(maxFileSize)
    }

    /// The whole body of `file`, when kept.
    func body(of file: FileDescriptorStat) -> Data? {
        storage.value(forKey: Self.key(file))
    }

    /// Keeps `body` as the whole body of `file`.
    ///
    /// - Precondition: `body.count == file.size`.
    func store(_ body: Data, of file: FileDescriptorStat) {
        precondition(Int64(body.count) == file.size, "a cached body is the whole file")
        storage.store(body, forKey: Self.key(file))
    }

    /// The number of bodies kept and their total size.
    var usage: (count: Int, bytes: Int) { (storage.count, storage.totalSize) }

    static func key(_ file: FileDescriptorStat) -> String {
        String(file.device, radix: 16) + ":" + String(file.inode, radix: 16) + ":"
            + String(UInt64(bitPattern: file.size), radix: 16) + ":"
            + String(UInt64(bitPattern: file.modifiedNanoseconds), radix: 16)
    }
}
