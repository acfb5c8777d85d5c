// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser

    /// `schemeserve package …`: manage an offline package store (versioned zip bundles).
    struct PackageCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "package",
            abstract: "Install, list, roll back and garbage-collect versions in an offline package store.",
            discussion: """
                A package store is a directory of installed versions of a zipped web app and a pointer \
                to the active one; `schemeserve serve --store <dir>` serves the active version. Installs \
                are verified (size, SHA-256, zip entries) and switched atomically: on any failure the \
                store is unchanged, and a store that the failed install would have created is not left \
                behind.

                On success the last line on standard output is the active version. On failure one line \
                "schemeserve: error: <reason>" goes to standard error and the exit code is 64 for a \
                usage error (bad option, malformed --sha256 or --version, missing zip file or store, \
                http URL without --allow-http) and 1 for anything else (checksum or size mismatch, bad \
                zip, nothing to roll back, download failure).
                """,
            subcommands: [PackageInstall.self, PackageList.self, PackageRollback.self, PackageGC.self]
        )
    }
#endif
