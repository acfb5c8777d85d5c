import Foundation
import SchemeKit
import Testing

struct NetworkWriteThroughTests {
    static let store = NetworkWriteThrough(directory: URL(fileURLWithPath: "/tmp/wt-root"))

    @Test(arguments: [
        ("https://example.com/a/b.js", "/tmp/wt-root/example.com/a/b.js"),
        ("https://example.com/", "/tmp/wt-root/example.com/index.html"),
        ("https://example.com/dir/", "/tmp/wt-root/example.com/dir/index.html"),
        ("http://127.0.0.1:8080/x%20y.css", "/tmp/wt-root/127.0.0.1_8080/x y.css"),
    ])
    func mapsURLsUnderTheDirectory(url: String, path: String) {
        #expect(Self.store.fileURL(for: URL(string: url)!)?.path == path)
    }

    @Test(arguments: [
        "https://example.com/../etc/passwd", "https://example.com/a/%2e%2e/%2e%2e/x", "https://example.com/%2e%2e%2fx",
        "https://example.com/a%2fb", "https://example.com/a%5cb", "https://example.com/a%00b",
        "https://example.com/a//b",
        "https://example.com/.partial/x", "https://example.com/./x", "https://example.com/%ff",
        "https://example.com/..",
        "https://example.com/a\\b",
    ])
    func rejectsTraversal(url: String) {
        guard let parsed = URL(string: url) else { return }
        #expect(Self.store.fileURL(for: parsed) == nil)
    }

    @Test(arguments: [
        ([:] as [String: String], "/a.js", true),
        (["Cache-Control": "no-store"], "/a.js", false),
        (["Cache-Control": "max-age=60, private"], "/a.js", false),
        (["Set-Cookie": "id=1"], "/a.js", false),
        (["Content-Type": "image/png"], "/a", false),
        ([:], "/a.webp", false),
        ([:], "/a.js?v=2", false),
    ])
    func decidesWhatIsStorable(fields: [String: String], path: String, storable: Bool) {
        var headerFields = HTTPFields()
        for (name, value) in fields { headerFields[HTTPField.Name(name)!] = value }
        let response = SchemeResponse(status: .ok, headerFields: headerFields)
        let url = URL(string: "https://example.com\(path)")!
        #expect(NetworkWriteThrough.isStorable(method: .get, url: url, response: response) == storable)
    }

    @Test func onlyGet200IsStorable() {
        let url = URL(string: "https://example.com/a.js")!
        #expect(!NetworkWriteThrough.isStorable(method: .head, url: url, response: SchemeResponse(status: .ok)))
        #expect(!NetworkWriteThrough.isStorable(method: .get, url: url, response: SchemeResponse(status: .notFound)))
    }
}
