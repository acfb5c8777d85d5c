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

    /// The size of a regular file, or `nil` when it is missing or not a regular file.
    static func regularFileSize(_ url: URL) -> Int? {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
