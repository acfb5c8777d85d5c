// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKitPackages
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Rollback, listing, garbage collection and what readers see across a switch.
    struct PackageLifecycleTests {
        @Test func rollbackSwitchesToThePreviousVersionAndBackAgain() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await makeStoreWithTwoVersions(temp)

            let rolledBack = try await store.rollback()
            #expect(rolledBack.version == "0.9.0")
            #expect(try files(under: store.activeRoot()) == files(under: temp.path("store/versions/0.9.0")))
            #expect(
                try store.versions().map { "\($0.version) \($0.isActive) \($0.isPrevious)" } == [
                    "0.9.0 true false", "1.0.0 false true",
                ])

            #expect(try await store.rollback().version == "1.0.0")
            #expect(try store.activeVersion()?.version == "1.0.0")
        }

        @Test func rollbackWithoutAPreviousVersionFails() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await PackageStore(directory: temp.path("store"))
            let empty = await #expect(throws: PackageStoreError.self) { try await store.rollback() }
            #expect(empty?.kind == .noPreviousVersion)
            let none = #expect(throws: PackageStoreError.self) { try store.activeRoot() }
            #expect(none?.kind == .noActiveVersion)

            try TestPackage.webApp("1").zip(to: temp.path("a.zip"))
            try await store.install(PackageInstallRequest(source: .file(temp.path("a.zip")), version: "1.0.0"))
            let single = await #expect(throws: PackageStoreError.self) { try await store.rollback() }
            #expect(single?.kind == .noPreviousVersion)
        }

        @Test func garbageCollectionKeepsOnlyTheActiveAndThePreviousVersion() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await PackageStore(directory: temp.path("store"))
            for version in ["1.0.0", "1.1.0", "1.2.0", "1.10.0"] {
                try TestPackage.webApp(version).zip(to: temp.path("\(version).zip"))
                try await store.install(
                    PackageInstallRequest(source: .file(temp.path("\(version).zip")), version: version))
            }
            #expect(try store.versions().map(\.version) == ["1.0.0", "1.1.0", "1.2.0", "1.10.0"])

            let removed = try await store.collectGarbage()

            #expect(removed == ["1.0.0", "1.1.0"])
            #expect(try store.versions().map(\.version) == ["1.2.0", "1.10.0"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: temp.path("store/versions").path).sorted() == [
                    "1.10.0", "1.2.0",
                ])
            #expect(try await store.collectGarbage().isEmpty)
            #expect(try await store.rollback().version == "1.2.0")
        }

        @Test func aRootResolvedBeforeASwitchStillServesTheOldFiles() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await makeStoreWithTwoVersions(temp)
            let provider = store.activeRoot
            let resolvedBefore = try provider()
            let oldIndex = try Data(contentsOf: resolvedBefore.appending(path: "index.html"))

            try TestPackage.webApp("2.0.0").zip(to: temp.path("new.zip"))
            try await store.install(PackageInstallRequest(source: .file(temp.path("new.zip")), version: "2.0.0"))

            // The in-flight request keeps its root; a new one sees the new version.
            #expect(try Data(contentsOf: resolvedBefore.appending(path: "index.html")) == oldIndex)
            let resolvedAfter = try provider()
            #expect(
                String(decoding: try Data(contentsOf: resolvedAfter.appending(path: "index.html")), as: UTF8.self)
                    .contains("app 2.0.0"))
        }

        @Test func anOpenFileSurvivesTheGarbageCollectionOfItsVersion() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await makeStoreWithTwoVersions(temp)
            let oldImage = try store.activeRoot().appending(path: "img/logo.bin")
            let expected = try Data(contentsOf: oldImage)
            let handle = try FileHandle(forReadingFrom: oldImage)
            defer { try? handle.close() }
            let firstHalf = try handle.read(upToCount: expected.count / 2) ?? Data()

            for version in ["2.0.0", "3.0.0"] {
                try TestPackage.webApp(version).zip(to: temp.path("\(version).zip"))
                try await store.install(
                    PackageInstallRequest(source: .file(temp.path("\(version).zip")), version: version))
            }
            #expect(try await store.collectGarbage().contains("1.0.0"))
            #expect(!FileManager.default.fileExists(atPath: oldImage.path))

            let rest = try handle.readToEnd() ?? Data()
            #expect(firstHalf + rest == expected)
        }

        @Test(arguments: [
            ("1.10.0", "1.9.0", true), ("1.2", "1.2.0", false), ("1.2.0", "1.2", false),
            ("2.0.0", "2.0.0-beta.1", true),
            ("2.0.0-beta.2", "2.0.0-beta.10", false), ("2.0.0-rc.1", "2.0.0-beta.9", true), ("v3", "2.99.99", true),
            ("1.0.0+build.9", "1.0.0+build.1", false), ("10.0", "9.9.9", true), ("1.0.1", "1.0.0", true),
            ("0001.2", "1.2", false), ("1.2.a", "1.2.9", true),
        ])
        func versionsCompareNumericallyAndSemantically(_ a: String, _ b: String, _ newer: Bool) {
            #expect(PackageStore.isVersion(a, newerThan: b) == newer)
        }
    }

    /// Installs started at once from one process serialise on the store lock too.
    struct PackageInProcessConcurrencyTests {
        @Test func concurrentInstallsIntoOneStoreAllSucceedAndLeaveItConsistent() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await PackageStore(directory: temp.path("store"), configuration: .init(syncsToDisk: false))
            let other = try await PackageStore(directory: temp.path("store"), configuration: .init(syncsToDisk: false))
            let versions = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]
            let packages = Dictionary(uniqueKeysWithValues: versions.map { ($0, TestPackage.webApp($0)) })
            for (version, package) in packages { try package.zip(to: temp.path("\(version).zip")) }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, version) in versions.enumerated() {
                    let target = index.isMultiple(of: 2) ? store : other
                    group.addTask {
                        try await target.install(
                            PackageInstallRequest(source: .file(temp.path("\(version).zip")), version: version))
                    }
                }
                try await group.waitForAll()
            }

            let listed = try store.versions()
            #expect(listed.map(\.version) == versions)
            #expect(listed.filter(\.isActive).count == 1)
            #expect(listed.filter(\.isPrevious).count == 1)
            for (version, package) in packages {
                #expect(try files(under: temp.path("store/versions/\(version)")) == package.files)
            }
        }
    }
#endif
