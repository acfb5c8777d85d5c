// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation
    import SchemeKit
    import SchemeKitPackages

    /// `schemeserve package install <zip-or-url> --store <dir>`: install a version and activate it.
    struct PackageInstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install a zip file or an https URL as a new version and make it active.",
            usage: "schemeserve package install <source> --store <store> [<options>]",
            discussion: """
                The archive is copied or downloaded into the store, checked against --size and \
                --sha256 when given, unpacked with strict checks (no '..' or absolute paths, no symbolic \
                links, no duplicates, size and ratio limits), checked for its entry point, then \
                activated with one atomic rename; the version that was active becomes the previous one. \
                Prints the version.

                The first install creates the store directory; if it fails, the directory is removed \
                again.
                """
        )

        @Argument(help: "A zip file path, or an https:// URL to download it from.")
        var source: String

        @OptionGroup var options: StoreOptions

        @Option(help: "The expected SHA-256 of the archive (64 hex digits). Default: not checked.")
        var sha256: String?

        @Option(help: "The expected size of the archive in bytes. Default: not checked.")
        var size: Int64?

        @Option(help: "The version to install as. Default: the version in the package's schemekit-package.json.")
        var version: String?

        @Option(
            name: .customLong("entry-point"),
            help: "The page that must exist in the package. Default: the manifest's, else index.html.")
        var entryPoint: String?

        @Flag(name: .customLong("allow-http"), help: "Accept plain http:// URLs (local development servers only).")
        var allowHTTP = false

        func validate() throws {
            if let size, size < 0 { throw ValidationError("invalid --size \(size): give the archive's size in bytes") }
            if case .file(let url) = PackageInstallRequest.Source(argument: source) {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: url.path(percentEncoded: false), isDirectory: &isDirectory)
                guard exists, !isDirectory.boolValue else {
                    throw ValidationError("no zip file at \(source) (give a zip file path or an https:// URL)")
                }
            }
        }

        func run() async throws {
            let source = PackageInstallRequest.Source(argument: self.source)
            var client: (any SchemeHTTPClient)?
            if case .remote = source { client = URLSessionHTTPClient() }
            let store = try await options.open(creating: true, httpClient: client, allowsPlainHTTP: allowHTTP)
            let installed = try await store.install(
                PackageInstallRequest(
                    source: source, version: version, sha256: sha256, size: size, entryPoint: entryPoint)
            )
            print(installed.version)
        }
    }
#endif
