#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor with the metadata `fstat` gave when it was opened.
///
/// A plain value: whoever opened it closes it with ``close()`` (the handler does so in a `defer`).
struct FileDescriptorStat: Sendable {
    enum Kind: Sendable { case regular, directory, other }

    let fd: Int32
    let kind: Kind
    let size: Int64
    /// Modification time, whole seconds since 1970.
    let modifiedSeconds: Int64
    /// Modification time, nanoseconds since 1970.
    let modifiedNanoseconds: Int64
    let device: UInt64
    let inode: UInt64

    /// `fstat`s `fd`; closes it and returns `nil` when that fails.
    init?(adopting fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            POSIX.close(fd)
            return nil
        }
        self.init(fd: fd, info)
    }

    /// What `lstat` says about `path` (a symbolic link is not followed), with no descriptor
    /// (`fd` is -1: nothing to read or close); `nil` when `lstat` fails.
    init?(lstatPath path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(fd: -1, info)
    }

    private init(fd: Int32, _ info: stat) {
        self.fd = fd
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            let seconds = Int64(info.st_mtimespec.tv_sec)
            let nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            let seconds = Int64(info.st_mtim.tv_sec)
            let nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        modifiedSeconds = seconds
        modifiedNanoseconds = seconds &* 1_000_000_000 &+ nanoseconds
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// Whether a fresh `fstat` of the descriptor still reports the same identity, size and
    /// modification time (the file was not written to meanwhile).
    func isUnchanged() -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        #if canImport(Darwin)
            let nanoseconds = Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
        #else
            let nanoseconds = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        #endif
        return Int64(info.st_size) == size && nanoseconds == modifiedNanoseconds
            && UInt64(truncatingIfNeeded: info.st_ino) == inode && UInt64(truncatingIfNeeded: info.st_dev) == device
    }

    func close() {
        if fd >= 0 { POSIX.close(fd) }
    }
}
