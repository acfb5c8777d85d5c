// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation
    import SchemeKitPackages
    import SchemeServe

    /// A failure as `schemeserve` reports it: one line on standard error under one prefix,
    /// `schemeserve: error: <message>`, and an exit status.
    ///
    /// The status says whose mistake it was: 64 (`EX_USAGE`) for a command line that cannot work as
    /// written (bad option value, missing file or store, unknown subcommand), 1 for a correct command
    /// that failed at run time (port in use, checksum mismatch, download failure). The message names
    /// the value at fault and, where there is one, the fix.
    struct CommandLineFailure: Error, CustomStringConvertible {
        /// `EX_USAGE` from `sysexits.h`.
        static let usageStatus: Int32 = 64
        /// Any failure that is not a usage error.
        static let runtimeStatus: Int32 = 1

        /// The message, without the prefix.
        let message: String
        /// The exit status.
        let status: Int32

        init(message: String, status: Int32) {
            self.message = message
            self.status = status
        }

        /// A usage error (exit status 64).
        static func usage(_ message: String) -> CommandLineFailure {
            CommandLineFailure(message: message, status: usageStatus)
        }

        /// Classifies an error thrown while running a command.
        init(_ error: any Error) {
            switch error {
            case let failure as CommandLineFailure:
                self = failure
            case let error as ServeError:
                self.init(
                    message: error.description, status: error.isUsageError ? Self.usageStatus : Self.runtimeStatus)
            case let error as PackageStoreError:
                self.init(message: error.description + error.commandLineHint, status: error.exitStatus)
            case let error as ValidationError:
                self.init(message: error.message, status: Self.usageStatus)
            case is CancellationError:
                self.init(message: "cancelled", status: Self.runtimeStatus)
            default:
                self.init(message: String(describing: error), status: Self.runtimeStatus)
            }
        }

        /// The line written to standard error, with its newline.
        var line: String { "schemeserve: error: \(Self.sentenceCase(firstLine))\n" }

        /// `line` without its newline.
        var description: String { String(line.dropLast()) }

        /// Writes ``line`` to standard error and exits with ``status``.
        func exit() -> Never {
            FileHandle.standardError.write(Data(line.utf8))
            Foundation.exit(status)
        }

        private var firstLine: String {
            let first = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init)
            return first ?? "failed"
        }

        /// Lowercases the first letter of a message that starts like a sentence ("Missing value …"),
        /// so the argument parser's messages read like ours; leaves acronyms ("URL …") alone.
        static func sentenceCase(_ message: String) -> String {
            let characters = Array(message.prefix(2))
            guard characters.count == 2, characters[0].isUppercase, characters[1].isLowercase else { return message }
            return message.prefix(1).lowercased() + message.dropFirst()
        }
    }
#endif
