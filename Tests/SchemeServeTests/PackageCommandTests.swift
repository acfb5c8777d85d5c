// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// `schemeserve package …` and `serve --store` as a user runs them: real zips made with the `zip`
    /// tool, the built binary, a real HTTP server on 127.0.0.1.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct PackageCommandTests {
        /// A temporary directory with `v1.zip` and `v2.zip` (each an index.html naming its version and
        /// an app.js) made by the `zip` command line tool, and a store path inside it.
        struct Workspace {
            let directory: URL
            var store: String { directory.appending(path: "store").path(percentEncoded: false) }

            init() throws {
                directory = try Fixtures.temporaryDirectory()
                for version in ["v1", "v2"] {
                    let site = directory.appending(path: "site-\(version)")
                    try Fixtures.write("<!doctype html><p>package \(version)</p>", "index.html", in: site)
                    try Fixtures.write("console.log('\(version)')", "js/app.js", in: site)
                    try Self.zip(site, to: zip(version))
                }
                try Fixtures.write("<p>no zip</p>", "not-a-zip.zip", in: directory)
            }

            func zip(_ version: String) -> String {
                directory.appending(path: "\(version).zip").path(percentEncoded: false)
            }

            func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
                let (status, stdout, stderr) = try ServeProcess.runToEnd(arguments)
                return (status, stdout, stderr)
            }

            func install(_ version: String, _ extra: [String] = []) throws -> (
                status: Int32, stdout: String, stderr: String
            ) {
                try run(["package", "install", zip(version), "--store", store, "--version", version] + extra)
            }

            func list() throws -> String { try run(["package", "list", "--store", store]).stdout }

            static func zip(_ site: URL, to archive: String) throws {
                let process = Process()
                process.executableURL = URL(filePath: "/usr/bin/env")
                process.arguments = ["zip", "-q", "-r", "-X", archive, "."]
                process.currentDirectoryURL = site
                try process.run()
                if !eventuallyBlocking(timeout: .seconds(20), { !process.isRunning }) { process.terminate() }
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { throw RawHTTP.Failure(description: "zip failed") }
            }

            static func sha256(_ path: String) throws -> String {
                let process = Process()
                process.executableURL = URL(filePath: "/usr/bin/env")
                process.arguments = ["sha256sum", path]
                let out = Pipe()
                process.standardOutput = out
                try process.run()
                let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return String(text.prefix(64))
            }

            func remove() { try? FileManager.default.removeItem(at: directory) }
        }

        @Test func installPrintsTheVersionAndListMarksActiveAndPrevious() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            let first = try workspace.install("v1", ["--sha256", try Workspace.sha256(workspace.zip("v1"))])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout == "v1\n")
            #expect(first.stderr.isEmpty)
            let size = try FileManager.default.attributesOfItem(atPath: workspace.zip("v2"))[.size] as? Int ?? -1
            let second = try workspace.install("v2", ["--size", String(size)])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout == "v2\n")
            #expect(try workspace.list() == "v1 (previous)\nv2 (active)\n")
        }

        @Test(arguments: [
            ["--sha256", String(repeating: "0", count: 64)],
            ["--size", "1"],
        ])
        func badChecksumOrSizeFailsWithOneLineAndLeavesTheStoreUnchanged(extra: [String]) throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            #expect(try workspace.install("v1").status == 0)
            let before = try workspace.list()
            let result = try workspace.install("v2", extra)
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("schemeserve: error: package "), "\(result.stderr)")
            #expect(result.stderr.contains("mismatch"), "\(result.stderr)")
            #expect(try workspace.list() == before)
            #expect(before == "v1 (active)\n")
        }

        @Test func installFromAURLDownloadsVerifiesAndActivates() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            let origin = try PythonHTTPServer(serving: workspace.directory)
            defer { origin.stop() }
            let url = "\(origin.origin)/v1.zip"
            let sha = try Workspace.sha256(workspace.zip("v1"))

            // Plain http is refused unless asked for: a usage error, nothing downloaded.
            let refused = try workspace.run(["package", "install", url, "--store", workspace.store, "--version", "v1"])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--allow-http"), "\(refused.stderr)")

            let installed = try workspace.run([
                "package", "install", url, "--store", workspace.store, "--version", "v1", "--sha256", sha,
                "--allow-http",
            ])
            #expect(installed.status == 0, "\(installed.stderr)")
            #expect(installed.stdout == "v1\n")
            #expect(try workspace.list() == "v1 (active)\n")

            // A missing file on the origin fails with one line; the store keeps v1 active.
            let missing = try workspace.run([
                "package", "install", "\(origin.origin)/nowhere.zip", "--store", workspace.store, "--version", "v2",
                "--allow-http",
            ])
            #expect(missing.status == 1)
            #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
            #expect(missing.stderr.contains("404"), "\(missing.stderr)")
            #expect(try workspace.list() == "v1 (active)\n")
        }

        @Test func corruptZipFailsWithExitCode1() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            let archive = workspace.directory.appending(path: "not-a-zip.zip").path(percentEncoded: false)
            let result = try workspace.run([
                "package", "install", archive, "--store", workspace.store, "--version", "1",
            ])
            #expect(result.status == 1)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("zip"), "\(result.stderr)")
            #expect(try workspace.list().isEmpty)
        }

        @Test(arguments: [
            ["package", "install", "x.zip"],
            ["package", "install", "x.zip", "--store", "/tmp", "--sha256", "xyz", "--version", "1"],
            ["package", "install", "x.zip", "--store", "/tmp", "--version", "../up"],
            ["package", "list"],
            ["package", "list", "--store", "/definitely/not/here"],
            ["package", "rollback", "--store", "/definitely/not/here"],
            ["package", "gc", "--store", "/definitely/not/here"],
            ["package", "frobnicate", "--store", "/tmp"],
        ])
        func usageErrorsExit64WithOneLine(arguments: [String]) throws {
            let (status, stdout, stderr) = try ServeProcess.runToEnd(arguments)
            #expect(status == 64)
            #expect(stdout.isEmpty)
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        }

        @Test func rollbackSwitchesBackAndGCKeepsActiveAndPrevious() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            let early = try workspace.run(["package", "rollback", "--store", workspace.store])
            #expect(early.status == 64)  // no store yet
            #expect(try workspace.install("v1").status == 0)
            let nothing = try workspace.run(["package", "rollback", "--store", workspace.store])
            #expect(nothing.status == 1)
            #expect(nothing.stderr == "schemeserve: error: the package store has no previous version to roll back to\n")
            #expect(try workspace.install("v2").status == 0)
            try Workspace.zip(workspace.directory.appending(path: "site-v1"), to: workspace.zip("v3"))
            #expect(try workspace.install("v3").status == 0)
            #expect(try workspace.list() == "v1\nv2 (previous)\nv3 (active)\n")

            let rollback = try workspace.run(["package", "rollback", "--store", workspace.store])
            #expect(rollback.status == 0)
            #expect(rollback.stdout == "v2\n")
            #expect(try workspace.list() == "v1\nv2 (active)\nv3 (previous)\n")

            let gc = try workspace.run(["package", "gc", "--store", workspace.store])
            #expect(gc.status == 0, "\(gc.stderr)")
            #expect(gc.stdout == "removed v1\nv2\n")
            #expect(try workspace.list() == "v2 (active)\nv3 (previous)\n")
            let versions = try FileManager.default.contentsOfDirectory(
                atPath: workspace.directory.appending(path: "store/versions").path(percentEncoded: false))
            #expect(!versions.contains("v1"))
        }

        @Test func serveStoreFollowsInstallAndRollbackWithoutRestart() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            #expect(try workspace.install("v1").status == 0)
            let server = try ServeProcess(["serve", "--store", workspace.store])
            defer { server.stop() }
            #expect(server.firstLine.hasPrefix("Serving package store \(workspace.store) as app://localhost/"))
            // Twice each, so a cached copy (if any) would be the one answering after the switch.
            for _ in 0..<2 {
                let response = try RawHTTP.request(port: server.port, "/")
                #expect(response.status == 200)
                #expect(response.text == "<!doctype html><p>package v1</p>")
                #expect(try RawHTTP.request(port: server.port, "/js/app.js").text == "console.log('v1')")
            }

            #expect(try workspace.install("v2").status == 0)
            for _ in 0..<2 {
                #expect(
                    try RawHTTP.request(port: server.port, "/index.html").text == "<!doctype html><p>package v2</p>")
                #expect(try RawHTTP.request(port: server.port, "/js/app.js").text == "console.log('v2')")
            }

            #expect(try workspace.run(["package", "rollback", "--store", workspace.store]).stdout == "v1\n")
            #expect(try RawHTTP.request(port: server.port, "/index.html").text == "<!doctype html><p>package v1</p>")
            #expect(try RawHTTP.request(port: server.port, "/js/app.js").text == "console.log('v1')")
            #expect(try RawHTTP.request(port: server.port, "/missing.txt").status == 404)
        }

        @Test func serveStoreWithoutAnActiveVersionFailsClearly() throws {
            let workspace = try Workspace()
            defer { workspace.remove() }
            try FileManager.default.createDirectory(atPath: workspace.store, withIntermediateDirectories: true)
            let (status, stdout, stderr) = try ServeProcess.runToEnd([
                "serve", "--store", workspace.store, "--port", "0",
            ])
            #expect(status == 1)
            #expect(stdout.isEmpty)
            #expect(stderr == "schemeserve: error: the package store has no active version\n")
        }

        @Test(arguments: [
            ["serve"],
            ["serve", "--port", "0"],
            ["serve", ".", "--store", "."],
            ["serve", "--store", ".", "--watch"],
            ["serve", "--store", "/definitely/not/here"],
        ])
        func serveNeedsExactlyOneOfDirectoryAndStore(arguments: [String]) throws {
            let (status, stdout, stderr) = try ServeProcess.runToEnd(arguments)
            #expect(status == 64)
            #expect(stdout.isEmpty)
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        }

        @Test func helpDocumentsThePackageCommands() throws {
            let (status, stdout, _) = try ServeProcess.runToEnd(["package", "--help"])
            #expect(status == 0)
            for command in ["install", "list", "rollback", "gc"] { #expect(stdout.contains(command), "\(command)") }
            let install = try ServeProcess.runToEnd(["package", "install", "--help"]).1
            for option in ["--store", "--sha256", "--size", "--version", "--entry-point", "--allow-http"] {
                #expect(install.contains(option), "\(option)")
            }
            #expect(try ServeProcess.runToEnd(["serve", "--help"]).1.contains("--store"))
        }
    }
#endif
