// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKit
    import SchemeKitPackages
    import Testing

    /// Bad input is refused with a typed error, and the store is left exactly as it was.
    struct PackageRejectionTests {
        /// One hostile or broken input.
        struct BadInput: Sendable, CustomTestStringConvertible {
            var name: String
            var expected: PackageStoreError.Kind
            var limits = PackageLimits()
            /// Makes the archive at the given URL and returns the request to install it.
            var make: @Sendable (URL, TestDirectory) throws -> PackageInstallRequest

            var testDescription: String { name }
        }

        static let hostileEntries: [BadInput] = [
            BadInput(name: "parent directory entry (zip slip)", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("../evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "nested parent directory entry", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("js/../../evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "absolute entry path", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("/tmp/evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "backslash entry path", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("..\\evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            // A combining mark after `/` or `\` makes one `Character` with it: checked byte by byte.
            BadInput(name: "absolute entry path behind a combining mark", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("/\u{301}tmp/evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "backslash behind a combining mark", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("a\\\u{301}b.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "drive letter entry path", expected: .unsafeEntryPath) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("C:/evil.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "duplicate entries", expected: .duplicateEntry) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("index.html", Data("<p>second</p>".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "a file and a directory with one path", expected: .duplicateEntry) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip, extra: [("index.html/inner.txt", Data("x".utf8))])
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "symbolic link pointing outside (zip -y)", expected: .symbolicLinkEntry) { zip, temp in
                let source = temp.path("src-outside")
                try TestPackage.webApp("2").write(under: source)
                try FileManager.default.createSymbolicLink(
                    atPath: source.appending(path: "passwd").path,
                    withDestinationPath: "../../../../etc/passwd")
                #expect(try run("zip", ["-q", "-y", "-r", zip.path, "."], in: source) == 0)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "symbolic link inside the package (zip -y)", expected: .symbolicLinkEntry) { zip, temp in
                let source = temp.path("src-inside")
                try TestPackage.webApp("2").write(under: source)
                try FileManager.default.createSymbolicLink(
                    atPath: source.appending(path: "home.html").path,
                    withDestinationPath: "index.html")
                #expect(try run("zip", ["-q", "-y", "-r", zip.path, "."], in: source) == 0)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "no entry point", expected: .missingEntryPoint) { zip, _ in
                try TestPackage(files: ["main.html": Data("<p>hi</p>".utf8)]).zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "named entry point missing", expected: .missingEntryPoint) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0", entryPoint: "app/start.html")
            },
            BadInput(name: "entry point outside the package", expected: .invalidEntryPoint) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0", entryPoint: "../index.html")
            },
            BadInput(name: "version that is a path", expected: .invalidVersion) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "../2.0.0")
            },
        ]

        static let brokenArchives: [BadInput] = [
            BadInput(name: "wrong SHA-256", expected: .checksumMismatch) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(
                    source: .file(zip), version: "2.0.0", sha256: String(repeating: "ab", count: 32))
            },
            BadInput(name: "malformed SHA-256", expected: .invalidChecksum) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0", sha256: "abc")
            },
            BadInput(name: "archive shorter than expected", expected: .sizeMismatch) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                let size = try digest(of: zip).size
                return PackageInstallRequest(source: .file(zip), version: "2.0.0", size: size + 1)
            },
            BadInput(name: "archive longer than expected", expected: .sizeMismatch) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                let size = try digest(of: zip).size
                return PackageInstallRequest(source: .file(zip), version: "2.0.0", size: size - 1)
            },
            BadInput(name: "truncated archive", expected: .corruptArchive) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                try ZipSurgery.truncate(zip, to: 0.6)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "not a zip at all", expected: .corruptArchive) { zip, _ in
                try Data("<html>this is not a zip</html>".utf8).write(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "damaged compressed data", expected: .corruptArchive) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                try ZipSurgery.flip(zip, at: 0.4, count: 64)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "damaged central directory", expected: .corruptArchive) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                try ZipSurgery.breakCentralDirectory(zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "wrong CRC-32", expected: .corruptArchive) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                try ZipSurgery.patchCentralDirectory(of: zip, entry: "js/app.js", fieldOffset: 16, value: 0xDEAD_BEEF)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            // A "zip confusion": a tool reading local headers front to back sees ../app.js, the
            // central directory says js/app.js. Refused, as Python's zipfile refuses it.
            BadInput(name: "local header naming another file than the directory", expected: .corruptArchive) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                try ZipSurgery.renameInLocalHeader(of: zip, entry: "js/app.js", to: "../app.js")
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            // ZIP64 (zip -fz) declares sizes in 64 bits; found by FuzzZip, both trapped on overflow.
            BadInput(name: "ZIP64 sizes whose sum overflows 64 bits", expected: .limitExceeded) { zip, temp in
                let source = temp.path("src-zip64-sum")
                try TestPackage.webApp("2").write(under: source)
                // Named in order: the lying entry comes after one with a size, so the sum wraps.
                let files = ["index.html", "css/site.css", "img/logo.bin", "js/app.js"]
                #expect(try run("zip", ["-q", "-fz", zip.path] + files, in: source) == 0)
                try ZipSurgery.patchZip64Field(of: zip, entry: "js/app.js", value: .max)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "ZIP64 compressed size past the end of the file", expected: .corruptArchive) { zip, temp in
                let source = temp.path("src-zip64-compressed")
                var package = TestPackage.webApp("2")
                package.files["big.txt"] = Data(repeating: 0x61, count: 1000)  // deflated
                try package.write(under: source)
                let files = ["index.html", "big.txt"]
                #expect(try run("zip", ["-q", "-fz", zip.path] + files, in: source) == 0)
                // The record's uncompressed size in 32 bits, its compressed size saturated: the ZIP64
                // field's one value is then the compressed size.
                try ZipSurgery.patchCentralDirectory(of: zip, entry: "big.txt", fieldOffset: 24, value: 1000)
                try ZipSurgery.patchCentralDirectory(of: zip, entry: "big.txt", fieldOffset: 20, value: 0xFFFF_FFFF)
                try ZipSurgery.patchZip64Field(of: zip, entry: "big.txt", value: .max - 5)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
        ]

        static let bombs: [BadInput] = [
            BadInput(
                name: "total uncompressed size over the limit", expected: .limitExceeded,
                limits: PackageLimits(maxUncompressedSize: 50_000)
            ) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(
                name: "more files than the limit", expected: .limitExceeded, limits: PackageLimits(maxEntryCount: 3)
            ) {
                zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(
                name: "archive over the size limit", expected: .limitExceeded,
                limits: PackageLimits(maxArchiveSize: 1000)
            ) { zip, _ in
                try TestPackage.webApp("2").zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "compression ratio over the limit", expected: .limitExceeded) { zip, _ in
                var package = TestPackage.webApp("2")
                package.files["zeros.bin"] = Data(count: 8 << 20)
                try package.zip(to: zip)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(name: "header understating the inflated size", expected: .corruptArchive) { zip, _ in
                var package = TestPackage.webApp("2")
                package.files["zeros.bin"] = Data(count: 4 << 20)
                try package.zip(to: zip)
                try ZipSurgery.patchCentralDirectory(of: zip, entry: "zeros.bin", fieldOffset: 24, value: 1000)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
            BadInput(
                name: "understated sizes hiding a total over the limit", expected: .corruptArchive,
                limits: PackageLimits(maxUncompressedSize: 1 << 20)
            ) { zip, _ in
                var package = TestPackage.webApp("2")
                package.files["zeros.bin"] = Data(count: 4 << 20)
                try package.zip(to: zip)
                try ZipSurgery.patchCentralDirectory(of: zip, entry: "zeros.bin", fieldOffset: 24, value: 100_000)
                return PackageInstallRequest(source: .file(zip), version: "2.0.0")
            },
        ]

        @Test(arguments: hostileEntries + brokenArchives + bombs)
        func isRejectedAndTheStoreIsUnchanged(_ input: BadInput) async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await makeStoreWithTwoVersions(temp, limits: input.limits)
            let before = try StoreSnapshot(temp.path("store"))
            let request = try input.make(temp.path("bad.zip"), temp)

            let error = await #expect(throws: PackageStoreError.self) { try await store.install(request) }

            #expect(error?.kind == input.expected, "\(error.map { "\($0)" } ?? "no error")")
            #expect(error?.description.isEmpty == false)
            #expect(try StoreSnapshot(temp.path("store")) == before)
            #expect(try store.activeVersion()?.version == "1.0.0")
            #expect(FileManager.default.fileExists(atPath: temp.path("evil.txt").path) == false)
        }

        /// `zip -r app.zip "my app"` wraps everything in the folder: the error says so, and how to
        /// zip the contents instead; an archive without that folder gets no such hint.
        @Test func aZippedFolderIsRefusedWithAHintToZipItsContents() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            let store = try await makeStoreWithTwoVersions(temp)
            let before = try StoreSnapshot(temp.path("store"))
            var files = TestPackage.webApp("2").files
            files["schemekit-package.json"] = Data(#"{"version": "2.0.0"}"#.utf8)
            let wrapped = TestPackage(
                files: Dictionary(uniqueKeysWithValues: files.map { ("my app/" + $0.key, $0.value) }))
            try wrapped.zip(to: temp.path("wrapped.zip"))
            let hint =
                #"everything in the archive is inside the folder "my app/": zip the folder's contents instead (cd 'my app' && zip -r ../app.zip .)"#

            let unversioned = await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("wrapped.zip"))))
            }
            #expect(unversioned?.kind == .missingVersion)
            #expect(unversioned?.description.hasSuffix(hint) == true, "\(unversioned.map { "\($0)" } ?? "")")
            let versioned = await #expect(throws: PackageStoreError.self) {
                try await store.install(
                    PackageInstallRequest(source: .file(temp.path("wrapped.zip")), version: "2.0.0"))
            }
            #expect(versioned?.kind == .missingEntryPoint)
            #expect(versioned?.description.hasSuffix(hint) == true, "\(versioned.map { "\($0)" } ?? "")")
            #expect(try StoreSnapshot(temp.path("store")) == before)

            try TestPackage(files: ["main.html": Data("<p>hi</p>".utf8), "js/app.js": Data("1".utf8)])
                .zip(to: temp.path("flat.zip"))
            let flat = await #expect(throws: PackageStoreError.self) {
                try await store.install(PackageInstallRequest(source: .file(temp.path("flat.zip")), version: "2.0.0"))
            }
            #expect(flat?.kind == .missingEntryPoint)
            #expect(flat?.description == #"package has no entry point: "index.html" is not a file in the package"#)
        }

        @Test func downloadErrorsAreTypedAndLeaveTheStoreUnchanged() async throws {
            let temp = try TestDirectory()
            defer { temp.remove() }
            try FileManager.default.createDirectory(at: temp.path("www"), withIntermediateDirectories: true)
            try TestPackage.webApp("2").zip(to: temp.path("www/app.zip"))
            let origin = try HTTPOrigin(serving: temp.path("www"))
            defer { origin.stop() }
            let store = try await makeStoreWithTwoVersions(temp, client: LoopbackHTTPClient(), plainHTTP: true)
            let before = try StoreSnapshot(temp.path("store"))

            let missing = await #expect(throws: PackageStoreError.self) {
                try await store.install(
                    PackageInstallRequest(source: .remote(origin.url("nope.zip")), version: "2.0.0"))
            }
            #expect(missing?.kind == .httpStatus)
            #expect(missing?.description.contains("404") == true)

            let wrongDigest = await #expect(throws: PackageStoreError.self) {
                try await store.install(
                    PackageInstallRequest(
                        source: .remote(origin.url("app.zip")), version: "2.0.0",
                        sha256: String(repeating: "0", count: 64))
                )
            }
            #expect(wrongDigest?.kind == .checksumMismatch)
            #expect(try StoreSnapshot(temp.path("store")) == before)

            let strict = try await PackageStore(directory: temp.path("store"), httpClient: LoopbackHTTPClient())
            let insecure = await #expect(throws: PackageStoreError.self) {
                try await strict.install(
                    PackageInstallRequest(source: .remote(origin.url("app.zip")), version: "2.0.0"))
            }
            #expect(insecure?.kind == .insecureURL)
            let noClient = try await PackageStore(directory: temp.path("store"))
            let offline = await #expect(throws: PackageStoreError.self) {
                try await noClient.install(
                    PackageInstallRequest(
                        source: .remote(URL(string: "https://127.0.0.1:1/app.zip")!), version: "2.0.0"))
            }
            #expect(offline?.kind == .noHTTPClient)
            #expect(try StoreSnapshot(temp.path("store")) == before)
        }
    }

    /// A store at `<temp>/store` with 0.9.0 (previous) and 1.0.0 (active) installed.
    func makeStoreWithTwoVersions(
        _ temp: TestDirectory, limits: PackageLimits = PackageLimits(), client: (any SchemeHTTPClient)? = nil,
        plainHTTP: Bool = false
    ) async throws -> PackageStore {
        let setup = try await PackageStore(directory: temp.path("store"), configuration: .init(syncsToDisk: false))
        for version in ["0.9.0", "1.0.0"] {
            try TestPackage.webApp(version).zip(to: temp.path("good-\(version).zip"))
            try await setup.install(
                PackageInstallRequest(source: .file(temp.path("good-\(version).zip")), version: version))
        }
        return try await PackageStore(
            directory: temp.path("store"), httpClient: client,
            configuration: PackageStore.Configuration(limits: limits, syncsToDisk: false, allowsPlainHTTP: plainHTTP))
    }
#endif
