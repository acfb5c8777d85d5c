import Foundation
import SchemeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations HAR recording needs: atomic replacement of the HAR file and byte
/// comparison of two files (body files are written by ``HARBodySpool``).
enum HARFileIO {
    /// Writes `data` to `url` by SchemeKit's one durability policy (``AtomicFile``, persistent):
    /// a crash at any point leaves either the old file or the new one.
    static func writeAtomically(_ data: Data, to url: URL) throws(HARError) {
        do {
            try AtomicFile.write([data], to: url.path, durability: .persistent)
        } catch {
            throw HARError(.writeFailed, "cannot write \(url.lastPathComponent): \(error)")
        }
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

    /// The size of a regular file, or `nil` when it is missing, not a regular file, or a symbolic
    /// link (never followed: a body file is a file beside the HAR, not a way out of its folder).
    static func regularFileSize(_ url: URL) -> Int? {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Whether `url` is a symbolic link (itself, not what it points to).
    static func isSymbolicLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Opens a body file for reading without following a symbolic link (a link swapped in after
    /// the HAR was read fails here), and only when it is a regular file.
    static func openBodyFile(_ url: URL) -> FileHandle? {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
