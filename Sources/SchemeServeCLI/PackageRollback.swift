// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import SchemeKitPackages

    /// `schemeserve package rollback --store <dir>`: switch back to the previous version.
    struct PackageRollback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rollback",
            abstract: "Switch back to the previous version (which then becomes active; the other, previous).",
            discussion: "Prints the now active version; fails when there is no previous version."
        )

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let store = try await options.open()
            print(try await store.rollback().version)
        }
    }
#endif
