// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKitPackages
    import Testing

    /// `checkForUpdate(manifestURL:)` against a real loopback origin.
    struct PackageUpdateTests {
        /// A store with 1.0.0 (previous) and 1.1.0 (active), and an origin publishing `offered`.
        private func setUp(_ temp: TestDirectory, offered: String, manifest: ((String, Int64) -> String)? = nil)
            async throws
            -> (PackageStore, HTTPOrigin)
        {
            let www = temp.path("www")
            try FileManager.default.createDirectory(
                at: www.appending(path: "packages"), withIntermediateDirectories: true)
            try TestPackage.webApp(offered).zip(to: www.appending(path: "packages/app-\(offered).zip"))
            let (sha, size) = try digest(of: www.appending(path: "packages/app-\(offered).zip"))
            let json =
                manifest?(sha, size)
                ?? #"{"version": "\#(offered)", "url": "packages/app-\#(offered).zip", "sha256": "\#(sha)", "size": \#(size)}"#
            try Data(json.utf8).write(to: www.appending(path: "manifest.json"))
            let origin = try HTTPOrigin(serving: www)
            let store = try await PackageStore(
                directory: temp.path("store"), httpClient: LoopbackHTTPClient(),
                configuration: .init(syncsToDisk: false, allowsPlainHTTP: true))
            for version in ["1.0.0", "1.1.0"] {
                try TestPackage.webApp(version).zip(to: temp.path("\(version).zip"))
                try await store.install(
                    PackageInstallRequest(source: .file(temp.path("\(version).zip")), version: version))
            }
            return (store, origin)
        }

        @Test func aNewerVersionIsDownloadedVerifiedAndActivated() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "1.10.0")
            defer { origin.stop() }

            let result = try await store.checkForUpdate(manifestURL: origin.url("manifest.json"))

            guard case .installed(let installed) = result else {
                Issue.record("expected an install, got \(result)")
                return
            }
            #expect(installed.version == "1.10.0")
            #expect(try store.activeVersion()?.version == "1.10.0")
            #expect(try files(under: store.activeRoot()) == files(under: temp.path("store/versions/1.10.0")))
            #expect(try store.versions().first { $0.isPrevious }?.version == "1.1.0")
        }

        @Test func theSameVersionChangesNothing() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "1.1.0")
            defer { origin.stop() }
            let before = try StoreSnapshot(temp.path("store"))

            #expect(
                try await store.checkForUpdate(manifestURL: origin.url("manifest.json")) == .upToDate(version: "1.1.0"))
            #expect(try StoreSnapshot(temp.path("store")) == before)
        }

        @Test func anOlderVersionChangesNothing() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "1.0.9")
            defer { origin.stop() }
            let before = try StoreSnapshot(temp.path("store"))

            let result = try await store.checkForUpdate(manifestURL: origin.url("manifest.json"))

            #expect(result == .offeredVersionIsOlder(offered: "1.0.9", installed: "1.1.0"))
            #expect(try StoreSnapshot(temp.path("store")) == before)
        }

        @Test func aVersionRolledBackFromIsNotReinstalled() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "1.1.0")
            defer { origin.stop() }
            try await store.rollback()

            #expect(
                try await store.checkForUpdate(manifestURL: origin.url("manifest.json")) == .upToDate(version: "1.1.0"))
            #expect(try store.activeVersion()?.version == "1.0.0")
        }

        @Test func aManifestWithAWrongDigestFailsAndChangesNothing() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "2.0.0") { _, size in
                #"{"version": "2.0.0", "url": "packages/app-2.0.0.zip", "sha256": "\#(String(repeating: "1", count: 64))", "size": \#(size)}"#
            }
            defer { origin.stop() }
            let before = try StoreSnapshot(temp.path("store"))

            let error = await #expect(throws: PackageStoreError.self) {
                try await store.checkForUpdate(manifestURL: origin.url("manifest.json"))
            }
            #expect(error?.kind == .checksumMismatch)
            #expect(try StoreSnapshot(temp.path("store")) == before)
        }

        @Test func anInvalidManifestIsReported() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let (store, origin) = try await setUp(temp, offered: "2.0.0") { _, _ in #"{"version": "2.0.0"}"# }
            defer { origin.stop() }

            let error = await #expect(throws: PackageStoreError.self) {
                try await store.checkForUpdate(manifestURL: origin.url("manifest.json"))
            }
            #expect(error?.kind == .invalidManifest)
        }
    }
#endif
