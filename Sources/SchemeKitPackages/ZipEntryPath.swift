// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// A validated, relative path inside a package: the defence against "zip slip".
    ///
    /// Accepted: `/`-separated components, none empty, `.` or `..`; no leading `/`, no drive letter
    /// (`C:`), no backslash, no NUL, no component longer than 255 bytes. A directory entry may end with
    /// one `/`. Anything else is rejected rather than "cleaned", so that what is installed is exactly what
    /// the archive names.
    struct ZipEntryPath: Hashable {
        /// The components, e.g. `["css", "site.css"]`.
        let components: [Substring]
        /// The components joined with `/`.
        var relative: String { components.joined(separator: "/") }

        /// Validates `raw`; `isDirectory` allows one trailing `/`.
        init(_ raw: String, isDirectory: Bool = false) throws {
            func reject(_ reason: String) -> PackageStoreError {
                PackageStoreError(.unsafeEntryPath(path: raw, reason: reason))
            }
            // Checked byte by byte: `Character` comparisons would let a combining mark after `/`,
            // `\\` or NUL hide it (`"/\u{301}x".hasPrefix("/")` is false).
            var bytes = Array(raw.utf8)[...]
            if isDirectory && bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
            guard !bytes.isEmpty else { throw reject("the path is empty") }
            guard bytes.first != UInt8(ascii: "/") else { throw reject("the path is absolute") }
            guard !bytes.contains(UInt8(ascii: "\\")) else { throw reject("the path contains a backslash") }
            guard !bytes.contains(0) else { throw reject("the path contains NUL") }
            if bytes.count >= 2, let first = bytes.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A,
                bytes[bytes.startIndex + 1] == UInt8(ascii: ":")
            {
                throw reject("the path starts with a drive letter")
            }
            var parts: [Substring] = []
            for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                switch part.count {
                case 0: throw reject("the path has an empty component")
                case 1 where part.first == UInt8(ascii: "."): throw reject("the path has a '.' component")
                case 2 where part.allSatisfy({ $0 == UInt8(ascii: ".") }):
                    throw reject("the path has a '..' component")
                case 256...: throw reject("a component is longer than 255 bytes")
                default: parts.append(Substring(decoding: part, as: UTF8.self))
                }
            }
            components = parts
        }
    }
#endif
