// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeServe
    import Testing

    /// End-to-end over real HTTP on 127.0.0.1 against an in-process server (raw TCP client).
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct ServeHTTPTests {
        @Test(arguments: [
            ("/", "text/html"), ("/index.html", "text/html"), ("/a.css", "text/css"), ("/b.js", "text/javascript"),
            ("/c.json", "application/json"), ("/d.png", "image/png"), ("/letters.txt", "text/plain"),
        ])
        func mimeTypes(path: String, type: String) async throws {
            try await TestServer.with { server in
                let response = try await RawHTTP.fetch(port: server.port, path)
                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix(type) == true)
                #expect(response.header("Cross-Origin-Resource-Policy") == "same-origin")
                #expect(response.header("X-Content-Type-Options") == "nosniff")
            }
        }

        @Test func ranges() async throws {
            try await TestServer.with { server in
                let single = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["Range": "bytes=2-5"])
                #expect(single.status == 206)
                #expect(single.text == "cdef")
                #expect(single.header("Content-Range") == "bytes 2-5/1000")

                let suffix = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["Range": "bytes=-3"])
                #expect(suffix.status == 206)
                #expect(suffix.body.count == 3)

                let multi = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=0-1,10-11"])
                #expect(multi.status == 206)
                #expect(multi.header("Content-Type")?.hasPrefix("multipart/byteranges; boundary=") == true)
                #expect(multi.text.contains("Content-Range: bytes 0-1/1000"))
                #expect(multi.text.contains("Content-Range: bytes 10-11/1000"))
                #expect(Int(multi.header("Content-Length") ?? "") == multi.body.count)

                let unsatisfiable = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=5000-6000"])
                #expect(unsatisfiable.status == 416)
                #expect(unsatisfiable.header("Content-Range") == "bytes */1000")

                for malformed in ["bytes=abc", "bytes=5-2", "items=0-1", "bytes=--1"] {
                    let response = try await RawHTTP.fetch(
                        port: server.port, "/letters.txt", headers: ["Range": malformed])
                    #expect(response.status == 200, "\(malformed)")
                    #expect(response.body.count == 1000, "\(malformed)")
                }
            }
        }

        @Test func rangeAmplificationIsCapped() async throws {
            try await TestServer.with { server in
                let many = (0..<40).map { _ in "0-999" }.joined(separator: ",")
                let response = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=\(many)"])
                #expect(response.status == 200)
                #expect(response.body.count == 1000)
                let overlapping = (0..<10).map { "\($0)-999" }.joined(separator: ",")
                let second = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=\(overlapping)"])
                #expect(second.status == 200)
                #expect(second.body.count == 1000)
            }
        }

        @Test func conditionalAndHead() async throws {
            try await TestServer.with { server in
                let first = try await RawHTTP.fetch(port: server.port, "/letters.txt")
                let etag = try #require(first.header("ETag"))
                let lastModified = try #require(first.header("Last-Modified"))
                let byTag = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["If-None-Match": etag])
                #expect(byTag.status == 304)
                #expect(byTag.body.isEmpty)
                let byDate = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-Modified-Since": lastModified])
                #expect(byDate.status == 304)
                let changed = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-None-Match": "\"other\""])
                #expect(changed.status == 200)

                let head = try await RawHTTP.fetch(port: server.port, "/letters.txt", method: "HEAD")
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "1000")
                #expect(head.body.isEmpty)
            }
        }

        @Test func gzipNegotiation() async throws {
            try await TestServer.with { server in
                let plain = try await RawHTTP.fetch(port: server.port, "/a.css")
                #expect(plain.header("Content-Encoding") == nil)
                #expect(plain.header("Vary")?.contains("Accept-Encoding") == true)

                let gzipped = try await RawHTTP.fetch(
                    port: server.port, "/a.css", headers: ["Accept-Encoding": "gzip, br"])
                #expect(gzipped.header("Content-Encoding") == "gzip")
                #expect(gzipped.header("Vary")?.contains("Accept-Encoding") == true)
                #expect(String(decoding: try Gunzip.withGzipTool(gzipped.body), as: UTF8.self) == plain.text)

                let refused = try await RawHTTP.fetch(
                    port: server.port, "/a.css", headers: ["Accept-Encoding": "gzip;q=0"])
                #expect(refused.header("Content-Encoding") == nil)
                let ranged = try await RawHTTP.fetch(
                    port: server.port, "/a.css", headers: ["Accept-Encoding": "gzip", "Range": "bytes=0-3"])
                #expect(ranged.status == 206)
                #expect(ranged.header("Content-Encoding") == nil)
                let image = try await RawHTTP.fetch(port: server.port, "/d.png", headers: ["Accept-Encoding": "gzip"])
                #expect(image.header("Content-Encoding") == nil)
            }
        }

        /// What a browser gets for a file too large for the body cache, gzipped by the server as it
        /// streams: `Vary` names `Accept-Encoding` once (with `--cors`, `Origin` too), the 304 to
        /// its revalidation carries the weak tag the 200 had (RFC 9110 §15.4.5) and a client without
        /// gzip the file's strong tag, and a failed
        /// precondition is a plain 412 that says no coding, as are 412s of small files, repeated.
        @Test func aGzippedFilesVaryRevalidationAndFailedPreconditionsAgree() async throws {
            let origin = "http://127.0.0.1:5173"
            try await TestServer.with(
                configure: { $0.corsOrigins = [origin] },
                site: { root in
                    try Fixtures.standardSite(root)
                    let line = "const value = 'SchemeKit streams this file through gzip';\n"
                    try Data(String(repeating: line, count: 3_000).utf8).write(to: root.appending(path: "large.js"))
                }
            ) { server in
                let browser = ["Accept-Encoding": "gzip, deflate, br, zstd", "Origin": origin]
                let large = try await RawHTTP.fetch(port: server.port, "/large.js", headers: browser)
                #expect(large.status == 200)
                #expect(large.header("Content-Encoding") == "gzip")
                #expect(large.header("Vary") == "Accept-Encoding, Origin")
                let tag = try #require(large.header("ETag"))
                #expect(tag.hasPrefix("W/\""))
                let revalidated = try await RawHTTP.fetch(
                    port: server.port, "/large.js", headers: browser.merging(["If-None-Match": tag]) { $1 })
                #expect(revalidated.status == 304)
                #expect(revalidated.header("ETag") == tag)
                #expect(revalidated.header("Vary") == "Accept-Encoding, Origin")
                // A client without gzip gets the file itself under its strong tag, and so does its
                // 304, whatever form its If-None-Match uses; the kept variant of a small file too.
                let plainTag = try #require(try await RawHTTP.fetch(port: server.port, "/large.js").header("ETag"))
                #expect(tag == "W/" + plainTag)
                let small = try await RawHTTP.fetch(port: server.port, "/a.css", headers: browser)
                let smallTag = try #require(small.header("ETag"))
                for (path, weak) in [("/large.js", tag), ("/a.css", smallTag), ("/a.css", smallTag)] {
                    #expect(weak.hasPrefix("W/\""), "\(path)")
                    let plain = try await RawHTTP.fetch(port: server.port, path, headers: ["If-None-Match": weak])
                    #expect(plain.status == 304, "\(path)")
                    #expect(plain.header("ETag") == String(weak.dropFirst(2)), "\(path)")
                    let again = try await RawHTTP.fetch(
                        port: server.port, path, headers: browser.merging(["If-None-Match": weak]) { $1 })
                    #expect(again.status == 304, "\(path)")
                    #expect(again.header("ETag") == weak, "\(path)")
                }
                for path in ["/large.js", "/a.css", "/a.css", "/a.css"] {
                    let refused = try await RawHTTP.fetch(
                        port: server.port, path, headers: browser.merging(["If-Match": "\"nope\""]) { $1 })
                    #expect(refused.status == 412, "\(path)")
                    #expect(refused.header("Content-Encoding") == nil, "\(path)")
                    #expect(refused.text == "Precondition Failed\n", "\(path)")
                }
            }
        }

        @Test func precompressedSibling() async throws {
            try await TestServer.with(site: { root in
                try Fixtures.standardSite(root)
                try Data("not really gzip".utf8).write(to: root.appending(path: "b.js.gz"))
            }) { server in
                let response = try await RawHTTP.fetch(port: server.port, "/b.js", headers: ["Accept-Encoding": "gzip"])
                #expect(response.header("Content-Encoding") == "gzip")
                #expect(response.header("Content-Type")?.hasPrefix("text/javascript") == true)
                #expect(response.text == "not really gzip")
                let plain = try await RawHTTP.fetch(port: server.port, "/b.js")
                #expect(plain.text.hasPrefix("console.log"))
            }
        }

        @Test(arguments: [
            ("localhost", 200), ("localhost:8080", 200), ("127.0.0.1", 200), ("127.0.0.1:1234", 200), ("[::1]", 200),
            ("[::1]:80", 200), ("app.localhost", 200), ("LOCALHOST", 200), ("dev.example.test", 200),
            ("evil.com", 403), ("localhost.evil.com", 403), ("127.0.0.2", 403), ("example.test", 403), ("", 400),
            ("notlocalhost", 403),
        ])
        func hostCheck(host: String, status: Int) async throws {
            try await TestServer.with(configure: { $0.allowedHosts = ["dev.example.test"] }) { server in
                let response = try await RawHTTP.fetch(port: server.port, "/index.html", host: host)
                #expect(response.status == status)
            }
        }

        /// An HTTP/1.1 request without `Host` is malformed (RFC 9112 §3.2: 400), as are the attack
        /// cases a black-box run found: two `Host` fields, a host with more than a port after it,
        /// an absolute-form target naming another host than `Host`.
        @Test func aMissingOrMalformedHostIs400() async throws {
            try await TestServer.with { server in
                let port = server.port
                let requests = [
                    "GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.0\r\nHost: \r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: [::1].evil.example\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: localhost:\(port)@evil\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: localhost:\(port)/evil\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: localhost:\(port), evil\r\nConnection: close\r\n\r\n",
                    "GET http://evil.example/index.html HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n",
                ]
                for request in requests {
                    let response = try await RawHTTP.transmit(port: port, Data(request.utf8))
                    #expect(response.status == 400, "\(request.debugDescription)")
                    #expect(!response.text.contains("SchemeKit sample"), "no page served")
                }
                let absolute = try await RawHTTP.transmit(
                    port: port,
                    Data(
                        "GET http://localhost:\(port)/index.html HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n"
                            .utf8))
                #expect(absolute.status == 200, "an absolute-form target naming the same host")
            }
        }

        /// RFC 9112 §3.2 requires `Host` of HTTP/1.1 requests only: an HTTP/1.0 client that sends
        /// none (a minimal script, an old health check) gets the page, as from nginx.
        @Test func anHTTP10RequestWithoutHostIsServed() async throws {
            try await TestServer.with { server in
                for target in ["/index.html", "/"] {
                    let response = try await RawHTTP.transmit(
                        port: server.port, Data("GET \(target) HTTP/1.0\r\n\r\n".utf8))
                    #expect(response.status == 200, "\(target)")
                    #expect(response.text.contains("<h1>hi</h1>"), "\(target)")
                }
                let head = try await RawHTTP.transmit(port: server.port, Data("HEAD /b.js HTTP/1.0\r\n\r\n".utf8))
                #expect(head.status == 200)
                #expect(head.header("Content-Type")?.hasPrefix("text/javascript") == true)
            }
        }

        @Test(arguments: ["/.env", "/.git/config", "/.GIT/config", "/.env/.", "/%2eenv", "/sub/../.env", "/.git/"])
        func dotfilesAreHidden(path: String) async throws {
            try await TestServer.with { server in
                let response = try await RawHTTP.fetch(port: server.port, path)
                #expect([404, 403].contains(response.status))
                #expect(!response.text.contains("SECRET"))
                #expect(!response.text.contains("[core]"))
            }
        }

        @Test func dotfilesFlagServesThem() async throws {
            try await TestServer.with(configure: { $0.dotfiles = true }) { server in
                let checked = try await RawHTTP.fetch(port: server.port, "/.env")
                #expect(checked.text == "SECRET=1")
            }
        }

        @Test func crossSiteNoCorsLoadIsRefused() async throws {
            try await TestServer.with { server in
                let refused = try await RawHTTP.fetch(
                    port: server.port, "/b.js", headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"])
                #expect(refused.status == 403)
                let sameOrigin = try await RawHTTP.fetch(
                    port: server.port, "/b.js", headers: ["Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors"])
                #expect(sameOrigin.status == 200)
                let navigation = try await RawHTTP.fetch(
                    port: server.port, "/", headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"])
                #expect(navigation.status == 200)
            }
        }

        @Test func corsOnlyForConfiguredOrigin() async throws {
            try await TestServer.with { server in
                let none = try await RawHTTP.fetch(
                    port: server.port, "/c.json", headers: ["Origin": "https://app.example"])
                #expect(none.header("Access-Control-Allow-Origin") == nil)
            }
            try await TestServer.with(configure: { $0.corsOrigins = ["https://app.example"] }) { server in
                let allowed = try await RawHTTP.fetch(
                    port: server.port, "/c.json", headers: ["Origin": "https://app.example"])
                #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example")
                #expect(allowed.header("Access-Control-Allow-Credentials") == nil)
                #expect(allowed.header("Access-Control-Expose-Headers") == "Accept-Ranges, Content-Range, ETag")
                let other = try await RawHTTP.fetch(
                    port: server.port, "/c.json", headers: ["Origin": "https://evil.example"])
                #expect(other.header("Access-Control-Allow-Origin") == nil)
                #expect(other.header("Access-Control-Expose-Headers") == nil)
            }
        }

        /// A `fetch()` with a header that is not CORS-safelisted makes the browser ask first with an
        /// `OPTIONS` preflight (WHATWG Fetch); without an ok answer allowing the method and headers,
        /// the request is never sent. Only a `--cors` origin gets one.
        @Test func aCORSPreflightIsAnsweredForTheConfiguredOriginOnly() async throws {
            let preflight = [
                "Origin": "https://app.example", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "x-requested-with,range",
            ]
            try await TestServer.with(configure: { $0.corsOrigins = ["https://app.example"] }) { server in
                let allowed = try await RawHTTP.fetch(
                    port: server.port, "/c.json", method: "OPTIONS", headers: preflight)
                #expect(allowed.status == 204)
                #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example")
                #expect(allowed.header("Access-Control-Allow-Methods") == "GET, HEAD")
                #expect(allowed.header("Access-Control-Allow-Headers") == "x-requested-with,range")
                #expect(allowed.header("Access-Control-Max-Age") == "600")
                #expect(allowed.header("Access-Control-Allow-Private-Network") == nil)
                #expect(allowed.header("Content-Length") == nil, "RFC 9110 §8.6: none on a 204")
                #expect(allowed.body.isEmpty)

                var privateNetwork = preflight
                privateNetwork["Access-Control-Request-Private-Network"] = "true"
                let fromPublic = try await RawHTTP.fetch(
                    port: server.port, "/c.json", method: "OPTIONS", headers: privateNetwork)
                #expect(fromPublic.header("Access-Control-Allow-Private-Network") == "true")

                var stranger = preflight
                stranger["Origin"] = "https://evil.example"
                let refused = try await RawHTTP.fetch(
                    port: server.port, "/c.json", method: "OPTIONS", headers: stranger)
                #expect(refused.status == 405)
                #expect(refused.header("Access-Control-Allow-Origin") == nil)

                var notPreflight = preflight
                notPreflight["Access-Control-Request-Method"] = nil
                let plain = try await RawHTTP.fetch(
                    port: server.port, "/c.json", method: "OPTIONS", headers: notPreflight)
                #expect(plain.status == 405)
            }
            try await TestServer.with { server in
                let withoutCORS = try await RawHTTP.fetch(
                    port: server.port, "/c.json", method: "OPTIONS", headers: preflight)
                #expect(withoutCORS.status == 405)
                #expect(withoutCORS.header("Access-Control-Allow-Origin") == nil)
            }
        }

        @Test func listingOnlyWithFlagAndEscaped() async throws {
            try await TestServer.with { server in
                let checked = try await RawHTTP.fetch(port: server.port, "/list/")
                #expect(checked.status == 404)
            }
            try await TestServer.with(configure: { $0.listDirectories = true }) { server in
                let listing = try await RawHTTP.fetch(port: server.port, "/list/")
                #expect(listing.status == 200)
                #expect(listing.text.contains("&lt;b&gt;&amp;.txt"))
                #expect(!listing.text.contains("<b>&"))
            }
        }

        @Test(arguments: ["/a#b", "/#", "/index.html#x", "/a\u{0}b", "/%00", "/a%00.txt"])
        func fragmentsAndNulAreBadRequests(target: String) async throws {
            try await TestServer.with { server in
                let response = try await RawHTTP.transmit(
                    port: server.port,
                    Data("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                #expect(response.status == 400)
            }
        }

        /// An HTTP major version the server does not speak in an HTTP/1 request line gets 505
        /// (RFC 9110 §15.6.6), as nginx answers; a request line that is not HTTP at all is still
        /// 400, and the connection closes after either.
        @Test(arguments: [
            ("GET /index.html HTTP/2.0\r\nHost: localhost\r\n\r\n", 505),
            ("GET /index.html HTTP/3.0\r\nHost: localhost\r\n\r\n", 505),
            ("GET /index.html HTTP/9.9\r\nHost: localhost\r\n\r\n", 505),
            ("GET /index.html FTP/1.1\r\nHost: localhost\r\n\r\n", 400),
            ("GET /index.html HTTP/1.1 extra\r\nHost: localhost\r\n\r\n", 400),
            ("GET /index.html HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n", 400),
        ])
        func anUnsupportedHTTPVersionIs505(request: String, status: Int) async throws {
            try await TestServer.with { server in
                let response = try await RawHTTP.transmit(port: server.port, Data(request.utf8))
                #expect(response.status == status, "\(request.debugDescription)")
                #expect(response.header("Connection")?.lowercased() == "close")
                #expect(!response.text.contains("SchemeKit sample"), "no page served")
                // The server keeps serving other connections.
                let page = try await RawHTTP.fetch(port: server.port, "/index.html")
                #expect(page.status == 200)
            }
        }

        @Test func errorBodiesRevealNoPaths() async throws {
            try await TestServer.with { server in
                let statuses = [
                    "/missing.txt": 404, "/../../etc/passwd": 403, "/%2e%2e/secret.txt": 403, "/escape": 403,
                ]
                for (target, status) in statuses {
                    let response = try await RawHTTP.fetch(port: server.port, target)
                    #expect(response.status == status, "\(target)")
                    #expect(!response.text.contains(server.root.path(percentEncoded: false)))
                    #expect(!response.text.contains("/tmp"))
                }
            }
        }

        @Test func spaFallback() async throws {
            try await TestServer.with(configure: { $0.spa = true }) { server in
                let route = try await RawHTTP.fetch(port: server.port, "/users/42")
                #expect(route.status == 200)
                #expect(route.text.contains("<h1>hi</h1>"))
                let checked = try await RawHTTP.fetch(port: server.port, "/missing.js")
                #expect(checked.status == 404)
            }
        }

        /// A file larger than what one turn of the loop sends goes out in pieces, a turn each:
        /// every byte in order, ranges across piece boundaries, and a request pipelined behind it
        /// answered after its last byte.
        @Test func aLargeFileGoesOutInTurnsWholeAndInOrder() async throws {
            var random = SystemRandomNumberGenerator()
            let size = 3 * (1 << 20) + 12_345
            let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
            try await TestServer.with(site: { root in
                try Fixtures.standardSite(root)
                try bytes.write(to: root.appending(path: "large.bin"))
            }) { server in
                let whole = try await RawHTTP.fetch(port: server.port, "/large.bin")
                #expect(whole.status == 200)
                #expect(whole.header("Content-Length") == "\(size)")
                #expect(whole.body == bytes)

                let across = (1 << 20) - 7...(2 << 20) + 9
                let ranged = try await RawHTTP.fetch(
                    port: server.port, "/large.bin",
                    headers: ["Range": "bytes=\(across.lowerBound)-\(across.upperBound)"])
                #expect(ranged.status == 206)
                #expect(ranged.body == bytes[across])

                let head = try await RawHTTP.fetch(port: server.port, "/large.bin", method: "HEAD")
                #expect(head.header("Content-Length") == "\(size)")
                #expect(head.body.isEmpty)

                let pipelined =
                    "GET /large.bin HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /c.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                let both = try await RawHTTP.transmit(port: server.port, Data(pipelined.utf8))
                #expect(both.status == 200)
                let firstBody = both.raw.firstRange(of: Data("\r\n\r\n".utf8))!.upperBound
                #expect(
                    both.raw[firstBody..<(firstBody + size)] == bytes, "the first body, whole, before the second answer"
                )
                let second = try RawHTTP.parse(Data(both.raw[(firstBody + size)...]))
                #expect(second.status == 200)
                #expect(second.text == "{\"a\":1}")
            }
        }

        #if os(Linux)
            /// `Expect: 100-continue` (curl sends it with `-T` and with large bodies): the client
            /// waits for a `100 Continue` before sending its content (RFC 9110 §10.1.1). It hears
            /// one at once, then the final answer, and the connection stays usable.
            @Test func aRequestExpectingContinueHearsItAtOnceAndTheConnectionStaysUsable() async throws {
                try await TestServer.with { server in
                    let connection = try RepeatedRequestTests.Connection(port: server.port)
                    for method in ["PUT", "GET"] {
                        try connection.send(
                            "\(method) /c.json HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
                                + "Expect: 100-continue\r\n\r\n")
                        let interim = try connection.response(head: true)
                        #expect(interim.status == 100, "\(method)")
                        try connection.send("hello")
                        let final = try connection.response()
                        #expect(final.status == (method == "PUT" ? 405 : 200), "\(method)")
                    }
                    try connection.send("GET /c.json HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    let next = try connection.response()
                    #expect(next.status == 200)
                    #expect(next.text == "{\"a\":1}")
                }
            }

            /// Each server's loops get a pipe for taking turns (`LoopYield`); the loops can be the
            /// shared group's, which outlive the server, so the pipes must close with it.
            @Test func aStoppedServerLeavesNoPipesOpen() async throws {
                func pipes() -> Int {
                    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                    return entries.count {
                        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?
                            .hasPrefix("pipe:") == true
                    }
                }
                // One run first: anything made once per process is made by then.
                try await TestServer.with { server in _ = try await RawHTTP.fetch(port: server.port, "/c.json") }
                let before = pipes()
                for _ in 0..<20 {
                    try await TestServer.with { server in
                        _ = try await RawHTTP.fetch(port: server.port, "/c.json")
                    }
                }
                // Two descriptors per server and loop if they leaked: 40 or more. Other suites'
                // processes may hold a few meanwhile.
                #expect(pipes() - before < 20, "\(pipes() - before) more pipes after 20 servers")
            }
        #endif

        @Test func keepAliveAndPipelining() async throws {
            try await TestServer.with { server in
                let request = "GET /c.json HTTP/1.1\r\nHost: localhost\r\n\r\n"
                let last = "GET /c.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                let response = try await RawHTTP.transmit(port: server.port, Data((request + request + last).utf8))
                let text = String(decoding: response.raw, as: UTF8.self)
                #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
            }
        }
    }
#endif
