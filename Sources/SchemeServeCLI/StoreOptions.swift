// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation
    import SchemeKit
    import SchemeKitPackages

    /// The `--store <dir>` option every `package` subcommand takes, and how the store is opened.
    struct StoreOptions: ParsableArguments {
        @Option(help: "The package store directory (created by the first install).")
        var store: String

        /// The store directory as an absolute file URL (relative paths resolve against the current
        /// directory).
        var directory: URL { Self.absolute(store) }

        /// Opens the store; unless `creating`, the directory must already exist (usage error
        /// otherwise), so a mistyped path is not silently turned into an empty store.
        func open(creating: Bool = false, httpClient: (any SchemeHTTPClient)? = nil, allowsPlainHTTP: Bool = false)
            async throws -> PackageStore
        {
            if !creating {
                var isDirectory: ObjCBool = false
                guard
                    FileManager.default.fileExists(
                        atPath: directory.path(percentEncoded: false), isDirectory: &isDirectory),
                    isDirectory.boolValue
                else { throw ValidationError(StoreOptions.missingStoreMessage(store)) }
            }
            return try await PackageStore(
                directory: directory,
                httpClient: httpClient,
                configuration: PackageStore.Configuration(allowsPlainHTTP: allowsPlainHTTP)
            )
        }

        /// The usage error for a store directory that does not exist, naming the command that creates one.
        static func missingStoreMessage(_ store: String) -> String {
            "no package store at \(store) (the first 'schemeserve package install <zip> --store \(store)' creates it)"
        }

        static func absolute(_ path: String) -> URL {
            let base = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
            return URL(filePath: path, directoryHint: .isDirectory, relativeTo: base).absoluteURL.standardizedFileURL
        }
    }
#endif
