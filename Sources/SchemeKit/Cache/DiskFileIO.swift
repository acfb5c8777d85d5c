import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX file operations ``DiskStorage`` needs and Foundation does not promise:
/// a write that is on disk (`fsync`) before it is renamed into place, and the rename itself.
enum DiskFileIO {
    /// An error from a POSIX call, with `errno` described.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32

        var description: String {
            "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// Creates `path` (which must not exist), writes `chunks` to it, and `fsync`s it.
    /// On failure the partial file is removed.
    static func writeNewFile(_ path: String, _ chunks: [Data]) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        var failure: Failure?
        outer: for chunk in chunks where !chunk.isEmpty {
            let result: Int32 = chunk.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    offset += written
                }
                return 0
            }
            if result != 0 {
                failure = Failure(operation: "write", path: path, code: result)
                break outer
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = Failure(operation: "fsync", path: path, code: errno) }
        if close(fd) != 0, failure == nil { failure = Failure(operation: "close", path: path, code: errno) }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Atomically replaces `destination` with `source` (POSIX `rename`): a reader sees the old
    /// file or the new one, never a mix.
    static func move(_ source: String, to destination: String) throws(Failure) {
        let result = rename(source, destination)
        guard result == 0 else { throw Failure(operation: "rename", path: destination, code: errno) }
    }

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
