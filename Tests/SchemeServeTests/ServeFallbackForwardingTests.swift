// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// What `schemeserve --fallback` lets cross, run as a user runs it: the built binary in front of a
    /// real loopback origin (`Tests/Fixtures/origin.py`) that echoes the request fields it got and
    /// answers with `Set-Cookie` and `Access-Control-Allow-Origin: *`.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct ServeFallbackForwardingTests {
        /// What a browser on `localhost` may send: other local apps' cookies, credentials, and
        /// client identity a proxy in front would add.
        static let browserFields = [
            "Cookie": "other-app-session=secret",
            "Authorization": "Bearer page-token",
            "Proxy-Authorization": "Basic eDp5",
            "X-Forwarded-For": "203.0.113.7",
            "X-Forwarded-Host": "evil.example",
            "Forwarded": "for=203.0.113.7",
            "X-Real-IP": "203.0.113.7",
            "Origin": "http://app.example",
            "X-Plain": "kept",
        ]

        static let target =
            "/forwarding?echo=1&header=Set-Cookie:origin-session%3D1&header=Access-Control-Allow-Origin:*"
            + "&header=Access-Control-Allow-Credentials:true&header=X-Origin:answered"

        struct Exchange {
            /// Lowercased names and values of the fields the origin received.
            var sent: [String: String]
            /// The response the page got.
            var response: RawHTTP.Response
        }

        /// Starts an origin and `schemeserve <sample app> --fallback <origin> <arguments>`, sends one
        /// browser-like request for a path no file matches.
        func exchange(_ arguments: [String] = []) throws -> Exchange {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:\(origin.port)"] + arguments)
            defer { server.stop() }
            let response = try RawHTTP.request(port: server.port, Self.target, headers: Self.browserFields)
            #expect(response.status == 200, "\(response.text)")
            struct Echo: Decodable { var headers: [[String]] }
            let echo = try JSONDecoder().decode(Echo.self, from: response.body)
            var sent: [String: String] = [:]
            for pair in echo.headers { sent[pair[0].lowercased()] = pair[1] }
            return Exchange(sent: sent, response: response)
        }

        @Test func byDefaultNoCredentialsReachTheOriginAndNoCookieOrCORSReachesThePage() throws {
            let exchange = try exchange()
            for name in [
                "cookie", "authorization", "proxy-authorization", "x-forwarded-for", "x-forwarded-host", "forwarded",
                "x-real-ip",
            ] {
                #expect(exchange.sent[name] == nil, "\(name) reached the origin")
            }
            #expect(exchange.sent["x-plain"] == "kept")
            // One request, as the browser sent it: AsyncHTTPClient adds no `Range` window (URLSession
            // on Linux would).
            #expect(exchange.sent["range"] == nil)
            #expect(exchange.response.header("Set-Cookie") == nil)
            #expect(exchange.response.header("Access-Control-Allow-Origin") == nil)
            #expect(exchange.response.header("Access-Control-Allow-Credentials") == nil)
            #expect(exchange.response.header("X-Origin") == "answered")
            // The origin dates its answer too; the page gets one `Date` (RFC 9110 §6.6.1), the
            // server's, as nginx's proxy gives.
            let dates = exchange.response.headers.filter { $0.0.lowercased() == "date" }
            #expect(dates.count == 1, "\(dates)")
        }

        @Test func aForwardedHeaderReachesTheOriginAndPassSetCookiePassesTheCookie() throws {
            let exchange = try exchange([
                "--forward-header", "Authorization", "--forward-header", "x-forwarded-for", "--pass-set-cookie",
            ])
            #expect(exchange.sent["authorization"] == "Bearer page-token")
            #expect(exchange.sent["x-forwarded-for"] == "203.0.113.7")
            for name in ["cookie", "proxy-authorization", "x-forwarded-host", "forwarded", "x-real-ip"] {
                #expect(exchange.sent[name] == nil, "\(name) reached the origin")
            }
            #expect(exchange.response.header("Set-Cookie") == "origin-session=1")
            #expect(exchange.response.header("Access-Control-Allow-Origin") == nil)
        }

        /// With `--cors` the CORS fields are the server's own: the origin's `*` never reaches the page.
        @Test func corsFieldsAreTheServersOwn() throws {
            let allowed = try exchange(["--cors", "http://app.example"])
            #expect(allowed.response.header("Access-Control-Allow-Origin") == "http://app.example")
            #expect(allowed.response.header("Access-Control-Allow-Credentials") == nil)
            let other = try exchange(["--cors", "http://other.example"])
            #expect(other.response.header("Access-Control-Allow-Origin") == nil)
        }

        /// A page's POST (a form, a `fetch()` with JSON) goes to the origin with its body, whole,
        /// whether it came with a `Content-Length` or chunked; content over 16 MiB is answered 413,
        /// at once when the client waits for `100 Continue`, and never reaches the origin. A
        /// recording keeps the body, and its replay answers the same POST, not another.
        @Test func aPostReachesTheOriginWithItsBodyAndTooLargeContentIs413() throws {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let output = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: output) }
            let harFile = output.appending(path: "posts.har").path(percentEncoded: false)
            let server = try ServeProcess([
                ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:\(origin.port)", "--record-har", harFile,
            ])
            defer { server.stop() }
            struct Echo: Decodable {
                var method: String
                var body: String
            }
            let json = #"{"name":"café","n":1}"#
            let sized =
                "POST /api/items?echo=1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n" + json
            let posted = try RawHTTP.exchange(port: server.port, Data(sized.utf8))
            #expect(posted.status == 200)
            let echo = try JSONDecoder().decode(Echo.self, from: posted.body)
            #expect(echo.method == "POST")
            #expect(echo.body == json)

            let chunked =
                "POST /api/chunked?echo=1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            let streamed = try RawHTTP.exchange(port: server.port, Data(chunked.utf8))
            #expect(try JSONDecoder().decode(Echo.self, from: streamed.body).body == "hello world")

            let size = 16 << 20 + 1
            var large = Data(
                "POST /large?echo=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(size)\r\n\r\n".utf8)
            large.append(Data(count: size))
            #expect(try RawHTTP.exchange(port: server.port, large).status == 413)
            let waiting =
                "POST /large?echo=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(size)\r\n"
                + "Expect: 100-continue\r\n\r\n"
            #expect(try RawHTTP.exchange(port: server.port, Data(waiting.utf8)).status == 413)
            struct Stats: Decodable { var requests: Int }
            let stats = try RawHTTP.request(port: origin.port, "/__stats?path=/large", host: "127.0.0.1")
            #expect(try JSONDecoder().decode(Stats.self, from: stats.body).requests == 0)

            #expect(server.stop() == 0)
            origin.stop()
            let replay = try ServeProcess([ServeProcessTests.sampleApp, "--har", harFile])
            defer { replay.stop() }
            let replayed = try RawHTTP.exchange(port: replay.port, Data(sized.utf8))
            #expect(try JSONDecoder().decode(Echo.self, from: replayed.body).body == json)
            let other = sized.replacingOccurrences(of: "\"n\":1", with: "\"n\":2")
            #expect(try RawHTTP.exchange(port: replay.port, Data(other.utf8)).status == 404, "another body")
        }

        /// The origin redirects to itself (`Location: http://<origin>/signed-in?x=1`, built from the
        /// `Host` it got): the browser is sent to the same path on schemeserve, not to the origin,
        /// as nginx's `proxy_redirect default` does. A redirect elsewhere is left alone, and a
        /// path that would read as another host (`//evil.example`) stays a path.
        @Test func aRedirectToTheOriginItselfStaysOnTheServer() throws {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:\(origin.port)"])
            defer { server.stop() }
            for (location, expected) in [
                ("http://127.0.0.1:\(origin.port)/signed-in?x=1#top", "/signed-in?x=1#top"),
                ("http://127.0.0.1:\(origin.port)//evil.example/x", "/evil.example/x"),
                ("https://sign-in.example/login", "https://sign-in.example/login"),
                ("/relative", "/relative"),
            ] {
                let encoded = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try RawHTTP.request(
                    port: server.port, "/redirect?status=302&header=Location:\(encoded)", headers: [:])
                #expect(response.status == 302, "\(location)")
                #expect(response.header("Location") == expected, "\(location)")
            }
        }

        @Test(arguments: [
            (
                "Connection",
                "invalid --forward-header 'Connection': a hop-by-hop field describes one connection and is never forwarded"
            ),
            (
                "Proxy-Authorization",
                "invalid --forward-header 'Proxy-Authorization': a hop-by-hop field describes one connection and is never forwarded"
            ),
            ("Host", "invalid --forward-header 'Host': the HTTP client sets Host itself"),
            ("bad name", "invalid --forward-header 'bad name': give a header field name such as Authorization"),
        ])
        func aFieldThatCannotBeForwardedIsRefusedAtStartUp(name: String, message: String) throws {
            try CommandLineMessageTests.expectOneLine(
                [ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:1", "--forward-header", name], message)
        }

        @Test func forwardingOptionsNeedAFallback() throws {
            try CommandLineMessageTests.expectOneLine(
                [ServeProcessTests.sampleApp, "--forward-header", "Authorization"],
                "--forward-header needs --fallback <origin>")
            try CommandLineMessageTests.expectOneLine(
                [ServeProcessTests.sampleApp, "--pass-set-cookie"], "--pass-set-cookie needs --fallback <origin>")
        }

        /// Streams from the origin reach the page as they come: an event stream, and anything the
        /// origin marks `no-transform`, go out as the origin sent them, not gzipped (a compressor
        /// held an `EventSource`'s events back until the stream ended). Compressible text still is.
        @Test func eventStreamsAndNoTransformAreNotGzipped() throws {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:\(origin.port)"])
            defer { server.stop() }
            let gzip = ["Accept-Encoding": "gzip, deflate, br"]
            for (target, gzipped) in [
                ("/events?chunks=3&chunk=40&type=text/event-stream", false),
                ("/plain?size=2000&type=text/plain&header=Cache-Control:no-cache,%20no-transform", false),
                ("/plain?size=2000&type=text/plain", true),
            ] {
                let response = try RawHTTP.request(port: server.port, target, headers: gzip)
                #expect(response.status == 200, "\(target)")
                #expect((response.header("Content-Encoding") == "gzip") == gzipped, "\(target)")
            }
        }

        /// Requests held open at the origin (event streams, long polls in several tabs) do not make
        /// the next ones wait: 10 slow requests at once are answered together, not 6 then 4.
        @Test func slowRequestsAtTheOriginDoNotQueueBehindEachOther() async throws {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--fallback", "http://127.0.0.1:\(origin.port)"])
            defer { server.stop() }
            let port = server.port
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<10 {
                    group.addTask { try await RawHTTP.fetch(port: port, "/slow-\(index)?delay=3000&size=10").status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 10))
            #expect(ContinuousClock.now - started < .seconds(5.5), "one wave of 3 s, not two")
        }

        /// `--spa` with `--fallback`: the origin answers every path it has, navigations included (a
        /// server-rendered page, a download); a navigation it answers 404 gets the app's index
        /// file, and a 404 for anything else stays a 404. Before, every navigation no file matched
        /// got the index file and never reached the origin.
        @Test func withSPAAndFallbackTheOriginAnswersFirst() throws {
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--spa", "--fallback", "http://127.0.0.1:\(origin.port)"])
            defer { server.stop() }
            let navigate = ["Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Accept": "text/html"]
            let page = try RawHTTP.request(
                port: server.port, "/account?body=%3Ch1%3Eorigin%3C%2Fh1%3E&type=text/html", headers: navigate)
            #expect(page.status == 200)
            #expect(page.text == "<h1>origin</h1>")
            let route = try RawHTTP.request(port: server.port, "/users/42?status=404&body=nope", headers: navigate)
            #expect(route.status == 200)
            #expect(route.text.contains("SchemeKit sample"), "the app's index.html")
            let asset = try RawHTTP.request(
                port: server.port, "/missing.js?status=404&body=nope",
                headers: ["Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"])
            #expect(asset.status == 404)
            #expect(asset.text == "nope")
        }
    }
#endif
