// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    public import Foundation
    internal import SchemeKit

    extension PackageStore {
        /// Fetches the update manifest at `manifestURL` and installs the version it offers when that is
        /// newer than every installed version.
        ///
        /// Call it at launch and when the app returns to the foreground. Versions compare as Semantic
        /// Versioning 2.0.0 orders them: dotted numbers numerically (`1.10` > `1.9`, `1.2` == `1.2.0`), a
        /// leading `v` and build metadata (`+…`) ignored, a pre-release before its release (`2.0-beta` <
        /// `2.0`). The comparison is against the newest *installed* version, not only the active one, so a
        /// version the user rolled back from is not installed again; a newer one is.
        ///
        /// - Returns: What was done.
        /// - Throws: ``PackageStoreError`` for an unreachable or invalid manifest and for any install failure
        ///   (the store is then unchanged).
        @discardableResult
        public func checkForUpdate(manifestURL: URL) async throws -> PackageUpdateResult {
            let manifest = try await fetchManifest(manifestURL)
            try StoreLayout.validateVersion(manifest.version)
            guard let archiveURL = URL(string: manifest.url, relativeTo: manifestURL)?.absoluteURL else {
                throw PackageStoreError(.invalidManifest("\"url\" is not a URL: \(manifest.url.prefix(200))"))
            }
            if let newest = try versions().max(by: { VersionOrder.compare($0.version, $1.version) < 0 }) {
                let order = VersionOrder.compare(manifest.version, newest.version)
                if order == 0 { return .upToDate(version: newest.version) }
                if order < 0 { return .offeredVersionIsOlder(offered: manifest.version, installed: newest.version) }
            }
            let installed = try await install(
                PackageInstallRequest(
                    source: .remote(archiveURL), version: manifest.version, sha256: manifest.sha256,
                    size: manifest.size,
                    entryPoint: manifest.entryPoint))
            return .installed(installed)
        }

        /// Downloads and decodes an update manifest (at most 1 MiB).
        func fetchManifest(_ url: URL) async throws -> PackageUpdateManifest {
            let client = try checkedClient(for: url)
            var data = Data()
            do {
                let response = try await client.send(SchemeHTTPClientRequest(url: url, timeout: .seconds(60)))
                guard response.head.status.code == 200 else {
                    throw PackageStoreError(.httpStatus(url: url.absoluteString, status: response.head.status.code))
                }
                for try await chunk in response.body {
                    data.append(chunk)
                    guard data.count <= 1 << 20 else {
                        throw PackageStoreError(.invalidManifest("\(url.absoluteString) is larger than 1 MiB"))
                    }
                }
            } catch let error as PackageStoreError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                throw PackageStoreError(.transferFailed(url: url.absoluteString, reason: "\(error)"))
            }
            do {
                return try JSONDecoder().decode(PackageUpdateManifest.self, from: data)
            } catch {
                throw PackageStoreError(.invalidManifest("\(url.absoluteString): \(error)"))
            }
        }
    }
#endif
