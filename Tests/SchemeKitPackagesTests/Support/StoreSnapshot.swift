// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation

    /// Everything observable in a store directory: each file's bytes, each link's target, each directory.
    ///
    /// Two equal snapshots mean the store is unchanged byte for byte (the lock file is ignored).
    struct StoreSnapshot: Equatable, CustomStringConvertible {
        enum Node: Equatable {
            case file(Data)
            case directory
            case link(String)
        }

        var nodes: [String: Node] = [:]

        init(_ root: URL) throws {
            let manager = FileManager.default
            for relative in try relativePaths(under: root) {
                if relative == ".lock" { continue }
                let path = root.appending(path: relative).path
                let attributes = try manager.attributesOfItem(atPath: path)
                switch attributes[.type] as? FileAttributeType {
                case .typeSymbolicLink?: nodes[relative] = .link(try manager.destinationOfSymbolicLink(atPath: path))
                case .typeDirectory?: nodes[relative] = .directory
                default: nodes[relative] = .file(try Data(contentsOf: URL(fileURLWithPath: path)))
                }
            }
        }

        var description: String { nodes.keys.sorted().joined(separator: "\n") }
    }

    /// The files of a directory tree by relative path (for comparing an installed version with its package).
    func files(under root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let manager = FileManager.default
        for relative in try relativePaths(under: root) {
            var isDirectory: ObjCBool = false
            let path = root.appending(path: relative).path
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    /// Every path under `root`, relative to it, depth first; symbolic links are listed, not followed.
    ///
    /// Not `FileManager.enumerator(atPath:)`: on Linux it returns a name that starts with a
    /// combining mark (U+059C, an extracted entry FuzzZip made) as a mangled absolute path, because
    /// it strips the directory's prefix by characters and the mark joins the "/" before it.
    func relativePaths(under root: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        var result: [String] = []
        func walk(_ directory: String, _ prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                let relative = prefix + name
                result.append(relative)
                let path = directory + "/" + name
                let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
                if type == .typeDirectory { try walk(path, relative + "/") }
            }
        }
        try walk(root.path, "")
        return result
    }

    /// Whether two file URLs name the same path (ignoring a trailing slash).
    func samePath(_ a: URL, _ b: URL) -> Bool {
        func normal(_ url: URL) -> String {
            var path = url.standardizedFileURL.path
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            return path
        }
        return normal(a) == normal(b)
    }
#endif
