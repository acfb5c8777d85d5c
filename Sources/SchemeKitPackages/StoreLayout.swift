// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// Where things live inside a store directory.
    ///
    /// ```
    /// <store>/
    ///   .lock                 flock(2) target: one writer at a time, across processes
    ///   store.json            StoreMetadata, replaced atomically
    ///   current -> versions/<v>   the active pointer, replaced atomically (symlink + rename)
    ///   versions/<v>/…        installed, complete, never modified versions
    ///   staging/              downloads, extractions and deletions in progress; emptied on every open
    /// ```
    struct StoreLayout: Sendable {
        let root: String

        var lock: String { root + "/.lock" }
        var metadata: String { root + "/store.json" }
        var pointer: String { root + "/current" }
        var versions: String { root + "/versions" }
        var staging: String { root + "/staging" }

        func version(_ name: String) -> String { versions + "/" + name }

        /// The relative target of the pointer for `version`, so the store can be moved as a whole.
        static func pointerTarget(_ version: String) -> String { "versions/" + version }

        /// The version the pointer names, when it names a directory that exists; `nil` otherwise.
        func pointedVersion() -> String? {
            guard let target = FileSystem.symbolicLinkTarget(pointer), target.hasPrefix("versions/") else { return nil }
            let name = String(target.dropFirst("versions/".count))
            guard (try? Self.validateVersion(name)) != nil, FileSystem.isDirectory(version(name)) else { return nil }
            return name
        }

        /// Throws unless `name` is usable as a version directory name: 1–128 of `A-Z a-z 0-9 . _ + -`,
        /// starting with a letter or digit.
        static func validateVersion(_ name: String) throws {
            let allowed = name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2B || byte == 0x2D
            }
            let first = name.utf8.first ?? 0
            let startsWell =
                (first >= 0x30 && first <= 0x39) || (first >= 0x41 && first <= 0x5A)
                || (first >= 0x61 && first <= 0x7A)
            guard allowed, startsWell, name.utf8.count <= 128 else { throw PackageStoreError(.invalidVersion(name)) }
        }
    }
#endif
