// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation
    internal import SchemeKit

    extension PackageStore {
        /// Installs a package and makes it the active version.
        ///
        /// Steps, all under the store lock: copy or download into `staging/`, hashing on the way; compare
        /// size and SHA-256; extract into a fresh staging directory with every check of
        /// `ArchiveExtractor`; find the version and entry point (request, then the package's
        /// `schemekit-package.json`, then ``Configuration/defaultEntryPoint``) and check that the entry point is
        /// a file; flush to disk; rename into `versions/<version>`; record it in `store.json`; switch the
        /// pointer with `rename(2)`; record the switch. The version that was active becomes the previous one.
        ///
        /// Installing a version that is already installed with the same SHA-256 just activates it (a no-op
        /// when it is active); with another SHA-256 it fails with ``PackageStoreError/Kind/versionConflict``.
        ///
        /// - Parameters:
        ///   - request: What to install.
        ///   - observer: Called synchronously at each step (see ``PackageInstallEvent``). Default: `nil`.
        /// A failed install leaves no store behind that was not there before: when this instance
        /// created the store directory (see ``init(directory:httpClient:configuration:)``) and nothing
        /// has been installed in it yet, the failure removes the directory again, with the parents
        /// created for it.
        ///
        /// - Returns: The installed, now active version.
        /// - Throws: ``PackageStoreError`` (the store is then unchanged), or `CancellationError`.
        @discardableResult
        public func install(
            _ request: PackageInstallRequest,
            observer: (@Sendable (PackageInstallEvent) -> Void)? = nil
        ) async throws -> PackageVersion {
            do {
                return try await installOrThrow(request, observer: observer)
            } catch {
                removeIfCreatedAndStillEmpty()
                throw error
            }
        }

        /// ``install(_:observer:)`` without the cleanup of a store created for it.
        private func installOrThrow(
            _ request: PackageInstallRequest,
            observer: (@Sendable (PackageInstallEvent) -> Void)?
        ) async throws -> PackageVersion {
            let expectedSHA = try request.sha256.map(Self.normalizedDigest)
            if let version = request.version { try StoreLayout.validateVersion(version) }
            if let entryPoint = request.entryPoint { _ = try Self.entryPointPath(entryPoint) }
            if case .remote(let url) = request.source { _ = try checkedClient(for: url) }

            return try await withLock {
                var metadata = try recover()
                observer?(.locked)
                let id = UUID().uuidString
                let archive = layout.staging + "/" + id + ".zip"
                let unpacked = layout.staging + "/" + id
                defer {
                    try? FileSystem.removeTree(archive)
                    try? FileSystem.removeTree(unpacked)
                }

                let fetcher = ArchiveFetcher(
                    limits: configuration.limits, expectedSize: request.size, observer: observer)
                let fetched: ArchiveFetcher.Result
                switch request.source {
                case .file(let url):
                    fetched = try fetcher.copy(from: url, to: archive)
                case .remote(let url):
                    fetched = try await fetcher.download(
                        url, client: try checkedClient(for: url), timeout: configuration.downloadTimeout, to: archive)
                }
                observer?(.transferred(bytes: fetched.size))
                if let size = request.size, size != fetched.size {
                    throw PackageStoreError(.sizeMismatch(expected: size, actual: fetched.size))
                }
                if let expectedSHA, expectedSHA != fetched.sha256 {
                    throw PackageStoreError(.checksumMismatch(expected: expectedSHA, actual: fetched.sha256))
                }
                observer?(.verified)

                try FileSystem.makeDirectory(unpacked, existingIsFine: false)
                let extracted = try ArchiveExtractor(limits: configuration.limits, observer: observer)
                    .extract(archive: archive, into: unpacked)
                try FileSystem.removeTree(archive)
                observer?(.extracted)

                let manifest = try PackageManifest.load(from: unpacked, files: extracted.files)
                guard let version = request.version ?? manifest?.version else {
                    throw PackageStoreError(
                        .missingVersion(folder: PackageStoreError.wrappingFolder(of: extracted.files)))
                }
                try StoreLayout.validateVersion(version)
                let entryPoint = try Self.entryPointPath(
                    request.entryPoint ?? manifest?.entryPoint ?? configuration.defaultEntryPoint)
                guard extracted.files.contains(entryPoint) else {
                    throw PackageStoreError(
                        .missingEntryPoint(entryPoint, folder: PackageStoreError.wrappingFolder(of: extracted.files)))
                }

                if let existing = metadata.record(version) {
                    guard existing.sha256 == fetched.sha256 else {
                        throw PackageStoreError(
                            .versionConflict(version: version, installed: existing.sha256, offered: fetched.sha256))
                    }
                    if metadata.active != version { try activate(version, metadata: &metadata, observer: observer) }
                    observer?(.finished(version: version))
                    return listing(existing, metadata)
                }

                if configuration.syncsToDisk { try FileSystem.syncFileSystem(containing: unpacked) }
                observer?(.validated(version: version))
                try FileSystem.rename(unpacked, layout.version(version))
                if configuration.syncsToDisk { try FileSystem.sync(layout.versions) }
                observer?(.stored(version: version))

                let record = StoreMetadata.Record(
                    version: version, sha256: fetched.sha256, archiveSize: fetched.size, entryPoint: entryPoint,
                    installedAt: Date(), activatedAt: nil)
                metadata.versions.append(record)
                try metadata.save(layout.metadata, durable: configuration.syncsToDisk)
                observer?(.recorded(version: version))

                try activate(version, metadata: &metadata, observer: observer)
                observer?(.finished(version: version))
                return listing(metadata.record(version) ?? record, metadata)
            }
        }

        /// Runs `body` holding the store lock.
        func withLock<T>(_ body: () async throws -> T) async throws -> T {
            try await FileLock.withLock(layout.lock, body)
        }

        /// The HTTP client, after checking that `url` may be fetched with it.
        func checkedClient(for url: URL) throws -> any SchemeHTTPClient {
            let scheme = url.scheme?.lowercased()
            guard scheme == "https" || (scheme == "http" && configuration.allowsPlainHTTP) else {
                throw PackageStoreError(.insecureURL(url.absoluteString))
            }
            guard let httpClient else { throw PackageStoreError(.noHTTPClient) }
            return httpClient
        }

        /// A SHA-256 in lowercase hex, or ``PackageStoreError/Kind/invalidChecksum``.
        static func normalizedDigest(_ digest: String) throws -> String {
            let lowercased = digest.lowercased()
            guard lowercased.utf8.count == 64,
                lowercased.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
            else { throw PackageStoreError(.invalidChecksum(digest)) }
            return lowercased
        }

        /// The entry point as a validated relative path.
        static func entryPointPath(_ entryPoint: String) throws -> String {
            do {
                return try ZipEntryPath(entryPoint).relative
            } catch {
                throw PackageStoreError(.invalidEntryPoint(entryPoint))
            }
        }
    }
#endif
