import ArgumentParser
import Foundation
import SchemeKitPackages
import SchemeServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `schemeserve`: serve a directory through a SchemeKit scheme over HTTP, and manage offline
/// package stores (`schemeserve package …`).
///
/// `serve` is the default subcommand, so `schemeserve <dir>` serves `<dir>`.
@main
struct SchemeServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemeserve",
        abstract: "Serve a directory over HTTP exactly as a web view gets it through a SchemeKit scheme.",
        subcommands: [Serve.self, PackageCommand.self],
        defaultSubcommand: Serve.self
    )

    /// Parses the arguments and runs; every usage error is one line on standard error and exit
    /// code 64 (EX_USAGE). A package store failure is one line `schemeserve: error: <reason>` and
    /// exit code 64 or 1 (see `PackageStoreError.exitStatus`).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            usageFailure(message(for: error))
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ServeError {
            printError(error.description)
            Foundation.exit(error.isUsageError ? 64 : 1)
        } catch let error as PackageStoreError {
            printError("error: \(error.description)\(error.commandLineHint)")
            Foundation.exit(error.exitStatus)
        } catch let error as ValidationError {
            usageFailure(error.message)
        } catch {
            exit(withError: error)
        }
    }

    static func usageFailure(_ message: String) -> Never {
        let line = message.split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        printError(line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line)
        Foundation.exit(64)
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("schemeserve: \(message)\n".utf8))
    }
}
