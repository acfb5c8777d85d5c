// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKitPackages
    import Synchronization
    import Testing
    import SchemeKit

    /// Installing packages: what lands on disk, what becomes active, what the metadata says.
    struct PackageInstallTests {
        @Test func installsALocalZipAndServesItFromTheActiveRoot() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let package = TestPackage.webApp("1.0.0")
            let zip = temp.path("app.zip")
            try package.zip(to: zip)
            let (sha, size) = try digest(of: zip)
            let store = try await PackageStore(directory: temp.path("store"))

            let installed = try await store.install(
                PackageInstallRequest(source: .file(zip), version: "1.0.0", sha256: sha.uppercased(), size: size))

            #expect(installed.version == "1.0.0")
            #expect(installed.isActive)
            #expect(installed.sha256 == sha)
            #expect(installed.archiveSize == size)
            #expect(installed.entryPoint == "index.html")
            let root = try store.activeRoot()
            #expect(samePath(root, temp.path("store/versions/1.0.0")))
            #expect(try files(under: root) == package.files)
            #expect(samePath(try store.activeRoot(), root))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temp.path("store/staging").path).isEmpty)
        }

        @Test func installsAZipMadeByTheZipToolWithDirectoryEntries() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let package = TestPackage.webApp("2.0.0")
            try package.write(under: temp.path("src"))
            #expect(try run("zip", ["-q", "-r", "../app.zip", "."], in: temp.path("src")) == 0)
            let store = try await PackageStore(directory: temp.path("store"))

            try await store.install(PackageInstallRequest(source: .file(temp.path("app.zip")), version: "2.0.0"))

            #expect(try files(under: store.activeRoot()) == package.files)
        }

        @Test func downloadsFromALoopbackOriginWithChecksumAndSize() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let package = TestPackage.webApp("3.1.0")
            try FileManager.default.createDirectory(at: temp.path("www"), withIntermediateDirectories: true)
            try package.zip(to: temp.path("www/app.zip"))
            let (sha, size) = try digest(of: temp.path("www/app.zip"))
            let origin = try HTTPOrigin(serving: temp.path("www"))
            defer { origin.stop() }
            let store = try await PackageStore(
                directory: temp.path("store"), httpClient: LoopbackHTTPClient(),
                configuration: .init(allowsPlainHTTP: true))

            let installed = try await store.install(
                PackageInstallRequest(source: .remote(origin.url("app.zip")), version: "3.1.0", sha256: sha, size: size)
            )

            #expect(installed.isActive)
            #expect(try files(under: store.activeRoot()) == package.files)
        }

        @Test func aSecondInstallBecomesActiveAndTheFirstBecomesPrevious() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await PackageStore(directory: temp.path("store"))
            for version in ["1.0.0", "1.1.0"] {
                try TestPackage.webApp(version).zip(to: temp.path("\(version).zip"))
                try await store.install(
                    PackageInstallRequest(source: .file(temp.path("\(version).zip")), version: version))
            }

            let listed = try store.versions()
            #expect(listed.map(\.version) == ["1.0.0", "1.1.0"])
            #expect(listed.map(\.isActive) == [false, true])
            #expect(listed.map(\.isPrevious) == [true, false])
            #expect(try store.activeVersion()?.version == "1.1.0")
        }

        @Test func reinstallingTheActiveVersionChangesNothingAndAnotherDigestConflicts() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await PackageStore(directory: temp.path("store"))
            try TestPackage.webApp("1.0.0").zip(to: temp.path("a.zip"))
            try await store.install(PackageInstallRequest(source: .file(temp.path("a.zip")), version: "1.0.0"))
            let before = try StoreSnapshot(temp.path("store"))

            try await store.install(PackageInstallRequest(source: .file(temp.path("a.zip")), version: "1.0.0"))
            #expect(try StoreSnapshot(temp.path("store")) == before)

            try TestPackage.webApp("other").zip(to: temp.path("b.zip"))
            let error = await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("b.zip")), version: "1.0.0"))
            }
            #expect(error?.kind == .versionConflict)
            #expect(try StoreSnapshot(temp.path("store")) == before)
        }

        @Test func thePackageManifestNamesVersionAndEntryPoint() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            var package = TestPackage(files: ["app/main.html": Data("<p>main</p>".utf8)])
            package.files["schemekit-package.json"] = Data(#"{"version": "4.2.0", "entryPoint": "app/main.html"}"#.utf8)
            try package.zip(to: temp.path("app.zip"))
            let store = try await PackageStore(directory: temp.path("store"))

            let installed = try await store.install(PackageInstallRequest(source: .file(temp.path("app.zip"))))

            #expect(installed.version == "4.2.0")
            #expect(installed.entryPoint == "app/main.html")
        }

        @Test func withoutAnyVersionTheInstallFailsClearly() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try TestPackage.webApp("x").zip(to: temp.path("app.zip"))
            let store = try await PackageStore(directory: temp.path("store"))

            let error = await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("app.zip"))))
            }
            #expect(error?.kind == .missingVersion)
            #expect(error?.description.contains("no version given") == true)
            #expect(try store.versions().isEmpty)
        }

        @Test func progressEventsArriveInOrder() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try TestPackage.webApp("1.0.0").zip(to: temp.path("app.zip"))
            let store = try await PackageStore(directory: temp.path("store"))
            let recorder = EventRecorder()

            try await store.install(
                PackageInstallRequest(source: .file(temp.path("app.zip")), version: "1.0.0"),
                observer: { recorder.record($0) })

            let names = recorder.names
            #expect(
                names == [
                    "locked", "transferring", "transferred", "verified", "extracting", "extracted", "validated",
                    "stored",
                    "recorded", "switching", "activated", "finished",
                ])
        }
    }

    /// Records install events by name, collapsing repeats.
    final class EventRecorder: Sendable {
        private let list = Locked<[String]>([])

        func record(_ event: PackageInstallEvent) {
            let name = String(String(describing: event).split(separator: "(")[0])
            list.withLock { list in
                if list.last != name { list.append(name) }
            }
        }

        var names: [String] { list.withLock { $0 } }
    }
#endif
