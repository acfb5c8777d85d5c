package import Foundation

/// Where a recorded body's bytes are: in memory (from `text`, decoded), or in a file beside the
/// HAR file (`_file`).
enum HARBodySource: Sendable {
    case bytes(Data)
    case file(URL, size: Int)

    /// The body's length.
    var count: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let size): size
        }
    }

    /// The whole body in memory.
    func data() throws(HARError) -> Data {
        switch self {
        case .bytes(let data):
            return data
        case .file(let url, _):
            guard let handle = HARFileIO.openBodyFile(url) else {
                throw HARError(.readFailed, "cannot read the body file \(url.lastPathComponent)")
            }
            defer { try? handle.close() }
            do { return try handle.readToEnd() ?? Data() } catch {
                throw HARError(.readFailed, "cannot read the body file \(url.lastPathComponent)")
            }
        }
    }

    /// Resolves a body given as `text` + `encoding` or as a file name, relative to `directory`.
    ///
    /// - Parameters:
    ///   - expectedSize: The recorded size a body file must have, or `nil` not to check.
    static func resolve(
        text: String?, encoding: String?, file: String?, expectedSize: Int?, directory: URL?, field: String
    ) throws(HARError) -> HARBodySource {
        if let file {
            guard isPlainFileName(file) else {
                throw HARError(.unsafeBodyFile, "'\(file)' is not a plain file name beside the HAR file", field: field)
            }
            guard let directory else {
                throw HARError(
                    .missingBodyFile, "'\(file)' cannot be found: the HAR was not read from a file", field: field)
            }
            let url = directory.appendingPathComponent(file)
            if HARFileIO.isSymbolicLink(url) {
                throw HARError(
                    .unsafeBodyFile, "the body file '\(file)' is a symbolic link, which is never followed", field: field
                )
            }
            guard let size = HARFileIO.regularFileSize(url) else {
                throw HARError(.missingBodyFile, "the body file '\(file)' is missing", field: field)
            }
            if let expectedSize, expectedSize >= 0, expectedSize != size {
                throw HARError(
                    .missingBodyFile, "the body file '\(file)' has \(size) bytes, the entry says \(expectedSize)",
                    field: field)
            }
            return .file(url, size: size)
        }
        guard let text else { return .bytes(Data()) }
        switch encoding?.lowercased() {
        case nil, "":
            return .bytes(Data(text.utf8))
        case "base64":
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw HARError(.invalidBody, "the base64 text does not decode", field: field)
            }
            return .bytes(data)
        case let other?:
            throw HARError(.invalidBody, "unknown encoding '\(other)' (only base64 is known)", field: field)
        }
    }

    /// A name of a file directly beside the HAR file: not empty, not `.` or `..`, no `/`, `\` or NUL.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
    }
}

extension HARContent {
    /// The response body's bytes: ``text`` (decoded from base64 when ``encoding`` says so), or the
    /// file ``file`` beside `harFile`; empty when neither is recorded.
    ///
    /// - Parameter harFile: The HAR file the content was read from (its directory holds body
    ///   files), or `nil`.
    /// - Throws: ``HARError`` — `invalidBody`, `unsafeBodyFile`, `missingBodyFile`, `readFailed`.
    package func body(besides harFile: URL?) throws(HARError) -> Data {
        try HARBodySource.resolve(
            text: text, encoding: encoding, file: file, expectedSize: file == nil ? nil : size,
            directory: harFile?.deletingLastPathComponent(), field: "response.content"
        ).data()
    }
}

extension HARPostData {
    /// The request body's bytes: ``text`` (base64-decoded when ``encoding`` says so), or the file
    /// ``file`` beside `harFile`, or the ``parameters`` joined as a form
    /// (`application/x-www-form-urlencoded`, names and values as recorded).
    ///
    /// - Throws: ``HARError`` — `invalidBody`, `unsafeBodyFile`, `missingBodyFile`, `readFailed`.
    package func body(besides harFile: URL?) throws(HARError) -> Data {
        try source(directory: harFile?.deletingLastPathComponent()).data()
    }

    func source(directory: URL?) throws(HARError) -> HARBodySource {
        if text == nil, file == nil, !parameters.isEmpty {
            let form = parameters.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
            return .bytes(Data(form.utf8))
        }
        return try HARBodySource.resolve(
            text: text, encoding: encoding, file: file, expectedSize: nil, directory: directory,
            field: "request.postData")
    }
}
