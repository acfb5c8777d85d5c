public import Foundation

/// Decides a response's MIME type and charset: by file extension first, then by sniffing the
/// first bytes, else `application/octet-stream`.
///
/// The extension table is generated from Debian's `media-types` (`/etc/mime.types`) plus
/// documented overrides for modern web types (`Scripts/generate-mime-table.py`): `.js` and `.mjs`
/// are `text/javascript`, `.wasm` is `application/wasm`, `.woff2` is `font/woff2`, and so on.
/// Sniffing follows the WHATWG MIME Sniffing standard (see ``MIMESniffer``).
///
/// The detector is a small value, cheap to copy and `Sendable`; the built-in table is parsed once
/// per process, on first use, and shared. An extension lookup allocates nothing beyond the
/// extension string itself (and none at all for short extensions).
///
/// ```swift
/// let detector = MIMEDetector()
/// detector.mediaType(forPath: "/app/INDEX.HTML").rawValue              // "text/html; charset=utf-8"
/// detector.mediaType(forPath: "/app/logo", leadingBytes: png).essence  // "image/png"
/// detector.mimeType(forExtension: "mjs")                               // "text/javascript"
/// ```
public struct MIMEDetector: Sendable {
    /// The charset declared on text types (``MediaType/isText``), or `nil` to declare none.
    /// Default: `utf-8`.
    ///
    /// When leading bytes are given they take precedence: a byte order mark names the charset,
    /// and bytes that are not valid UTF-8 drop a `utf-8` default (the engine then detects the
    /// encoding itself, e.g. from HTML's `<meta charset>`).
    public var defaultCharset: String?

    /// The sniffer used when the extension is missing or unknown.
    public var sniffer: MIMESniffer

    /// Entries that replace or extend the built-in table, keyed by lowercase extension.
    private var overrides: [String: MIMETypeTable.Entry]

    /// The most dot-separated parts in any known extension (2 for `spdx.json`).
    private var maximumExtensionParts: Int

    /// Creates a detector with the built-in table, `utf-8` for text types and a default sniffer.
    public init() {
        self.init(overrides: [:])
    }

    /// Creates a detector with extra extension mappings and charset policy.
    ///
    /// - Parameters:
    ///   - overrides: Extension → media type pairs that take precedence over the built-in table.
    ///     Keys are case-insensitive, with or without a leading dot; a key may hold dots itself
    ///     (`tar.gz`). A `charset` parameter on a value is declared for that extension whatever
    ///     the other rules say.
    ///   - defaultCharset: The charset for text types; `nil` declares none. Default: `utf-8`.
    ///   - sniffer: The sniffer for files without a known extension. Default: ``MIMESniffer/init(sniffsScriptableTypes:)``.
    public init(overrides: [String: MediaType], defaultCharset: String? = "utf-8", sniffer: MIMESniffer = MIMESniffer())
    {
        var entries: [String: MIMETypeTable.Entry] = [:]
        for (key, mediaType) in overrides {
            let ext = Self.normalizedExtension(key.hasPrefix(".") ? String(key.dropFirst()) : key)
            guard !ext.isEmpty else { continue }
            entries[ext] = MIMETypeTable.Entry(mediaType)
        }
        self.overrides = entries
        self.maximumExtensionParts =
            entries.keys.reduce(MIMETypeTable.maximumDotsInExtension) { max($0, Self.dotCount(in: $1)) } + 1
        self.defaultCharset = defaultCharset
        self.sniffer = sniffer
    }

    /// The MIME type essence for a file extension, or `nil` when unknown.
    ///
    /// - Parameter ext: The extension without the dot (a leading dot is tolerated), any case:
    ///   `html`, `MJS`, `.woff2`, `spdx.json`.
    public func mimeType(forExtension ext: String) -> String? {
        entry(forExtension: ext.hasPrefix(".") ? ext.dropFirst() : Substring(ext))?.mimeType
    }

    /// The MIME type essence sniffed from a resource's first bytes (only 1445 are read); see
    /// ``MIMESniffer``. Never `nil`: unknown binary data is `application/octet-stream`.
    package func sniff(_ bytes: Data) -> String {
        bytes.withUnsafeBytes { sniffer.classify($0) }.mimeType
    }

    /// The MIME type essence and charset for a path; see ``mediaType(forPath:leadingBytes:)``.
    package func contentType(forPath path: String, leadingBytes: Data? = nil) -> (mimeType: String, charset: String?) {
        if let entry = entry(forPath: path) {
            return (entry.mimeType, entry.isText ? entry.charset ?? charset(forText: leadingBytes) : nil)
        }
        guard let leadingBytes else { return ("application/octet-stream", nil) }
        let sniffed = leadingBytes.withUnsafeBytes { sniffer.classify($0) }
        guard MediaType.isText(essence: sniffed.mimeType) else { return (sniffed.mimeType, nil) }
        return (sniffed.mimeType, sniffed.charset ?? charset(forText: leadingBytes))
    }

    /// The `Content-Type` header value for a path, such as `text/html; charset=utf-8`; see
    /// ``mediaType(forPath:leadingBytes:)``.
    package func contentTypeHeaderValue(forPath path: String, leadingBytes: Data? = nil) -> String {
        let (mimeType, charset) = contentType(forPath: path, leadingBytes: leadingBytes)
        return charset.map { "\(mimeType); charset=\($0)" } ?? mimeType
    }

    /// The media type for a path (the `Content-Type` decision), with its `charset` parameter.
    ///
    /// 1. The extension of the last path component, case-insensitively: the part after its last
    ///    dot (`a.tar.gz` → `gz`), unless the table knows a longer one (`x.spdx.json` →
    ///    `spdx.json`). A leading dot does not start an extension (`.bashrc` has none), and a
    ///    directory's dots do not count (`dir.d/file` has none).
    /// 2. When the extension is missing or unknown and `leadingBytes` is given: sniffing.
    /// 3. Else `application/octet-stream`.
    ///
    /// - Parameters:
    ///   - path: A file path or URL path; only its last component is read.
    ///   - leadingBytes: The resource's first bytes (1445 are enough), or `nil` when not at hand.
    /// - Returns: The MIME type essence with the charset to declare as its `charset` parameter: for
    ///   text types (see ``MediaType/isText``) a byte order mark's charset, else ``defaultCharset``
    ///   unless the leading bytes are not valid UTF-8; no parameter for other types.
    public func mediaType(forPath path: String, leadingBytes: Data? = nil) -> MediaType {
        let (mimeType, charset) = contentType(forPath: path, leadingBytes: leadingBytes)
        return (MediaType(rawValue: mimeType) ?? .octetStream).withCharset(charset)
    }
}

// MARK: - Lookup

extension MIMEDetector {
    /// The charset for a text type: a byte order mark's, else the default unless the bytes are
    /// not UTF-8 while the default is.
    private func charset(forText leadingBytes: Data?) -> String? {
        guard let leadingBytes else { return defaultCharset }
        return leadingBytes.withUnsafeBytes { buffer -> String? in
            let header = UnsafeRawBufferPointer(rebasing: buffer.prefix(MIMESniffer.resourceHeaderLength))
            if let charset = MIMESniffer.byteOrderMarkCharset(header) { return charset }
            if let defaultCharset, defaultCharset.lowercased() == "utf-8", !MIMESniffer.isValidUTF8Prefix(header) {
                return nil
            }
            return defaultCharset
        }
    }

    /// The table entry for the extension of a path's last component.
    private func entry(forPath path: String) -> MIMETypeTable.Entry? {
        if let found = path.utf8.withContiguousStorageIfAvailable({ entry(forPathBytes: $0) }) { return found }
        var copy = path
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { entry(forPathBytes: $0) } ?? nil
    }

    /// The table entry for the UTF-8 path `bytes`: the longest known multi-part extension of its
    /// last component (`spdx.json`), else its last extension (`json`).
    private func entry(forPathBytes bytes: UnsafeBufferPointer<UInt8>) -> MIMETypeTable.Entry? {
        let dot = UInt8(ascii: ".")
        var start = bytes.count
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        // Leading dots belong to the name (`.bashrc`), not to an extension.
        while start < bytes.count, bytes[start] == dot { start += 1 }
        for parts in stride(from: maximumExtensionParts, through: 1, by: -1) {
            // The index of the `parts`th dot from the end of the name.
            var index = bytes.count
            var remaining = parts
            while index > start {
                index -= 1
                if bytes[index] == dot {
                    remaining -= 1
                    if remaining == 0 { break }
                }
            }
            guard remaining == 0, index + 1 < bytes.count else { continue }
            let key = Self.lowercasedKey(UnsafeBufferPointer(rebasing: bytes[(index + 1)...]))
            if let entry = entry(forKey: key) { return entry }
        }
        return nil
    }

    /// A lowercase dictionary key from UTF-8 bytes (ASCII is lowercased while copying, so short
    /// extensions never touch the heap).
    private static func lowercasedKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// The entry for a lowercase extension: an override, else the built-in table's.
    private func entry(forKey key: String) -> MIMETypeTable.Entry? {
        if !overrides.isEmpty, let entry = overrides[key] { return entry }
        return MIMETypeTable.index[key]
    }

    /// The table entry for an extension without its dot, any case.
    private func entry(forExtension ext: Substring) -> MIMETypeTable.Entry? {
        entry(forKey: Self.normalizedExtension(ext))
    }

    /// The number of dots in `text`.
    static func dotCount(in text: String) -> Int {
        text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) }
    }

    /// `ext` lowercased, without copying when it is already lowercase ASCII.
    private static func normalizedExtension(_ ext: some StringProtocol) -> String {
        if ext.utf8.allSatisfy({ $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }) {
            return String(ext)
        }
        return ext.lowercased()
    }
}
