// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension PackageStore {
        /// The topmost directory that opening `root` will create: `root` itself or its highest missing
        /// ancestor; `nil` when `root` already exists.
        static func topmostMissingDirectory(of root: String) -> String? {
            guard !FileSystem.exists(root) else { return nil }
            var top = root
            var parent = FileSystem.parent(of: top)
            while parent != top, !parent.isEmpty, !FileSystem.exists(parent) {
                top = parent
                parent = FileSystem.parent(of: top)
            }
            return top
        }

        /// After a failed install: removes the store directory (and the parents created with it) when
        /// this instance created it and nothing has been installed in it since, so that a failed first
        /// install leaves no store behind that was not there before.
        ///
        /// Only what a store consists of is removed, and directories only when empty, so anything
        /// another process put there meanwhile stays. Nothing is removed while another holder has the
        /// store lock (it is using the store).
        func removeIfCreatedAndStillEmpty() {
            guard let createdDirectory else { return }
            let fd = open(layout.lock, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }
            defer { flock(fd, LOCK_UN) }
            guard layout.pointedVersion() == nil, !FileSystem.exists(layout.pointer),
                (try? FileSystem.contents(of: layout.versions))?.isEmpty == true,
                (try? StoreMetadata.load(layout.metadata))?.versions.isEmpty == true
            else { return }
            try? FileSystem.removeTree(layout.staging)
            try? FileSystem.removeTree(layout.metadata)
            _ = rmdir(layout.versions)
            _ = unlink(layout.lock)
            var directory = layout.root
            while rmdir(directory) == 0, directory != createdDirectory {
                let parent = FileSystem.parent(of: directory)
                guard parent != directory else { break }
                directory = parent
            }
        }
    }
#endif
