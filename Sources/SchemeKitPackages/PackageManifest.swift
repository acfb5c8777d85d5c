// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation

    /// The optional `schemekit-package.json` at the root of a package: its version and entry point.
    ///
    /// ```json
    /// { "version": "2.1.0", "entryPoint": "app/index.html" }
    /// ```
    /// Both fields are optional; values given in the ``PackageInstallRequest`` win.
    struct PackageManifest: Decodable {
        /// The file name looked for at the package root.
        static let fileName = "schemekit-package.json"

        var version: String?
        var entryPoint: String?

        /// Reads the manifest from an extracted package, if it has one (at most 64 KiB).
        static func load(from root: String, files: Set<String>) throws -> PackageManifest? {
            guard files.contains(fileName) else { return nil }
            let path = root + "/" + fileName
            guard let data = FileManager.default.contents(atPath: path), data.count <= 65_536 else {
                throw PackageStoreError(.invalidManifest("\(fileName) is unreadable or larger than 64 KiB"))
            }
            do {
                return try JSONDecoder().decode(PackageManifest.self, from: data)
            } catch {
                throw PackageStoreError(.invalidManifest("\(fileName): \(error)"))
            }
        }
    }
#endif
