// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKitPackages
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// A child process installing a package is killed (SIGKILL) at every step; the store keeps serving.
    struct PackageCrashTests {
        #if os(Linux)
            static let isLinux = true
        #else
            static let isLinux = false
        #endif

        /// The steps, as `PackageInstallHelper --fault` names them, and whether the kill comes after the switch.
        static let faultPoints: [(fault: String, afterSwitch: Bool)] = [
            ("locked", false),  // lock held, nothing written yet
            ("transferring:1", false),  // mid-copy: 1 of 4+ MiB written to staging
            ("transferred", false),  // copied, checksum not compared yet
            ("verified", false),  // verified, nothing extracted
            ("extracting:3", false),  // mid-unzip
            ("extracted", false),  // unzipped, entry point not checked
            ("validated", false),  // checked and synced, before the rename into versions/
            ("stored", false),  // in versions/, not in the metadata
            ("recorded", false),  // in the metadata, before the pointer switch
            ("switching", false),  // mid-switch: the new link exists under a temporary name
            ("activated", true),  // switched, metadata not updated
            ("finished", true),  // everything done
        ]

        /// A new version big enough for several copy chunks and many entries.
        static func newPackage() -> TestPackage {
            var package = TestPackage.webApp("2.0.0")
            package.files["media/video.bin"] = randomData(3 << 20)
            for index in 0..<20 { package.files["pages/page\(index).html"] = Data("<p>page \(index)</p>".utf8) }
            return package
        }

        @Test(arguments: faultPoints)
        func aKilledInstallLeavesTheOldVersionServing(_ fault: String, _ afterSwitch: Bool) async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            _ = try await makeStoreWithTwoVersions(temp)
            let oldFiles = try files(under: temp.path("store/versions/1.0.0"))
            let before = try StoreSnapshot(temp.path("store"))
            let package = Self.newPackage()
            try package.zip(to: temp.path("new.zip"))
            let (sha, _) = try digest(of: temp.path("new.zip"))

            let outcome = try await HelperProcess.run([
                temp.path("store").path, temp.path("new.zip").path, "--version", "2.0.0", "--sha256", sha, "--fault",
                fault,
            ])
            #expect(outcome.killedBySignal && outcome.exitStatus == SIGKILL, "\(outcome)")

            // A reader resolving the pointer right now, before any recovery, sees a complete version.
            let served = try files(under: temp.path("store/current").resolvingSymlinksInPath())
            let reader = try await PackageStore(directory: temp.path("store"))
            #expect(try files(under: reader.activeRoot()) == served)
            if afterSwitch {
                #expect(served == package.files)
                #expect(try reader.activeVersion()?.version == "2.0.0")
                #expect(try reader.versions().first { $0.isPrevious }?.version == "1.0.0")
                #expect(try files(under: temp.path("store/versions/1.0.0")) == oldFiles)
            } else {
                #expect(served == oldFiles)
                #expect(try StoreSnapshot(temp.path("store")) == before)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temp.path("store/staging").path).isEmpty)

            // The store works normally afterwards.
            try TestPackage.webApp("3.0.0").zip(to: temp.path("next.zip"))
            try await reader.install(PackageInstallRequest(source: .file(temp.path("next.zip")), version: "3.0.0"))
            #expect(try reader.activeVersion()?.version == "3.0.0")
        }

        /// The second install reaches the store lock while the first holds it: each helper says
        /// where it is, the first holds the lock until told, and the second's open of the lock file
        /// is seen as it happens, so the overlap is certain, not hoped for after a pause.
        @Test(.enabled(if: isLinux, "needs inotify to see the second install reach the lock"))
        func twoProcessesInstallingAtOnceTakeTurns() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            _ = try await makeStoreWithTwoVersions(temp)
            let packages = ["2.0.0": TestPackage.webApp("2.0.0"), "3.0.0": TestPackage.webApp("3.0.0")]
            for (version, package) in packages { try package.zip(to: temp.path("\(version).zip")) }

            // The second opens the store and waits to be told to install…
            let second = try HelperProcess.start([
                temp.path("store").path, temp.path("3.0.0.zip").path, "--version", "3.0.0", "--wait-before-install",
                "--no-sync",
            ])
            #expect(await second.line(startingWith: "ready") != nil)
            // …the first takes the lock and holds it…
            let first = try HelperProcess.start([
                temp.path("store").path, temp.path("2.0.0.zip").path, "--version", "2.0.0", "--hold-after-lock",
                "--no-sync",
            ])
            #expect(await first.line(startingWith: "locked ") != nil)
            // …the second installs: it reaches the lock (opens the lock file) while the first holds it…
            #if os(Linux)
                let lockOpened = try FileOpenWatch(temp.path("store/.lock").path)
                try second.send("go")
                #expect(await lockOpened.opened(), "the second install reached the store lock")
            #endif
            // …and the first lets go.
            try first.send("go")
            let outcomes = [await first.outcome(), await second.outcome()]

            for outcome in outcomes { #expect(outcome.exitStatus == 0 && !outcome.killedBySignal, "\(outcome)") }
            let spans = outcomes.compactMap { outcome -> (version: String, locked: UInt64, finished: UInt64)? in
                guard let version = outcome.value("active"),
                    let locked = outcome.value("locked").flatMap({ UInt64($0) }),
                    let finished = outcome.value("finished").flatMap({ UInt64($0) })
                else { return nil }
                return (version, locked, finished)
            }.sorted { $0.locked < $1.locked }
            try #require(spans.count == 2)
            #expect(spans.map(\.version) == ["2.0.0", "3.0.0"], "the first took the lock first")
            // The second got the lock only after the first had finished.
            #expect(spans[0].finished <= spans[1].locked)

            let store = try await PackageStore(directory: temp.path("store"))
            #expect(try store.activeVersion()?.version == spans[1].version)
            #expect(try store.versions().first { $0.isPrevious }?.version == spans[0].version)
            for (version, package) in packages {
                #expect(try files(under: temp.path("store/versions/\(version)")) == package.files)
            }
        }
    }
#endif
