// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation

    /// A fresh temporary directory, removed by ``remove()``.
    struct TestDirectory: Sendable {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appending(path: "schemekit-packages-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func path(_ relative: String) -> URL { url.appending(path: relative) }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }
#endif
