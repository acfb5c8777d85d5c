/// What an answer given at once was derived from on disk: a file at a path, with the identity it
/// had (device, inode, size, modification time). While ``isCurrent()`` holds, the same request
/// gets the same answer, so an engine may keep what it made of the answer (an encoded HTTP
/// response) under the request and answer a repeat with one `lstat` and no handler.
///
/// ``LocalFileHandler`` attaches one (``SchemeCollectedResponse/validator``) only to answers that
/// depend on nothing but the request and that one file — a regular file right at the request's
/// decoded path under a fixed root, answered from its body cache — and a wrapper that changes an
/// answer drops it (as it drops the representation id).
package struct FileIdentityCheck: Sendable, Hashable {
    /// The path that was `lstat`ed.
    package let path: String
    private let key: FileBodyCache.Key

    init(path: String, key: FileBodyCache.Key) {
        self.path = path
        self.key = key
    }

    /// Whether the file at ``path`` is still a regular file with the identity the answer was made
    /// from: one `lstat` (a symbolic link never matches).
    package func isCurrent() -> Bool {
        guard let file = FileDescriptorStat(lstatPath: path), file.kind == .regular else { return false }
        return FileBodyCache.Key(file) == key
    }
}
