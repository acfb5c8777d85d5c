// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Each message of the `schemeserve` command line as a user meets it: the built binary, its exact
    /// standard error line and exit status (64 for usage errors, 1 for run-time failures), one prefix.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct CommandLineMessageTests {
        static let prefix = "schemeserve: error: "
        static var sampleApp: String { ServeProcessTests.sampleApp }

        /// Runs the binary to its end with `COLUMNS` set (the help's wrapping width).
        static func run(_ arguments: [String], columns: Int = 80) throws -> (
            status: Int32, stdout: String, stderr: String
        ) {
            let process = Process()
            process.executableURL = ServeProcess.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["COLUMNS"] = String(columns)
            process.environment = environment
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: stderr, as: UTF8.self)
            )
        }

        /// Expects exactly one line on standard error, `schemeserve: error: <message>`, and `status`.
        static func expectOneLine(
            _ arguments: [String], status: Int32 = 64, _ message: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let result = try run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.stderr == Self.prefix + message + "\n", "\(arguments)", sourceLocation: sourceLocation)
        }

        // MARK: - Help

        @Test func rootHelpShowsTheServeUsageAndOptionsThenTheSubcommands() throws {
            for arguments in [["--help"], ["-h"], ["help"]] {
                let (status, stdout, _) = try Self.run(arguments)
                #expect(status == 0)
                #expect(
                    stdout.contains("USAGE: schemeserve [serve] <directory> [<options>]"), "\(arguments): \(stdout)")
                #expect(stdout.contains("schemeserve [serve] --store <store> [<options>]"))
                for option in ["--port <port>", "--bind <bind>", "--fallback <fallback>", "--store <store>", "--spa"] {
                    #expect(stdout.contains(option), "\(arguments): \(option)")
                }
                let subcommands = try #require(stdout.range(of: "SUBCOMMANDS:"), "\(arguments)")
                #expect(stdout[subcommands.upperBound...].contains("package"))
                #expect(stdout.contains("serve (default)"))
            }
        }

        static let helpCommands: [[String]] = [
            ["--help"], ["help", "serve"], ["serve", "--help"], ["package", "--help"],
            ["package", "install", "--help"],
            ["package", "list", "--help"], ["package", "gc", "--help"], ["package", "rollback", "--help"],
        ]

        /// Every line of the overview (abstract and discussion) is filled greedily: no line is wider
        /// than the screen unless it is one word, and the next line's first word would not have fitted
        /// on it. A hand-broken line fails this at every width but the one it was broken for.
        @Test(arguments: [40, 64, 80, 100, 132, 200])
        func helpTextWrapsAtAnyWidth(columns: Int) throws {
            for arguments in Self.helpCommands {
                let (status, stdout, _) = try Self.run(arguments, columns: columns)
                #expect(status == 0)
                let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                // The argument parser does not wrap usage lines or its closing "See 'schemeserve help …'"
                // line; everything else is wrapped text, wider than the screen only for one long word.
                var inUsage = false
                for line in lines {
                    if line.hasPrefix("USAGE: ") { inUsage = true }
                    if line.isEmpty { inUsage = false }
                    guard !inUsage, !line.hasPrefix("  See '"), line.count > columns else { continue }
                    let trimmed = line.drop { $0 == " " }
                    #expect(!trimmed.contains(" "), "\(arguments) at \(columns): too wide: \(line)")
                }
                if columns >= 80 {
                    let usage = lines.filter { $0.hasPrefix("USAGE: ") || $0.hasPrefix("       schemeserve") }
                    for line in usage { #expect(line.count <= 80, "\(arguments): usage wider than 80: \(line)") }
                }
                guard let start = lines.firstIndex(where: { $0.hasPrefix("OVERVIEW: ") }),
                    let end = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") })
                else {
                    Issue.record("\(arguments): no overview")
                    continue
                }
                for index in start..<(end - 1) {
                    let line = lines[index]
                    let next = lines[index + 1]
                    guard !line.isEmpty, let word = next.split(separator: " ").first else { continue }
                    // The argument parser keeps room for the space after the last word, so a word
                    // that would end exactly at the margin goes to the next line too.
                    #expect(
                        line.count + 1 + word.count >= columns,
                        "\(arguments) at \(columns): '\(word)' would fit after: \(line)")
                }
            }
        }

        @Test func versionIsPrinted() throws {
            let (status, stdout, _) = try Self.run(["--version"])
            #expect(status == 0)
            #expect(stdout.hasPrefix("0."), "\(stdout)")
        }

        // MARK: - Serve

        @Test(arguments: ["-1", "70000", "notaport", "8o8o"])
        func aBadPortSaysWhatAPortIs(port: String) throws {
            try Self.expectOneLine(
                [Self.sampleApp, "--port", port],
                "invalid --port '\(port)': give a TCP port from 0 to 65535 (0 picks a free one)")
        }

        @Test(arguments: [
            ("/**", "expected PATTERN: Name: value"),
            ("**: Cache-Control: no-store", "the path pattern '**' must start with / (braces balanced, not nested)"),
            ("/**: Cache Control: no-store", "'Cache Control' is not a header field name"),
        ])
        func aBadHeaderRuleSaysWhatARuleIs(rule: String, reason: String) throws {
            try Self.expectOneLine(
                [Self.sampleApp, "--header", "/**: Cross-Origin-Opener-Policy: same-origin", "--header", rule],
                "invalid --header '\(rule)': \(reason); give 'PATTERN: Name: value' such as '/**: Cross-Origin-Opener-Policy: same-origin'"
            )
        }

        @Test func aFallbackThatIsNotAnOriginAsksForAnHTTPOrigin() throws {
            for fallback in ["not-a-url", "ftp://files.example", "https://"] {
                try Self.expectOneLine(
                    [Self.sampleApp, "--fallback", fallback],
                    "invalid --fallback '\(fallback)': give an http(s) origin such as https://origin.example")
            }
        }

        @Test func anImpossibleBindAddressIsOneLineWithoutTheReachabilityWarning() throws {
            try Self.expectOneLine(
                [Self.sampleApp, "--bind", "999.1.1.1"],
                "invalid --bind '999.1.1.1': not an IPv4 address; use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or ::1"
            )
            try Self.expectOneLine(
                [Self.sampleApp, "--bind", "::zz"],
                "invalid --bind '::zz': not an IPv6 address; use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or ::1"
            )
            try Self.expectOneLine(
                [Self.sampleApp, "--bind", "bad host!"],
                "invalid --bind 'bad host!': not an IP address or host name; use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or ::1"
            )
        }

        @Test func anAddressThatIsNotThisMachinesFailsAtRunTimeWithOneLine() throws {
            // 192.0.2.1 (TEST-NET-1, RFC 5737) is a valid address no machine here has.
            let result = try Self.run([Self.sampleApp, "--bind", "192.0.2.1", "--port", "0"])
            #expect(result.status == 1)
            #expect(
                result.stderr == Self.prefix + "cannot listen on 192.0.2.1:0: address not available\n",
                "\(result.stderr)")
        }

        @Test func aTypoedSubcommandIsNotReadAsADirectory() throws {
            try Self.expectOneLine(["pakage", "list"], "unknown subcommand 'pakage'; did you mean 'package'?")
            try Self.expectOneLine(["pakage"], "unknown subcommand 'pakage'; did you mean 'package'?")
            try Self.expectOneLine(["serv", Self.sampleApp], "unknown subcommand 'serv'; did you mean 'serve'?")
            try Self.expectOneLine(
                ["package", "lst", "--store", "/tmp"], "unknown subcommand 'package lst'; did you mean 'package list'?")
            try Self.expectOneLine(
                ["package", "frobnicate", "--store", "/tmp"],
                "unknown subcommand 'package frobnicate' (the package subcommands are install, list, rollback, gc)")
            // A word far from every subcommand is a directory that does not exist.
            try Self.expectOneLine(
                ["/definitely/not/here"],
                "not a directory: /definitely/not/here (give the directory to serve, or --store <store>)")
        }

        @Test func aBusyPortIsARunTimeFailure() throws {
            let first = try ServeProcess([Self.sampleApp])
            defer { first.stop() }
            let result = try Self.run([Self.sampleApp, "--port", String(first.port)])
            #expect(result.status == 1)
            #expect(result.stderr == Self.prefix + "cannot listen on 127.0.0.1:\(first.port): address already in use\n")
        }

        // MARK: - Package

        @Test func installingAMissingFileExits64LikeServingAMissingDirectory() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = directory.appending(path: "store").path(percentEncoded: false)
            try Self.expectOneLine(
                ["package", "install", "missing.zip", "--store", store, "--version", "1"],
                "no zip file at missing.zip (give a zip file path or an https:// URL)")
            #expect(!FileManager.default.fileExists(atPath: store))
            let serve = try Self.run(["/definitely/not/here"])
            #expect(serve.status == 64)
        }

        @Test func aFailedFirstInstallLeavesNoStoreSoServeSaysThereIsNone() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try Fixtures.write("<p>no zip</p>", "not-a-zip.zip", in: directory)
            let store = directory.appending(path: "new/store").path(percentEncoded: false)
            let install = try Self.run([
                "package", "install", directory.appending(path: "not-a-zip.zip").path(percentEncoded: false),
                "--store", store, "--version", "1",
            ])
            #expect(install.status == 1)
            #expect(install.stderr.hasPrefix(Self.prefix), "\(install.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: directory.appending(path: "new").path(percentEncoded: false)))
            try Self.expectOneLine(
                ["serve", "--store", store],
                "no package store at \(store) (the first 'schemeserve package install <zip> --store \(store)' creates it)"
            )
        }

        // MARK: - One prefix

        @Test(arguments: [
            [], ["--no-such-flag", "."], ["--port"], [".", "--log-format", "xml"], [".", "--cors", "*"],
            ["serve", ".", "--store", "."], ["package", "install", "x.zip"], ["package", "list"],
            ["package", "list", "--store", "/definitely/not/here"],
            ["package", "install", "x.zip", "--store", "/tmp", "--sha256", "xyz", "--version", "1"],
        ])
        func everyUsageErrorIsOneLineUnderOnePrefix(arguments: [String]) throws {
            let result = try Self.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix(Self.prefix), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "\(arguments): \(result.stderr)")
        }
    }
#endif
