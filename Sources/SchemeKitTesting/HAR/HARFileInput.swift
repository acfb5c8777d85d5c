package import Foundation

/// A HAR file named on a command line (`schemeserve --har`, `headless-render --har`): a `.har`
/// file, or Playwright's `.har.zip` — the HAR and its body files, zipped — which the tool unzips
/// with its own zip reader into a temporary directory, where the HAR finds its body files (`_file`).
package struct HARFileInput: Sendable {
    /// The HAR file to read: the one given, or the one in the unzipped archive.
    package let harFile: URL
    /// The directory the archive was unzipped into, or `nil`.
    package let temporaryDirectory: URL?

    /// Resolves `file`: a zip archive (it starts with `PK\u{3}\u{4}`) is unzipped with `unzip` into
    /// a new temporary directory, whose one `.har` file at the top is then read; anything else is
    /// read as it is.
    ///
    /// - Parameters:
    ///   - file: The file given.
    ///   - unzip: Extracts the zip archive at the first path into the existing, empty directory at
    ///     the second; `nil` for a tool built without a zip reader, whose `.har.zip` then fails to
    ///     read with ``HARError/Kind/zipArchive`` (one line: unzip it first).
    /// - Throws: ``HARError`` — `readFailed` when the archive cannot be unzipped, `invalidArchive`
    ///   when it holds no `.har` file, or more than one, at its top.
    package init(_ file: URL, unzip: ((_ archive: String, _ directory: String) throws -> Void)?) throws(HARError) {
        guard let unzip, Self.isZip(file) else {
            harFile = file
            temporaryDirectory = nil
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("schemekit-har-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try unzip(file.path, directory.path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw HARError(.readFailed, "cannot unzip \(file.lastPathComponent): \(error)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let hars = names.filter { $0.hasSuffix(".har") }
        guard hars.count == 1 else {
            try? FileManager.default.removeItem(at: directory)
            throw HARError(
                .invalidArchive,
                "\(file.lastPathComponent) holds \(hars.isEmpty ? "no" : "more than one") .har file at its top (Playwright's .har.zip holds one, har.har)"
            )
        }
        harFile = directory.appendingPathComponent(hars[0])
        temporaryDirectory = directory
    }

    /// Removes the directory the archive was unzipped into, if any.
    package func removeTemporaryFiles() {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    /// Whether `file` starts as a zip archive does (a local file header).
    private static func isZip(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
    }
}
