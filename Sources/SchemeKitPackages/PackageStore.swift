// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    public import Foundation
    public import SchemeKit

    /// A directory of installed versions of an offline web package, with an atomically switched active one.
    ///
    /// The package (HTML, JS, CSS, images) arrives as a zip archive. ``install(_:observer:)`` copies or
    /// downloads it into the store's staging area, verifies its size and SHA-256, extracts it entry by
    /// entry with strict checks, checks the entry point, moves the result into `versions/<version>/` and
    /// then switches the active pointer with one `rename(2)`. Until that rename, the previous version is
    /// active and untouched; after it, every new request sees the new version.
    ///
    /// ```swift
    /// let store = try await PackageStore(directory: appSupport.appending(path: "web"), httpClient: client)
    /// try await store.install(PackageInstallRequest(source: .remote(url), sha256: digest, size: size))
    /// let files = LocalFileHandler(configuration: .init(root: .dynamic(store.activeRoot)))  // the active version
    /// ```
    ///
    /// The file handler's default `Cache-Control: no-cache` makes a web view ask again for every file
    /// on every load, so a switch shows at once. A package's files never change within a version: to
    /// let the engine keep them in its memory cache between loads, serve them with
    /// `cacheControl: "max-age=31536000, immutable"` and empty that cache after each install or
    /// rollback (WebKitGTK: `WebKitSchemeAdapter.clearMemoryCache()`).
    ///
    /// ## Layout and pointer
    /// `current` is a symbolic link to `versions/<v>`, replaced by creating a temporary link and renaming
    /// it over the old one. Readers resolve it **once per request** with ``activeRoot()``, which returns
    /// the version's real directory, so one response is served from one version even if a switch
    /// happens while it runs. `store.json` lists the versions (SHA-256, size,
    /// entry point, install date) and the previous one; it is written with temporary file + rename.
    ///
    /// ## Crash safety
    /// A process killed at any point (even `SIGKILL`) leaves the previously active version active and intact:
    /// nothing under `versions/` is modified in place, and the only step that changes what is served is
    /// the pointer's rename. Leftovers (staging files, half-written metadata, a version stored but never
    /// activated) are removed by the next locked operation — every ``init(directory:httpClient:configuration:)``,
    /// install, rollback and garbage collection starts with that recovery. With
    /// ``Configuration/syncsToDisk`` the files and directories are flushed before the switch, so a power
    /// loss cannot expose an empty file either.
    ///
    /// ## Concurrency
    /// Changes serialise on an `flock(2)` of `<store>/.lock`, across tasks and processes; a second install
    /// waits for the first. Reads (``versions()``, ``activeRoot()``) take no lock. Extraction is
    /// synchronous work on the calling task.
    ///
    /// ## In-flight responses
    /// Garbage collection keeps the active and the previous version, so a request that resolved the root
    /// just before a switch still finds its files. A response that already opened a file keeps reading it
    /// even if its version is later deleted: on Linux and Darwin an open descriptor stays valid after unlink.
    ///
    /// ## Symbolic links
    /// Packages may not contain symbolic links at all (``PackageStoreError/Kind/symbolicLinkEntry``):
    /// a web package does not need them, and links inside the package can be chained to escape it.
    public final class PackageStore: Sendable {
        /// The store directory.
        public let directory: URL
        /// The configuration the store was opened with.
        public let configuration: Configuration
        let layout: StoreLayout
        let httpClient: (any SchemeHTTPClient)?
        /// The topmost directory this instance created when it opened the store (the store directory
        /// or its highest missing parent); `nil` when the store directory existed.
        let createdDirectory: String?

        /// Opens (creating if needed) the store at `directory` and cleans up after interrupted operations.
        ///
        /// - Parameters:
        ///   - directory: The store directory; created with its parents if missing. If the first
        ///     ``install(_:observer:)`` through this instance fails, what was created is removed again.
        ///   - httpClient: The client for ``PackageInstallRequest/Source/remote(_:)`` installs and update
        ///     checks. Default: `nil`, local installs only.
        ///   - configuration: Limits and options. Default: ``Configuration/init(limits:syncsToDisk:allowsPlainHTTP:downloadTimeout:defaultEntryPoint:)``.
        /// - Throws: ``PackageStoreError`` when the directory cannot be created or the metadata is unreadable.
        public init(
            directory: URL,
            httpClient: (any SchemeHTTPClient)? = nil,
            configuration: Configuration = Configuration()
        ) async throws {
            self.directory = directory.standardizedFileURL
            self.configuration = configuration
            self.httpClient = httpClient
            self.layout = StoreLayout(root: self.directory.path)
            self.createdDirectory = Self.topmostMissingDirectory(of: layout.root)
            try FileSystem.makeDirectories(layout.root)
            try FileSystem.makeDirectory(layout.versions)
            try FileSystem.makeDirectory(layout.staging)
            _ = try await FileLock.withLock(layout.lock) { try recover() }
        }

        // MARK: - Reading

        /// The directory of the active version, resolved from the pointer now.
        ///
        /// Call it once per request and serve the whole response from the returned directory.
        /// - Throws: ``PackageStoreError/Kind/noActiveVersion`` when nothing is installed.
        public func activeRoot() throws -> URL {
            guard let version = layout.pointedVersion() else { throw PackageStoreError(.noActiveVersion) }
            return directory.appending(path: StoreLayout.pointerTarget(version), directoryHint: .isDirectory)
        }

        /// The active version, or `nil` when nothing is installed.
        public func activeVersion() throws -> PackageVersion? {
            try versions().first { $0.isActive }
        }

        /// The installed versions, oldest version number first, marking the active and the previous one.
        ///
        /// An install in progress (stored but not yet switched to) is not listed.
        public func versions() throws -> [PackageVersion] {
            var metadata = try StoreMetadata.load(layout.metadata)
            metadata.reconcile(pointer: layout.pointedVersion(), now: Date())
            return
                metadata.versions
                .filter { $0.activatedAt != nil || $0.version == metadata.active }
                .filter { FileSystem.isDirectory(layout.version($0.version)) }
                .sorted { VersionOrder.compare($0.version, $1.version) < 0 }
                .map { listing($0, metadata) }
        }

        /// Whether version string `a` is newer than `b`, in the order ``checkForUpdate(manifestURL:)`` uses.
        ///
        /// Dotted numbers compare numerically (`1.10` > `1.9`, `1.2` == `1.2.0`), a leading `v` and build
        /// metadata (`+…`) are ignored, and a pre-release sorts before its release (`2.0-beta` < `2.0`),
        /// as in Semantic Versioning 2.0.0.
        package static func isVersion(_ a: String, newerThan b: String) -> Bool {
            VersionOrder.compare(a, b) > 0
        }

        func listing(_ record: StoreMetadata.Record, _ metadata: StoreMetadata) -> PackageVersion {
            PackageVersion(
                version: record.version, sha256: record.sha256, archiveSize: record.archiveSize,
                entryPoint: record.entryPoint, installedAt: record.installedAt,
                directory: directory.appending(
                    path: StoreLayout.pointerTarget(record.version), directoryHint: .isDirectory),
                isActive: record.version == metadata.active, isPrevious: record.version == metadata.previous)
        }

        // MARK: - Changing

        /// Switches back to the previous version; the version switched from becomes the previous one.
        ///
        /// - Returns: The now active version.
        /// - Throws: ``PackageStoreError/Kind/noPreviousVersion`` when there is none.
        @discardableResult
        public func rollback() async throws -> PackageVersion {
            try await FileLock.withLock(layout.lock) {
                var metadata = try recover()
                guard let previous = metadata.previous, let record = metadata.record(previous) else {
                    throw PackageStoreError(.noPreviousVersion)
                }
                try activate(previous, metadata: &metadata, observer: nil)
                return listing(record, metadata)
            }
        }

        /// Deletes every version except the active and the previous one.
        ///
        /// - Returns: The deleted versions.
        @discardableResult
        public func collectGarbage() async throws -> [String] {
            try await FileLock.withLock(layout.lock) {
                var metadata = try recover()
                let keep = Set([metadata.active, metadata.previous].compactMap { $0 })
                let doomed = metadata.versions.map(\.version).filter { !keep.contains($0) }
                metadata.versions.removeAll { !keep.contains($0.version) }
                try metadata.save(layout.metadata, durable: configuration.syncsToDisk)
                for version in doomed { try discard(layout.version(version)) }
                return doomed.sorted { VersionOrder.compare($0, $1) < 0 }
            }
        }

        /// Switches the pointer to `version` and records the switch. Call with the lock held.
        func activate(
            _ version: String, metadata: inout StoreMetadata, observer: (@Sendable (PackageInstallEvent) -> Void)?
        ) throws {
            try FileSystem.replaceSymbolicLink(at: layout.pointer, target: StoreLayout.pointerTarget(version)) {
                observer?(.switching(version: version))
            }
            if configuration.syncsToDisk { try FileSystem.sync(layout.root) }
            observer?(.activated(version: version))
            metadata.reconcile(pointer: version, now: Date())
            try metadata.save(layout.metadata, durable: configuration.syncsToDisk)
        }

        /// Moves `path` into the staging area (one atomic rename) and deletes it there, so a crash
        /// mid-delete leaves nothing half-deleted in `versions/`.
        func discard(_ path: String) throws {
            guard FileSystem.exists(path) else { return }
            let trash = layout.staging + "/discard-" + UUID().uuidString
            try FileSystem.rename(path, trash)
            try FileSystem.removeTree(trash)
        }

        /// Removes leftovers of interrupted operations and repairs the metadata. Call with the lock held.
        ///
        /// - Returns: The repaired metadata.
        func recover() throws -> StoreMetadata {
            for name in try FileSystem.contents(of: layout.staging) {
                try FileSystem.removeTree(layout.staging + "/" + name)
            }
            for name in try FileSystem.contents(of: layout.root)
            where name.hasPrefix(".current.tmp-") || name.hasPrefix("store.json.tmp-") {
                try FileSystem.removeTree(layout.root + "/" + name)
            }
            let original = try StoreMetadata.load(layout.metadata)
            var metadata = original
            let pointer = layout.pointedVersion()
            metadata.reconcile(pointer: pointer, now: Date())
            // Versions stored but never switched to are interrupted installs; versions without a directory are gone.
            metadata.versions.removeAll { record in
                (record.activatedAt == nil && record.version != pointer)
                    || !FileSystem.isDirectory(layout.version(record.version))
            }
            if let previous = metadata.previous, metadata.record(previous) == nil { metadata.previous = nil }
            if pointer == nil && FileSystem.exists(layout.pointer) { try FileSystem.removeTree(layout.pointer) }
            let known = Set(metadata.versions.map(\.version))
            for name in try FileSystem.contents(of: layout.versions) where !known.contains(name) {
                try discard(layout.version(name))
            }
            if metadata != original { try metadata.save(layout.metadata, durable: configuration.syncsToDisk) }
            return metadata
        }
    }
#endif
