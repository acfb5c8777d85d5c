// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import CSchemeKitPackagesShims
    internal import Foundation
    internal import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Thin, throwing wrappers over the POSIX calls the store's crash-safety relies on.
    enum FileSystem {
        /// The error for a failed call, capturing `errno` now.
        static func failure(_ operation: String, _ path: String, errno code: Int32 = errno) -> PackageStoreError {
            PackageStoreError(.fileSystem(operation: operation, path: path, errno: code))
        }

        /// Creates a directory; an existing directory is fine when `existingIsFine`.
        static func makeDirectory(_ path: String, existingIsFine: Bool = true) throws {
            if mkdir(path, 0o755) != 0 {
                let code = errno
                if code == EEXIST && existingIsFine && isDirectory(path) { return }
                throw failure("mkdir", path, errno: code)
            }
        }

        /// Creates a directory and its missing parents.
        static func makeDirectories(_ path: String) throws {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw failure("mkdir", path, errno: isDirectory(path) ? EEXIST : EACCES)
            }
        }

        /// Whether `path` is a directory (not following a final symbolic link).
        static func isDirectory(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }

        /// Whether `path` is a regular file (not following a final symbolic link).
        static func isRegularFile(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }

        /// Whether anything (even a dangling symbolic link) exists at `path`.
        static func exists(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0
        }

        /// The names in a directory, without `.` and `..`; empty when it does not exist.
        static func contents(of path: String) throws -> [String] {
            do {
                return try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                if !exists(path) { return [] }
                throw failure("list", path, errno: EIO)
            }
        }

        /// Removes a file or a directory tree; a missing path is fine. Symbolic links are removed, never followed.
        static func removeTree(_ path: String) throws {
            guard exists(path) else { return }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                if exists(path) { throw failure("remove", path, errno: EIO) }
            }
        }

        /// Renames `from` to `to` with `rename(2)`: atomic on one file system.
        static func rename(_ from: String, _ to: String) throws {
            if posixRename(from, to) != 0 { throw failure("rename", "\(from) -> \(to)") }
        }

        /// Flushes a file or directory to disk (`fsync(2)`), so a rename or a new entry in it survives a power loss.
        static func sync(_ path: String) throws {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failure("open", path) }
            defer { close(fd) }
            if fsync(fd) != 0 { throw failure("fsync", path) }
        }

        /// Flushes every file of the file system holding `path` (Linux `syncfs(2)`; `sync(2)` elsewhere).
        static func syncFileSystem(containing path: String) throws {
            #if os(Linux)
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw failure("open", path) }
                defer { close(fd) }
                if syncfs(fd) != 0 { throw failure("syncfs", path) }
            #else
                Darwin.sync()
            #endif
        }

        /// Writes all `count` bytes at `base` to `fd`, retrying short writes and `EINTR`.
        static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int, path: String) throws {
            var written = 0
            while written < count {
                let result = write(fd, base + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", path)
                }
                written += result
            }
        }

        /// Writes `data` to `path` by SchemeKit's one durability policy (``AtomicFile``): `fsync`ed
        /// before the rename, the directory `fsync`ed after it when `durable`. A reader sees the
        /// old content or the new, never a mix.
        static func writeAtomically(_ data: Data, to path: String, durable: Bool) throws {
            do {
                try AtomicFile.write([data], to: path, durability: durable ? .persistent : .complete)
            } catch {
                throw failure(error.operation, error.path, errno: error.code)
            }
        }

        /// Points the symbolic link at `path` to `target` atomically: a new link under a temporary name,
        /// then `rename(2)` over the old one. `beforeRename` runs between the two steps.
        static func replaceSymbolicLink(at path: String, target: String, beforeRename: () -> Void = {}) throws {
            let temporary = "\(parent(of: path))/.\(lastComponent(of: path)).tmp-\(UUID().uuidString)"
            if symlink(target, temporary) != 0 { throw failure("symlink", temporary) }
            beforeRename()
            do {
                try rename(temporary, path)
            } catch {
                unlink(temporary)
                throw error
            }
        }

        /// The target of the symbolic link at `path`, or `nil` when there is none.
        static func symbolicLinkTarget(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count >= 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The directory part of a path.
        static func parent(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return slash == path.startIndex ? "/" : String(path[..<slash])
        }

        /// The last component of a path.
        static func lastComponent(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return path }
            return String(path[path.index(after: slash)...])
        }
    }

    /// `rename(2)` under a name that does not clash with ``FileSystem/rename(_:_:)``.
    private func posixRename(_ from: String, _ to: String) -> Int32 {
        rename(from, to)
    }
#endif
