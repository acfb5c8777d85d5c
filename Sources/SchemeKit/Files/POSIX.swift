import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls the file handler needs, with `EINTR` retried and errors as `errno` values.
enum POSIX {
    static let readOnly: Int32 = O_RDONLY | O_CLOEXEC | O_NOFOLLOW
    static let directoryFlags: Int32 = readOnly | O_DIRECTORY
    /// `O_NONBLOCK` so that opening a FIFO never blocks; regular-file reads ignore it.
    static let fileFlags: Int32 = readOnly | O_NONBLOCK

    static let notFound = ENOENT
    static let notDirectory = ENOTDIR
    static let symlinkLoop = ELOOP
    static let tooManyLinks = EMLINK

    /// `open(path, O_DIRECTORY)`, following symlinks (the root is trusted configuration).
    static func openDirectory(_ path: String) -> Result<Int32, Errno> {
        retrying { open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY) }
    }

    /// `open(path, flags)`; with ``fileFlags`` the last component is not followed.
    static func openPath(_ path: String, flags: Int32) -> Result<Int32, Errno> {
        retrying { open(path, flags) }
    }

    /// `openat(directory, name, flags)` with `O_NOFOLLOW`.
    static func openAt(_ directory: Int32, _ name: String, flags: Int32) -> Result<Int32, Errno> {
        retrying { openat(directory, name, flags) }
    }

    /// Whether `name` in `directory` is a symbolic link (not followed).
    static func isSymlink(_ directory: Int32, _ name: String) -> Bool {
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    static func close(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #elseif canImport(Musl)
            _ = Musl.close(fd)
        #elseif canImport(Darwin)
            _ = Darwin.close(fd)
        #endif
    }

    /// Reads exactly `count` bytes at `offset` unless the file ends first; returns the bytes read.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, offset: Int64) -> Result<
        Int, Errno
    > {
        var done = 0
        while done < count {
            let result = pread(fd, buffer + done, count - done, off_t(offset + Int64(done)))
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                return .failure(Errno(errno))
            }
        }
        return .success(done)
    }

    /// `realpath(path)`, or `nil` when it fails.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in an open directory (without `.` and `..`), with whether each is a directory.
    /// Reads through a duplicate of `fd`; `fd` stays open.
    static func directoryEntries(_ fd: Int32) -> [(name: String, isDirectory: Bool)]? {
        let copy = dup(fd)
        guard copy >= 0 else { return nil }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return nil
        }
        defer { closedir(stream) }
        var entries: [(String, Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory = fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            entries.append((name, isDirectory))
        }
        return entries
    }

    private static func retrying(_ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let fd = call()
            if fd >= 0 { return .success(fd) }
            if errno != EINTR { return .failure(Errno(errno)) }
        }
    }

    /// An `errno` value.
    struct Errno: Error, Equatable {
        let code: Int32
        init(_ code: Int32) { self.code = code }
    }
}
