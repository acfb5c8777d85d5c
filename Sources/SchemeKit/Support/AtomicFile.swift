package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SchemeKit's one way to put a file in place, used by every store that writes: the disk cache,
/// network write-through, the package store and the HAR recorder.
///
/// ## Durability policy
///
/// 1. The bytes go to a temporary file created with `O_EXCL` (never an existing file, never
///    through a link), on the destination's file system.
/// 2. The temporary file is `fsync`ed before it is renamed: on every file system the rename can
///    only ever expose complete data, even after a power loss (ext4's delayed allocation would
///    otherwise expose a renamed, empty file).
/// 3. `rename(2)` replaces the destination atomically: a reader, or a process started after a
///    crash at any moment, sees the old file or the new one, never a mix and never a part.
/// 4. With ``Durability/persistent`` the directory is `fsync`ed after the rename, so the new name
///    itself survives a power loss once the call returns. ``Durability/complete`` skips this one
///    step, for stores that may lose their latest entry but must never serve a torn one (caches).
///
/// A failure at any step removes the temporary file and throws ``Failure`` naming the step, the
/// path and `errno`.
package enum AtomicFile {
    /// How much of a write must survive a power loss (a crash of the process alone loses nothing
    /// once the rename happened, at either level).
    package enum Durability: Sendable {
        /// Only complete data is ever in place; the newest rename may be lost on power loss.
        case complete
        /// As ``complete``, and the new name is on disk when the call returns.
        case persistent
    }

    /// A failed POSIX call: the operation, the path and `errno`.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// The POSIX call that failed (`open`, `write`, `fsync`, `rename`, …).
        package var operation: String
        /// The path it was called on.
        package var path: String
        /// `errno` after the call.
        package var code: Int32

        package init(operation: String, path: String, code: Int32) {
            self.operation = operation
            self.path = path
            self.code = code
        }

        package var description: String {
            "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// Writes `chunks` to `path` by the policy above, through a temporary file beside it.
    ///
    /// - Parameter temporaryPath: The temporary file, in `path`'s directory. Default: a hidden,
    ///   unique name beside `path` (``temporaryPath(beside:)``).
    package static func write(
        _ chunks: [Data], to path: String, temporaryPath: String? = nil, durability: Durability
    ) throws(Failure) {
        let writer = try Writer(temporaryPath: temporaryPath ?? Self.temporaryPath(beside: path))
        do {
            for chunk in chunks { try writer.append(chunk) }
            try writer.commit(to: path, durability: durability)
        } catch {
            writer.discard()
            throw error
        }
    }

    /// A hidden, unique temporary name in `path`'s directory.
    package static func temporaryPath(beside path: String) -> String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return "\(Writer.directory(of: path))/.\(name).\(UUID().uuidString).tmp"
    }

    /// `fsync` of a directory, so a rename or a new entry in it survives a power loss.
    package static func syncDirectory(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        try syncDirectory(descriptor: descriptor, path: path)
    }

    /// `fsync` of an open directory; `path` only names it in the error.
    package static func syncDirectory(descriptor: Int32, path: String) throws(Failure) {
        // Some file systems refuse fsync on a directory (EINVAL): nothing more can be done there.
        if fsync(descriptor) != 0, errno != EINVAL { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    /// A temporary file being written, put in place by ``commit(to:durability:)`` or removed by
    /// ``discard()`` (or when the writer is released without either).
    ///
    /// Not thread-safe: one writer belongs to one producer at a time.
    package final class Writer {
        /// The temporary file.
        package let temporaryPath: String
        /// Bytes appended so far.
        package private(set) var count: Int64 = 0
        private var descriptor: Int32
        private var finished = false
        private var sealed = false

        /// Creates the temporary file (`O_EXCL`: it must not exist).
        package init(temporaryPath: String) throws(Failure) {
            self.temporaryPath = temporaryPath
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else {
                let failure = Failure(operation: "open", path: temporaryPath, code: errno)
                // deinit runs for a failed init too: the file at that name is not ours to remove.
                finished = true
                throw failure
            }
        }

        deinit {
            if !finished { discard() }
        }

        /// Appends `data`, retrying short writes and `EINTR`.
        package func append(_ data: Data) throws(Failure) {
            var failure: Failure?
            data.withUnsafeBytes { raw in
                do throws(Failure) { try append(raw) } catch { failure = error }
            }
            if let failure { throw failure }
        }

        /// Appends `bytes`, retrying short writes and `EINTR`.
        package func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(operation: "write", path: temporaryPath, code: errno)
                }
                offset += written
            }
            count += Int64(bytes.count)
        }

        /// `fsync`s and closes the file, renames it to `path` and, for ``Durability/persistent``,
        /// `fsync`s `path`'s directory. On failure the temporary file is removed.
        package func commit(to path: String, durability: Durability) throws(Failure) {
            try seal()
            guard rename(temporaryPath, path) == 0 else { throw failed("rename", path) }
            finished = true
            if durability == .persistent { try AtomicFile.syncDirectory(Self.directory(of: path)) }
        }

        /// As ``commit(to:durability:)``, renaming into the directory open as `directory`
        /// (`renameat`), so no path outside the caller's walk is followed; `name` is one component.
        package func commit(toName name: String, in directory: Int32, durability: Durability) throws(Failure) {
            try seal()
            guard renameat(AT_FDCWD, temporaryPath, directory, name) == 0 else { throw failed("renameat", name) }
            finished = true
            if durability == .persistent { try AtomicFile.syncDirectory(descriptor: directory, path: name) }
        }

        /// As ``commit(to:durability:)``, but never replaces a file: claims `path` with `link(2)`
        /// and returns `false`, keeping the sealed temporary file, when `path` already exists (the
        /// caller may compare the two files or try another name).
        package func claim(_ path: String, durability: Durability) throws(Failure) -> Bool {
            try seal()
            guard link(temporaryPath, path) == 0 else {
                if errno == EEXIST { return false }
                throw failed("link", path)
            }
            finished = true
            unlink(temporaryPath)
            if durability == .persistent { try AtomicFile.syncDirectory(Self.directory(of: path)) }
            return true
        }

        /// The directory part of `path`.
        static func directory(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return slash == path.startIndex ? "/" : String(path[..<slash])
        }

        /// Closes and removes the temporary file. Safe to call more than once.
        package func discard() {
            if descriptor >= 0 {
                close(descriptor)
                descriptor = -1
            }
            if !finished {
                finished = true
                unlink(temporaryPath)
            }
        }

        /// `fsync`s and closes the file: its bytes are on disk and it can be renamed. Called by the
        /// commits; call it first to keep the slow part out of a lock the rename must be under.
        package func seal() throws(Failure) {
            guard !sealed else { return }
            guard !finished, descriptor >= 0 else {
                throw Failure(operation: "commit", path: temporaryPath, code: EBADF)
            }
            if fsync(descriptor) != 0 { throw failed("fsync", temporaryPath) }
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0, errno != EINTR { throw failed("close", temporaryPath) }
            sealed = true
        }

        /// Builds the failure for `operation`, then removes the temporary file.
        private func failed(_ operation: String, _ path: String) -> Failure {
            let failure = Failure(operation: operation, path: path, code: errno)
            discard()
            return failure
        }
    }
}

/// `write(2)`, named so that ``AtomicFile/write(_:to:durability:)`` does not shadow it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
