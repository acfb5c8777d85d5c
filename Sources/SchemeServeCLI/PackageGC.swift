// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import SchemeKitPackages

    /// `schemeserve package gc --store <dir>`: delete all but the active and the previous version.
    struct PackageGC: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gc",
            abstract: "Delete every version except the active and the previous one.",
            discussion: """
                Prints "removed <version>" for each deleted version, then the active version (nothing \
                when the store is empty).
                """
        )

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let store = try await options.open()
            for version in try await store.collectGarbage() { print("removed \(version)") }
            if let active = try store.activeVersion() { print(active.version) }
        }
    }
#endif
