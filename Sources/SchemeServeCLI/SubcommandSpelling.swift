// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation

    /// Tells a mistyped subcommand from the directory `serve` takes by default, before the argument
    /// parser reads `schemeserve pakage list` as "serve the directory `pakage`".
    ///
    /// A first argument that names no existing file and is within two edits of a subcommand name
    /// (`pakage`, `serv`, `packages`) is an unknown subcommand; so is an unknown name after
    /// `package` (`package lst`). Anything else is left to the parser.
    enum SubcommandSpelling {
        /// A one-line message for the unknown subcommand in `arguments`, or `nil` when there is none.
        static func unknownSubcommand(in arguments: [String]) -> String? {
            guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
            let root = names(of: SchemeServeCommand.self)
            if first == "package" {
                guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return nil }
                let word = arguments[1]
                let package = names(of: PackageCommand.self)
                guard !package.contains(word) else { return nil }
                if let suggestion = closest(to: word, in: package) {
                    return message(for: "package \(word)", suggestion: "package \(suggestion)")
                }
                let listed = package.filter { $0 != "help" }.joined(separator: ", ")
                return "unknown subcommand 'package \(word)' (the package subcommands are \(listed))"
            }
            guard !root.contains(first), !FileManager.default.fileExists(atPath: first),
                let suggestion = closest(to: first, in: root)
            else { return nil }
            return message(for: first, suggestion: suggestion)
        }

        private static func message(for word: String, suggestion: String?) -> String {
            guard let suggestion else { return "unknown subcommand '\(word)'" }
            return "unknown subcommand '\(word)'; did you mean '\(suggestion)'?"
        }

        /// The subcommand names of `command`, and `help`.
        static func names(of command: any ParsableCommand.Type) -> [String] {
            command.configuration.subcommands.map { subcommand in
                subcommand.configuration.commandName ?? String(describing: subcommand).lowercased()
            } + ["help"]
        }

        /// The name in `names` closest to `word`, when it is at most two edits away.
        static func closest(to word: String, in names: [String]) -> String? {
            names.map { ($0, editDistance(word.lowercased(), $0)) }
                .filter { $0.1 <= 2 && $0.1 < $0.0.count }
                .min { $0.1 < $1.1 }?.0
        }

        /// Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
        /// substitutions and swaps of neighbours each count one.
        static func editDistance(_ a: String, _ b: String) -> Int {
            let a = Array(a)
            let b = Array(b)
            guard !a.isEmpty else { return b.count }
            guard !b.isEmpty else { return a.count }
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { table[i][0] = i }
            for j in 0...b.count { table[0][j] = j }
            for i in 1...a.count {
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        best = min(best, table[i - 2][j - 2] + 1)
                    }
                    table[i][j] = best
                }
            }
            return table[a.count][b.count]
        }
    }
#endif
