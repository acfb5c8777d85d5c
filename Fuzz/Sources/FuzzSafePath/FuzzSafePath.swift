import Foundation
import FuzzSupport

@testable import SchemeKit

/// `SafeRelativePath`, the one decoder from a URL path to a file under a root.
///
/// Properties, whatever the encoding: an accepted path has no component that is empty, `.` or
/// `..` (or only dots and spaces before a `;`), or contains `/`, `\`, NUL or another control
/// character; no drive letter; within the byte limits; resolving its components from a root never
/// climbs above it; decoding is deterministic. A rejection is always an `UnsafePathError`.
@main
struct FuzzSafePath {
    static func main() {
        Fuzzer.run { buffer in
            var input = FuzzInput(buffer)
            let mode = input.byte()
            let raw = input.rest()
            // The raw bytes as given, and with every byte percent-encoded (so decoding sees them all).
            check(String(decoding: raw, as: UTF8.self))
            if mode & 1 == 1 {
                check("/" + raw.map { byte in byte == UInt8(ascii: "/") ? "/" : "%" + hex(byte) }.joined())
            }
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    static func check(_ path: String) {
        let result: SafeRelativePath
        do {
            result = try SafeRelativePath(percentEncodedPath: path)
        } catch {
            _ = error.description
            return
        }
        require((try? SafeRelativePath(percentEncodedPath: path)) == result, "not deterministic")
        var depth = 0
        var total = 0
        for component in result.components {
            let bytes = Array(component.utf8)
            total += bytes.count
            require(!bytes.isEmpty, "empty component in \(path.debugDescription)")
            require(bytes.count <= SafeRelativePath.maxComponentBytes, "component too long")
            require(
                !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(UInt8(ascii: "\\")),
                "separator in component \(component.debugDescription) of \(path.debugDescription)")
            require(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "control byte in \(path.debugDescription)")
            require(
                !component.unicodeScalars.contains { (0x80...0x9F).contains($0.value) },
                "C1 control in \(path.debugDescription)")
            let beforeParameter = component.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
            require(
                !(beforeParameter.contains(".") && beforeParameter.allSatisfy({ $0 == "." || $0 == " " })),
                "dot segment \(component.debugDescription) accepted from \(path.debugDescription)")
            require(
                !(bytes.count >= 2 && bytes[1] == UInt8(ascii: ":") && (bytes[0] | 0x20) >= 0x61
                    && (bytes[0] | 0x20) <= 0x7A),
                "drive letter accepted from \(path.debugDescription)")
            require(String(validating: bytes, as: UTF8.self) != nil, "invalid UTF-8 accepted")
            depth += 1  // no component can go up, so the depth never falls below the root
        }
        require(total <= SafeRelativePath.maxPathBytes, "decoded path longer than the limit")
        require(depth == result.components.count, "depth")
        // Standardising the decoded path under a root must stay under the root.
        let root = URL(fileURLWithPath: "/srv/root", isDirectory: true)
        // Component by component, and never through `Character` operations on the joined path: a `/`
        // followed by a combining mark is one `Character` (that made an earlier version of this check
        // drop a component and report an escape that was not there).
        let joined = result.components.reduce(root) { $0.appendingPathComponent($1) }.standardizedFileURL.path
        require(
            joined.utf8.elementsEqual("/srv/root".utf8) || joined.utf8.starts(with: "/srv/root/".utf8),
            "escapes the root: \(path.debugDescription) → \(joined)")
    }
}
