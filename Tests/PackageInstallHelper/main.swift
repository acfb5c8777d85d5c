// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    // A child process for the package store's crash, concurrency and speed tests; not a product.
    //
    // usage: PackageInstallHelper <store-dir> <zip> [--version V] [--sha256 HEX] [--fault EVENT[:N]]
    //                             [--hold-after-lock] [--wait-before-install] [--no-sync]
    //
    // --fault EVENT[:N]     SIGKILLs itself at the N-th (default first) install event named EVENT:
    //                       locked transferring transferred verified extracting extracted validated stored
    //                       recorded switching activated finished
    // --hold-after-lock     once the store lock is held, waits for a line on standard input before going
    //                       on (to overlap two installs: the test decides when the lock is let go).
    // --wait-before-install with the store open, prints "ready" and waits for a line on standard input
    //                       before installing (so the test knows the next lock taken is the install's).
    // Prints "locked <monotonic-ns>" when the lock is held, "finished <monotonic-ns>" at the last event
    // (still under the lock) and, on success, "active <version>". Errors print one line to stderr and exit 1.
    import Foundation
    import SchemeKitPackages
    import Synchronization
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }

    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Blocks until a line (or the end) arrives on standard input: the test's go-ahead.
    func waitForInputLine() {
        _ = readLine()
    }

    /// The parsed command line.
    struct Options: Sendable {
        var store: String
        var zip: String
        var version: String?
        var sha256: String?
        var faultName: String?
        var faultCount = 1
        var holdAfterLock = false
        var waitBeforeInstall = false
        var syncs = true

        init(_ all: [String]) {
            var arguments = all
            func option(_ name: String) -> String? {
                guard let index = arguments.firstIndex(of: name) else { return nil }
                guard index + 1 < arguments.count else { fail("\(name) needs a value") }
                let value = arguments[index + 1]
                arguments.removeSubrange(index...index + 1)
                return value
            }
            version = option("--version")
            sha256 = option("--sha256")
            if let fault = option("--fault") {
                let parts = fault.split(separator: ":")
                faultName = String(parts[0])
                faultCount = parts.dropFirst().first.flatMap { Int($0) } ?? 1
            }
            func flag(_ name: String) -> Bool {
                defer { arguments.removeAll { $0 == name } }
                return arguments.contains(name)
            }
            holdAfterLock = flag("--hold-after-lock")
            waitBeforeInstall = flag("--wait-before-install")
            syncs = !flag("--no-sync")
            guard arguments.count == 2 else { fail("usage: PackageInstallHelper <store-dir> <zip> [options]") }
            store = arguments[0]
            zip = arguments[1]
        }
    }

    /// Counts events by name; kills the process at the chosen one.
    final class FaultInjector: Sendable {
        let options: Options
        let counts = Locked<[String: Int]>([:])

        init(_ options: Options) { self.options = options }

        func observe(_ event: PackageInstallEvent) {
            let name = Self.name(event)
            if name == "locked" {
                say("locked \(monotonicNanoseconds())")
                if options.holdAfterLock { waitForInputLine() }
            }
            if name == "finished" { say("finished \(monotonicNanoseconds())") }
            let count = counts.withLock { counts in
                counts[name, default: 0] += 1
                return counts[name]!
            }
            if name == options.faultName && count == options.faultCount {
                kill(getpid(), SIGKILL)
            }
        }

        static func name(_ event: PackageInstallEvent) -> String {
            switch event {
            case .locked: "locked"
            case .transferring: "transferring"
            case .transferred: "transferred"
            case .verified: "verified"
            case .extracting: "extracting"
            case .extracted: "extracted"
            case .validated: "validated"
            case .stored: "stored"
            case .recorded: "recorded"
            case .switching: "switching"
            case .activated: "activated"
            case .finished: "finished"
            }
        }
    }

    let options = Options(Array(CommandLine.arguments.dropFirst()))
    let injector = FaultInjector(options)
    do {
        let store = try await PackageStore(
            directory: URL(fileURLWithPath: options.store),
            configuration: PackageStore.Configuration(syncsToDisk: options.syncs))
        if options.waitBeforeInstall {
            say("ready")
            waitForInputLine()
        }
        let installed = try await store.install(
            PackageInstallRequest(
                source: .file(URL(fileURLWithPath: options.zip)), version: options.version, sha256: options.sha256),
            observer: { injector.observe($0) })
        say("active \(installed.version)")
    } catch {
        fail("\(error)")
    }
#else
    print("PackageInstallHelper needs the package trait `Packages`")
#endif
