import SchemeKit
import Testing

extension FilesTests {
    struct SafeRelativePathTests {
        /// One name over the 255-byte limit, and a path over the 1024-byte limit, both otherwise safe.
        static let longName = "/" + String(repeating: "b", count: 300)
        static let longPath = "/" + Array(repeating: "abcdefgh", count: 120).joined(separator: "/")

        @Test(arguments: [
            ("/", [String](), false),
            ("/index.html", ["index.html"], false),
            ("/a/b/", ["a", "b"], true),
            ("/a//b", ["a", "b"], false),
            ("/a%20b/c%2Bd", ["a b", "c+d"], false),
            ("/%E2%9C%93.txt", ["✓.txt"], false),
            ("/a..b.txt", ["a..b.txt"], false),
            ("/..foo", ["..foo"], false),
            ("/%252e%252e", ["%2e%2e"], false),
            ("/x;y", ["x;y"], false),
            ("/;..", [";.."], false),
        ])
        func accepted(path: String, components: [String], trailingSlash: Bool) throws {
            let safe = try SafeRelativePath(percentEncodedPath: path)
            #expect(safe.components == components)
            #expect(safe.hasTrailingSlash == trailingSlash)
        }

        static let rejections: [(String, UnsafePathError)] = [
            ("relative", .notAbsolute),
            ("/..", .dotSegment),
            ("/.", .dotSegment),
            ("/a/../b", .dotSegment),
            ("/%2e%2e", .dotSegment),
            ("/.%2E", .dotSegment),
            ("/..;/x", .dotSegment),
            ("/.. /x", .dotSegment),
            ("/a%2fb", .encodedSeparator),
            ("/a%5cb", .backslash),
            ("/a\\b", .backslash),
            ("/a%00b", .controlCharacter),
            ("/a%1fb", .controlCharacter),
            ("/a%7fb", .controlCharacter),
            ("/a%c2%9fb", .controlCharacter),
            ("/%c0%ae%c0%ae", .invalidUTF8),
            ("/%ff", .invalidUTF8),
            ("/%zz", .invalidPercentEncoding),
            ("/abc%2", .invalidPercentEncoding),
            ("/C:", .driveLetter),
            ("/d:foo", .driveLetter),
            ("/" + String(repeating: "a", count: 256), .componentTooLong),
            ("/" + Array(repeating: "abcdefgh", count: 120).joined(separator: "/"), .tooLong),
            // Length is reported only for a path that is otherwise safe.
            (longName + "/../etc/passwd", .dotSegment),
            (longName + "/a%2fb", .encodedSeparator),
            (longPath + "/%2e%2e", .dotSegment),
        ]

        @Test(arguments: rejections)
        func rejected(path: String, error: UnsafePathError) {
            #expect(throws: error) { try SafeRelativePath(percentEncodedPath: path) }
            #expect(!error.description.contains(path))
        }

        @Test func classifiesHiddenAndExtensions() throws {
            #expect(try SafeRelativePath(percentEncodedPath: "/a/.git/x").isHidden)
            #expect(try !SafeRelativePath(percentEncodedPath: "/a/b.c").isHidden)
            #expect(try SafeRelativePath(percentEncodedPath: "/app/route").hasExtension == false)
            #expect(try SafeRelativePath(percentEncodedPath: "/app/x.js").hasExtension)
            #expect(try SafeRelativePath(percentEncodedPath: "/.bashrc").hasExtension == false)
        }
    }
}
