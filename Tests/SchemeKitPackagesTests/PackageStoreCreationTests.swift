// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKitPackages
    import Testing

    /// A failed install leaves no store behind that was not there before; an existing store is kept.
    struct PackageStoreCreationTests {
        static func exists(_ url: URL) -> Bool {
            FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
        }

        @Test func aFailedFirstInstallRemovesTheStoreAndTheParentsItCreated() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try Data("not a zip".utf8).write(to: temp.path("bad.zip"))
            let store = try await PackageStore(directory: temp.path("new/nested/store"))
            #expect(Self.exists(temp.path("new/nested/store/versions")))

            await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("bad.zip")), version: "1.0.0"))
            }
            #expect(!Self.exists(temp.path("new")), "the store and the parents created for it are gone")
            #expect(Self.exists(temp.url))
        }

        @Test(arguments: ["checksum", "version", "missing file"])
        func everyKindOfFailureCleansUp(kind: String) async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let zip = temp.path("app.zip")
            try TestPackage.webApp("1.0.0").zip(to: zip)
            let store = try await PackageStore(directory: temp.path("store"))
            let request =
                switch kind {
                case "checksum":
                    PackageInstallRequest(source: .file(zip), version: "1", sha256: String(repeating: "0", count: 64))
                case "version": PackageInstallRequest(source: .file(zip), version: "../up")
                default: PackageInstallRequest(source: .file(temp.path("nowhere.zip")), version: "1")
                }
            await #expect(throws: PackageStoreError.self) { try await store.install(request) }
            #expect(!Self.exists(temp.path("store")))
        }

        @Test func aFailedInstallIntoAnExistingStoreKeepsIt() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try FileManager.default.createDirectory(at: temp.path("store"), withIntermediateDirectories: true)
            try Data("not a zip".utf8).write(to: temp.path("bad.zip"))
            let store = try await PackageStore(directory: temp.path("store"))
            await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("bad.zip")), version: "1"))
            }
            #expect(Self.exists(temp.path("store/versions")))
        }

        @Test func aFailedSecondInstallKeepsTheFirstVersion() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try TestPackage.webApp("1.0.0").zip(to: temp.path("app.zip"))
            try Data("not a zip".utf8).write(to: temp.path("bad.zip"))
            let store = try await PackageStore(directory: temp.path("store"))
            try await store.install(PackageInstallRequest(source: .file(temp.path("app.zip")), version: "1.0.0"))
            await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("bad.zip")), version: "2.0.0"))
            }
            #expect(try store.activeVersion()?.version == "1.0.0")
            #expect(Self.exists(temp.path("store/versions/1.0.0/index.html")))
        }

        @Test func aStoreSomeoneElseFilledMeanwhileIsKept() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try TestPackage.webApp("1.0.0").zip(to: temp.path("app.zip"))
            try Data("not a zip".utf8).write(to: temp.path("bad.zip"))
            let creator = try await PackageStore(directory: temp.path("store"))
            let other = try await PackageStore(directory: temp.path("store"))
            try await other.install(PackageInstallRequest(source: .file(temp.path("app.zip")), version: "1.0.0"))
            await #expect(throws: PackageStoreError.self) {
                try await creator.install(PackageInstallRequest(source: .file(temp.path("bad.zip")), version: "2.0.0"))
            }
            #expect(try creator.activeVersion()?.version == "1.0.0")
        }
    }
#endif
