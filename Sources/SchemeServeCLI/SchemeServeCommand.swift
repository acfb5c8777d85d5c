// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation
    import SchemeKitPackages
    import SchemeServe

    /// `schemeserve`: serve a directory through a SchemeKit scheme over HTTP, and manage offline
    /// package stores (`schemeserve package …`).
    ///
    /// `serve` is the default subcommand, so `schemeserve <dir>` serves `<dir>`, and
    /// `schemeserve --help` shows the serve usage and options followed by the subcommands.
    ///
    /// Every failure is one line on standard error, `schemeserve: error: <what is wrong and how to fix it>`
    /// (see ``CommandLineFailure``), and the exit status says which kind it was: 64 (`EX_USAGE`) when
    /// the command line is wrong, 1 when a correct command failed at run time.
    @main
    struct SchemeServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schemeserve",
            abstract: "Serve a directory over HTTP exactly as a web view gets it through a SchemeKit scheme.",
            version: SchemeServeVersion.current,
            subcommands: [Serve.self, PackageCommand.self],
            defaultSubcommand: Serve.self
        )

        /// Parses the arguments and runs the command, turning every failure into one line and an exit
        /// status (see the type's documentation).
        static func main() async {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let typo = SubcommandSpelling.unknownSubcommand(in: arguments) {
                CommandLineFailure.usage(typo).exit()
            }
            let command: any ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                if exitCode(for: error) == .success { exitCleanly(error) }
                CommandLineFailure.usage(parserMessage(for: error)).exit()
            }
            do {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    var command = command
                    try command.run()
                }
            } catch {
                // `help` and `--help` parse into the argument parser's own help command, whose run
                // throws the help request.
                if exitCode(for: error) == .success { exitCleanly(error) }
                CommandLineFailure(error).exit()
            }
        }

        /// Prints the help (or version) a clean exit asks for and exits 0. The root command's help is
        /// the default subcommand's, so that `schemeserve --help` documents `schemeserve <directory>`,
        /// followed by the list of subcommands.
        static func exitCleanly(_ error: any Error) -> Never {
            let text = fullMessage(for: error)
            if text == helpMessage() {
                print(rootHelp())
                Foundation.exit(0)
            }
            exit(withError: error)
        }

        /// `serve`'s help, then the root's subcommand list.
        static func rootHelp(columns: Int? = nil) -> String {
            let serve = helpMessage(for: Serve.self, columns: columns)
            let root = helpMessage(columns: columns)
            guard let subcommands = root.range(of: "SUBCOMMANDS:") else { return serve }
            var text = serve
            while text.hasSuffix("\n") { text.removeLast() }
            return text + "\n\n" + root[subcommands.lowerBound...]
        }

        /// The first line of the argument parser's message for `error`, without its own `Error: `
        /// prefix (``CommandLineFailure`` adds ours).
        static func parserMessage(for error: any Error) -> String {
            if let failure = error as? CommandLineFailure { return failure.message }
            let line = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            return line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line
        }
    }
#endif
