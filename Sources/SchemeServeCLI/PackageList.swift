// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import SchemeKitPackages

    /// `schemeserve package list --store <dir>`: the installed versions.
    struct PackageList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the installed versions, oldest first, marking the active and the previous one.",
            discussion: """
                One line per version: "<version> (active)", "<version> (previous)" or "<version>". \
                Nothing is printed for an empty store.
                """
        )

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let store = try await options.open()
            for version in try store.versions() {
                let mark = version.isActive ? " (active)" : version.isPrevious ? " (previous)" : ""
                print(version.version + mark)
            }
        }
    }
#endif
