/// Finds and opens the file for a ``SafeRelativePath`` under a root directory without ever
/// following a path outside it.
///
/// ## How containment is guaranteed
/// The root is opened once per request; every component below it is opened with
/// `openat(parent, name, O_NOFOLLOW)`, so no component can be `..` (``SafeRelativePath`` refuses
/// them) and no symlink is followed implicitly. This walk is the fast path: one `open` per
/// component and one `fstat`, no `realpath`.
///
/// When the walk meets a symlink and the policy is ``LocalFileHandler/SymlinkPolicy/followWithinRoot``,
/// the slow path resolves the whole path with `realpath`, checks by whole components that the
/// result lies inside the root's real path (`/srv/root-old` is not inside `/srv/root`), and then
/// walks the *resolved* components again from the root descriptor with `O_NOFOLLOW`. A symlink
/// swapped in between (a TOCTOU race) makes that second walk fail, and the request is refused.
struct FileResolver: Sendable {
    enum Resolution {
        /// A regular file, open, with the name that decides its MIME type (the index file's
        /// name for a directory).
        case file(FileDescriptorStat, name: String)
        /// A directory without an index file, open.
        case directory(FileDescriptorStat)
        case notFound
        case forbidden
    }

    private enum Walk {
        case opened(FileDescriptorStat)
        case notFound
        case forbidden
        case symlink
    }

    let symlinkPolicy: LocalFileHandler.SymlinkPolicy
    let indexFileName: String?

    /// Opens `components` under `rootPath`. The caller closes the descriptor it gets.
    func resolve(rootPath: String, components: [String]) -> Resolution {
        guard case .success(let root) = POSIX.openDirectory(rootPath) else { return .notFound }
        defer { POSIX.close(root) }
        let opened: FileDescriptorStat
        switch walkOrFollow(root: root, rootPath: rootPath, components: components) {
        case .opened(let file): opened = file
        case .notFound, .symlink: return .notFound
        case .forbidden: return .forbidden
        }
        switch opened.kind {
        case .regular:
            return .file(opened, name: components.last ?? "")
        case .other:
            opened.close()
            return .forbidden
        case .directory:
            guard let indexFileName else { return .directory(opened) }
            switch walk(from: opened.fd, [indexFileName]) {
            case .opened(let index) where index.kind == .regular:
                opened.close()
                return .file(index, name: indexFileName)
            case .opened(let other):
                other.close()
                return .directory(opened)
            case .notFound:
                return .directory(opened)
            case .forbidden:
                opened.close()
                return .forbidden
            case .symlink:
                opened.close()
                switch followSymlinks(root: root, rootPath: rootPath, components: components + [indexFileName]) {
                case .opened(let index) where index.kind == .regular: return .file(index, name: indexFileName)
                case .opened(let other):
                    other.close()
                    return .forbidden
                case .notFound: return .notFound
                case .forbidden, .symlink: return .forbidden
                }
            }
        }
    }

    private func walkOrFollow(root: Int32, rootPath: String, components: [String]) -> Walk {
        let walked = walk(from: root, components)
        guard case .symlink = walked else { return walked }
        return followSymlinks(root: root, rootPath: rootPath, components: components)
    }

    /// `openat` component by component with `O_NOFOLLOW`.
    private func walk(from base: Int32, _ components: some Collection<String>) -> Walk {
        if components.isEmpty {
            return open(base, ".", flags: POSIX.directoryFlags, closing: nil)
        }
        var directory = base
        var remaining = components.count
        for name in components {
            remaining -= 1
            let flags = remaining == 0 ? POSIX.fileFlags : POSIX.directoryFlags
            let result = open(directory, name, flags: flags, closing: directory == base ? nil : directory)
            guard case .opened(let opened) = result else { return result }
            if remaining == 0 { return result }
            directory = opened.fd
        }
        return .notFound  // Unreachable: the loop returns on the last component.
    }

    private func open(_ directory: Int32, _ name: String, flags: Int32, closing: Int32?) -> Walk {
        let result = POSIX.openAt(directory, name, flags: flags)
        defer { if let closing { POSIX.close(closing) } }
        switch result {
        case .success(let fd):
            guard let opened = FileDescriptorStat(adopting: fd) else { return .forbidden }
            return .opened(opened)
        case .failure(let error):
            switch error.code {
            case POSIX.notFound: return .notFound
            // Linux reports a symlink opened with O_DIRECTORY | O_NOFOLLOW as "not a directory".
            case POSIX.notDirectory: return POSIX.isSymlink(directory, name) ? .symlink : .notFound
            case POSIX.symlinkLoop, POSIX.tooManyLinks: return .symlink
            default: return .forbidden
            }
        }
    }

    /// The slow path for paths through symlinks; see the type's documentation.
    private func followSymlinks(root: Int32, rootPath: String, components: [String]) -> Walk {
        guard symlinkPolicy == .followWithinRoot,
            let realRoot = POSIX.realPath(rootPath),
            let target = POSIX.realPath(rootPath + "/" + components.joined(separator: "/"))
        else { return .forbidden }
        let relative: Substring
        if realRoot == "/" {
            relative = target.dropFirst()
        } else if target == realRoot {
            relative = ""
        } else if target.utf8.starts(with: realRoot.utf8),
            target.utf8.dropFirst(realRoot.utf8.count).first == UInt8(ascii: "/")
        {
            relative = target[target.utf8.index(target.utf8.startIndex, offsetBy: realRoot.utf8.count + 1)...]
        } else {
            return .forbidden
        }
        let resolved = relative.split(separator: "/").map(String.init)
        let walked = walk(from: root, resolved)
        if case .symlink = walked { return .forbidden }
        return walked
    }
}
