import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
/// Under ``LocalFileHandler/SymlinkPolicy/follow`` a target outside the root is walked the same
/// way from `/`. Either way the path `realpath` resolves is the root's plus the request's
/// components, none of them `..`: only the tree's own links can lead out of it.
///
/// ## Variants
/// A caller may name file-name suffixes (`.br`, `.gz`) to prefer: when the walk ends on a regular
/// file, each `name + suffix` is tried in the directory the file was found in, with the same
/// `openat(…, O_NOFOLLOW)`, and the first regular file wins. The path is still walked once.
struct FileResolver: Sendable {
    enum Resolution {
        /// A regular file, open, with the name that decides its MIME type (the index file's
        /// name for a directory), the index of the variant suffix opened in its place, if any, and
        /// whether it is a directory's index file.
        case file(FileDescriptorStat, name: String, variant: Int?, isIndex: Bool = false)
        /// A directory without an index file, open.
        case directory(FileDescriptorStat)
        case notFound
        case forbidden
        /// The path goes through a symbolic link the policy does not follow.
        case refusedLink
    }

    private enum Walk {
        /// What the walk opened, and which variant suffix (if any) it opened in place of the name.
        case opened(FileDescriptorStat, variant: Int?)
        case notFound
        case forbidden
        case symlink
        /// A link the policy does not follow.
        case refusedLink
    }

    let symlinkPolicy: LocalFileHandler.SymlinkPolicy
    let indexFileName: String?

    /// Opens `components` under `rootPath`, preferring `name + variants[i]` siblings of a regular
    /// file (see the type's documentation). The caller closes the descriptor it gets.
    func resolve(rootPath: String, components: [String], variants: [String] = []) -> Resolution {
        // Fast path for a regular file right under the root: one `open` of `root/name` with
        // `O_NOFOLLOW` is the same walk (the root itself is trusted configuration, followed as
        // `openDirectory` follows it). Anything else (a link, a directory, an error) takes the
        // full walk below, which decides.
        if components.count == 1, variants.isEmpty,
            case .success(let fd) = POSIX.openPath(rootPath + "/" + components[0], flags: POSIX.fileFlags),
            let file = FileDescriptorStat(adopting: fd)
        {
            if file.kind == .regular { return .file(file, name: components[0], variant: nil) }
            file.close()
        }
        guard case .success(let root) = POSIX.openDirectory(rootPath) else { return .notFound }
        defer { POSIX.close(root) }
        let opened: FileDescriptorStat
        let openedVariant: Int?
        switch walkOrFollow(root: root, rootPath: rootPath, components: components, variants: variants) {
        case .opened(let file, let variant):
            opened = file
            openedVariant = variant
        case .notFound, .symlink: return .notFound
        case .forbidden: return .forbidden
        case .refusedLink: return .refusedLink
        }
        switch opened.kind {
        case .regular:
            return .file(opened, name: components.last ?? "", variant: openedVariant)
        case .other:
            opened.close()
            return .forbidden
        case .directory:
            guard let indexFileName else { return .directory(opened) }
            switch walk(from: opened.fd, [indexFileName], variants: variants) {
            case .opened(let index, let variant) where index.kind == .regular:
                opened.close()
                return .file(index, name: indexFileName, variant: variant, isIndex: true)
            case .opened(let other, _):
                other.close()
                return .directory(opened)
            case .notFound:
                return .directory(opened)
            case .forbidden, .refusedLink:
                opened.close()
                return .forbidden
            case .symlink:
                opened.close()
                switch followSymlinks(
                    root: root, rootPath: rootPath, components: components + [indexFileName], variants: variants)
                {
                case .opened(let index, let variant) where index.kind == .regular:
                    return .file(index, name: indexFileName, variant: variant, isIndex: true)
                case .opened(let other, _):
                    other.close()
                    return .forbidden
                case .notFound: return .notFound
                case .forbidden, .symlink: return .forbidden
                case .refusedLink: return .refusedLink
                }
            }
        }
    }

    private func walkOrFollow(root: Int32, rootPath: String, components: [String], variants: [String]) -> Walk {
        let walked = walk(from: root, components, variants: variants)
        guard case .symlink = walked else { return walked }
        return followSymlinks(root: root, rootPath: rootPath, components: components, variants: variants)
    }

    /// `openat` component by component with `O_NOFOLLOW`; at the end, a variant of a regular file.
    private func walk(from base: Int32, _ components: some Collection<String>, variants: [String]) -> Walk {
        if components.isEmpty {
            return open(base, ".", flags: POSIX.directoryFlags)
        }
        var directory = base
        defer { if directory != base { POSIX.close(directory) } }
        var remaining = components.count
        for name in components {
            remaining -= 1
            let flags = remaining == 0 ? POSIX.fileFlags : POSIX.directoryFlags
            let result = open(directory, name, flags: flags)
            guard case .opened(let opened, _) = result else { return result }
            if remaining == 0 {
                guard !variants.isEmpty, opened.kind == .regular,
                    let variant = openVariant(of: name, in: directory, variants)
                else { return result }
                opened.close()
                return variant
            }
            if directory != base { POSIX.close(directory) }
            directory = opened.fd
        }
        return .notFound  // Unreachable: the loop returns on the last component.
    }

    /// The first of `name + suffix` in `directory` that is a regular file (never through a link).
    private func openVariant(of name: String, in directory: Int32, _ suffixes: [String]) -> Walk? {
        for (index, suffix) in suffixes.enumerated() {
            guard case .opened(let file, _) = open(directory, name + suffix, flags: POSIX.fileFlags) else { continue }
            if file.kind == .regular { return .opened(file, variant: index) }
            file.close()
        }
        return nil
    }

    private func open(_ directory: Int32, _ name: String, flags: Int32) -> Walk {
        switch POSIX.openAt(directory, name, flags: flags) {
        case .success(let fd):
            guard let opened = FileDescriptorStat(adopting: fd) else { return .forbidden }
            return .opened(opened, variant: nil)
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

    /// Opens the directory `components` name under `rootPath`, walking with `openat(…,
    /// O_NOFOLLOW | O_DIRECTORY)` so no symbolic link below the root is followed; with
    /// `creating`, a missing directory is made (`mkdirat`, mode 0755) on the way. The caller
    /// closes the descriptor. For writers (network write-through) that must stay inside a root.
    static func openDirectory(
        rootPath: String, components: some Collection<String>, creating: Bool
    ) -> Result<Int32, POSIX.Errno> {
        var directory: Int32
        switch POSIX.openDirectory(rootPath) {
        case .success(let fd): directory = fd
        case .failure(let error):
            guard creating, error.code == POSIX.notFound,
                (try? FileManager.default.createDirectory(atPath: rootPath, withIntermediateDirectories: true)) != nil
            else { return .failure(error) }
            switch POSIX.openDirectory(rootPath) {
            case .success(let fd): directory = fd
            case .failure(let error): return .failure(error)
            }
        }
        for name in components {
            var next = POSIX.openAt(directory, name, flags: POSIX.directoryFlags)
            if case .failure(let error) = next, error.code == POSIX.notFound, creating {
                if mkdirat(directory, name, 0o755) != 0, errno != EEXIST {
                    let code = errno
                    POSIX.close(directory)
                    return .failure(POSIX.Errno(code))
                }
                next = POSIX.openAt(directory, name, flags: POSIX.directoryFlags)
            }
            POSIX.close(directory)
            switch next {
            case .success(let fd): directory = fd
            case .failure(let error): return .failure(error)
            }
        }
        return .success(directory)
    }

    /// The slow path for paths through symlinks; see the type's documentation.
    private func followSymlinks(root: Int32, rootPath: String, components: [String], variants: [String]) -> Walk {
        guard symlinkPolicy != .refuse else { return .refusedLink }
        guard let realRoot = POSIX.realPath(rootPath),
            let target = POSIX.realPath(rootPath + "/" + components.joined(separator: "/"))
        else { return .forbidden }
        // Byte-wise: a `/` followed by a combining mark is one `Character`, which `Character`
        // operations would neither drop nor split on.
        let targetBytes = Array(target.utf8)
        let rootBytes = Array(realRoot.utf8)
        let relative: ArraySlice<UInt8>
        if realRoot == "/" {
            relative = targetBytes.dropFirst()
        } else if targetBytes == rootBytes {
            relative = []
        } else if targetBytes.starts(with: rootBytes), targetBytes.count > rootBytes.count,
            targetBytes[rootBytes.count] == UInt8(ascii: "/")
        {
            relative = targetBytes[(rootBytes.count + 1)...]
        } else {
            guard symlinkPolicy == .follow else { return .refusedLink }
            return walkResolved(targetBytes.dropFirst(), from: "/", variants: variants)
        }
        let resolved = relative.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        let walked = walk(from: root, resolved, variants: variants)
        if case .symlink = walked { return .forbidden }
        return walked
    }

    /// Walks `relative`, a path `realpath` resolved (no link left in it), from the directory at
    /// `base` with `O_NOFOLLOW`: a link swapped in meanwhile is refused.
    private func walkResolved(_ relative: ArraySlice<UInt8>, from base: String, variants: [String]) -> Walk {
        guard case .success(let directory) = POSIX.openDirectory(base) else { return .forbidden }
        defer { POSIX.close(directory) }
        let resolved = relative.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        let walked = walk(from: directory, resolved, variants: variants)
        if case .symlink = walked { return .forbidden }
        return walked
    }
}
