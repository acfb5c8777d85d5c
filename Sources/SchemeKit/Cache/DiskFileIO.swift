import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file reads and removals ``DiskStorage`` makes; writes go through ``AtomicFile``.
enum DiskFileIO {
    /// Removes a file; ignores a file that is already gone.
    static func remove(_ path: String) {
        unlink(path)
    }

    /// Reads the whole file, or `nil` when it cannot be read.
    static func readFile(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// Reads at most `count` bytes from the start of the file.
    static func readPrefix(_ path: String, count: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count)
    }
}
