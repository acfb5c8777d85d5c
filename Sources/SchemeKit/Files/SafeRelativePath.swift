/// A request path that is safe to look up under a root directory: percent-decoded exactly once and
/// checked component by component.
///
/// ``init(percentEncodedPath:)`` rejects, with an ``UnsafePathError``:
/// - malformed percent escapes (`%2`, `%zz`) and invalid or overlong UTF-8 (`%c0%ae`) after decoding;
/// - encoded separators (`%2f`, `%5c`), backslashes, NUL and other control characters (C0, DEL, C1);
/// - dot segments, also encoded (`..`, `%2e%2e`, `.%2e`) and path-parameter tricks (`..;`, `.;x`):
///   a component whose part before any `;` is made only of dots and spaces;
/// - Windows drive letters (`C:`);
/// - paths over 1024 bytes and components over 255 bytes, reported after every other check.
///
/// A double-encoded payload such as `%252e%252e` decodes once to the literal name `%2e%2e`, which is
/// just an odd file name and cannot leave the root. Names that merely contain dots (`a..b.txt`,
/// `..foo`) are allowed. Empty components (`a//b`) are dropped.
///
/// ```swift
/// let path = try SafeRelativePath(percentEncodedPath: "/docs/a%20b.txt")
/// path.components   // ["docs", "a b.txt"]
/// ```
package struct SafeRelativePath: Sendable, Hashable {
    /// The most bytes in the decoded path.
    package static let maxPathBytes = 1024
    /// The most bytes in one decoded component.
    package static let maxComponentBytes = 255

    /// The decoded components, none empty, none a dot segment, none containing a separator.
    package let components: [String]
    /// Whether the path ended with `/` (a directory was asked for).
    package let hasTrailingSlash: Bool

    /// Decodes and checks a percent-encoded absolute path such as ``SchemeRequest/path``.
    ///
    /// - Throws: ``UnsafePathError`` naming the first problem found.
    package init(percentEncodedPath path: String) throws(UnsafePathError) {
        var raw = path
        let result = raw.withUTF8 { bytes -> Result<([String], Bool), UnsafePathError> in
            Self.parse(bytes)
        }
        switch result {
        case .success(let (components, trailingSlash)):
            self.components = components
            self.hasTrailingSlash = trailingSlash
        case .failure(let error):
            throw error
        }
    }

    /// Creates a path from components that are already known to be safe (such as `["index.html"]`).
    init(trustedComponents: [String]) {
        self.components = trustedComponents
        self.hasTrailingSlash = false
    }

    /// Whether some component starts with a dot (`.git`, `.env`, `..foo`).
    package var isHidden: Bool {
        components.contains { $0.utf8.first == UInt8(ascii: ".") }
    }

    /// Whether the last component has an extension (a dot that is not its first character).
    package var hasExtension: Bool {
        guard let last = components.last?.utf8 else { return false }
        return last.dropFirst().contains(UInt8(ascii: "."))
    }

    /// The path with `/` separators and a leading `/`, decoded.
    package var decodedPath: String { "/" + components.joined(separator: "/") }

    // MARK: Parsing

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<([String], Bool), UnsafePathError> {
        guard bytes.first == UInt8(ascii: "/") else { return .failure(.notAbsolute) }
        guard bytes.count <= maxPathBytes * 3 else { return .failure(.tooLong) }
        var components: [String] = []
        var decoded: [UInt8] = []
        decoded.reserveCapacity(64)
        var totalBytes = 0
        var lengthError: UnsafePathError?
        var index = 1
        while index <= bytes.count {
            decoded.removeAll(keepingCapacity: true)
            // Decode one raw segment up to the next literal '/'.
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                var byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                        let low = hexValue(bytes[index + 2])
                    else { return .failure(.invalidPercentEncoding) }
                    byte = high << 4 | low
                    index += 2
                }
                switch byte {
                case UInt8(ascii: "/"): return .failure(.encodedSeparator)
                case UInt8(ascii: "\\"): return .failure(.backslash)
                case 0x00..<0x20, 0x7F: return .failure(.controlCharacter)
                default: decoded.append(byte)
                }
                index += 1
            }
            index += 1
            if decoded.isEmpty { continue }
            // Length is reported last: a long name before `..` is still a dot segment.
            if decoded.count > maxComponentBytes { lengthError = lengthError ?? .componentTooLong }
            totalBytes += decoded.count + 1
            if totalBytes > maxPathBytes { lengthError = lengthError ?? .tooLong }
            if isDotSegment(decoded) { return .failure(.dotSegment) }
            if decoded.count >= 2, decoded[1] == UInt8(ascii: ":"), isASCIILetter(decoded[0]) {
                return .failure(.driveLetter)
            }
            guard let component = String(validating: decoded, as: UTF8.self) else {
                return .failure(.invalidUTF8)
            }
            if decoded.contains(where: { $0 >= 0x80 }),
                component.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.value <= 0x9F })
            {
                return .failure(.controlCharacter)
            }
            if lengthError == nil { components.append(component) }
        }
        if let lengthError { return .failure(lengthError) }
        let trailingSlash = bytes.count > 1 && bytes[bytes.count - 1] == UInt8(ascii: "/")
        return .success((components, trailingSlash))
    }

    /// `.`, `..`, `...`, `. .`, `..;x`: only dots and spaces before any `;`.
    private static func isDotSegment(_ bytes: [UInt8]) -> Bool {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        guard end > 0 else { return false }
        var sawDot = false
        for byte in bytes[..<end] {
            switch byte {
            case UInt8(ascii: "."): sawDot = true
            case UInt8(ascii: " "): continue
            default: return false
            }
        }
        return sawDot
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// Why a request path was refused by ``SafeRelativePath``.
///
/// The description is short and never contains the path itself, so it can be shown to a client.
package enum UnsafePathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not start with `/`.
    case notAbsolute
    /// A `%` not followed by two hexadecimal digits.
    case invalidPercentEncoding
    /// An encoded `/` (`%2f`) inside a component.
    case encodedSeparator
    /// A backslash, literal or encoded (`%5c`).
    case backslash
    /// NUL, another C0 control character, DEL or a C1 control character.
    case controlCharacter
    /// A component that is not valid UTF-8 once decoded (including overlong forms).
    case invalidUTF8
    /// A `.` or `..` component, however encoded or decorated (`..;`, `.. `).
    case dotSegment
    /// A Windows drive letter (`C:`).
    case driveLetter
    /// The decoded path is longer than ``SafeRelativePath/maxPathBytes``. Reported only when the
    /// path is otherwise safe (except beyond three times that length, where parsing stops).
    case tooLong
    /// A decoded component is longer than ``SafeRelativePath/maxComponentBytes``, no file system's
    /// name limit. Reported only when the path is otherwise safe.
    case componentTooLong

    /// Whether the path was refused only for its length: it names nothing that can exist, and is
    /// no attack.
    package var isLength: Bool { self == .tooLong || self == .componentTooLong }

    /// A short explanation without the offending path.
    package var description: String {
        switch self {
        case .notAbsolute: "path is not absolute"
        case .invalidPercentEncoding: "malformed percent-encoding"
        case .encodedSeparator: "encoded path separator"
        case .backslash: "backslash in path"
        case .controlCharacter: "control character in path"
        case .invalidUTF8: "path is not valid UTF-8"
        case .dotSegment: "dot segment in path"
        case .driveLetter: "drive letter in path"
        case .tooLong: "path too long"
        case .componentTooLong: "path component too long"
        }
    }
}
