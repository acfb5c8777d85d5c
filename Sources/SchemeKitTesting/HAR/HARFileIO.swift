import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations HAR recording needs: atomic replacement of the HAR file, side files named
/// by content, byte comparison of two files.
enum HARFileIO {
    /// Writes `data` to `url` through a temporary file in the same directory: write, `fsync`,
    /// `rename` over `url`, `fsync` of the directory. A crash at any point leaves either the old
    /// file or the new one.
    static func writeAtomically(_ data: Data, to url: URL) throws(HARError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create a temporary file beside \(url.lastPathComponent)") }
        var written = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let count = write(descriptor, raw.baseAddress! + written, raw.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        let synced = ok && fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary.path, url.path) == 0 else {
            let error = failure("write \(url.lastPathComponent)")
            unlink(temporary.path)
            throw error
        }
        syncDirectory(directory)
    }

    /// `fsync` of a directory, so a rename or link in it is durable. Best effort.
    static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Whether two files hold the same bytes.
    static func sameContents(_ first: URL, _ second: URL) -> Bool {
        guard let a = FileHandle(forReadingAtPath: first.path), let b = FileHandle(forReadingAtPath: second.path)
        else { return false }
        defer {
            try? a.close()
            try? b.close()
        }
        while true {
            let left = (try? a.read(upToCount: 1 << 20)) ?? nil
            let right = (try? b.read(upToCount: 1 << 20)) ?? nil
            if left != right { return false }
            if left == nil || left?.isEmpty == true { return true }
        }
    }

    /// The size of a regular file, or `nil` when it is missing or not a regular file.
    static func regularFileSize(_ url: URL) -> Int? {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// A `writeFailed` error for `action`, with `errno`'s description.
    static func failure(_ action: String) -> HARError {
        HARError(.writeFailed, "cannot \(action): \(String(cString: strerror(errno)))")
    }
}
