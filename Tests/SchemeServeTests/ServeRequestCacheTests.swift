// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeServe
    import Testing

    /// A request asked again, byte for byte, for a small file that has not changed, is answered
    /// from the event loop's request cache (one `lstat`, no registry); everything else about the
    /// request still decides its answer.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct ServeRequestCacheTests {
        /// Chromium's request for a script, with `Host` and the target filled in.
        static func browserRequest(
            _ target: String, host: String = "localhost", site: String = "same-origin", extra: String = ""
        ) -> Data {
            Data(
                """
                GET \(target) HTTP/1.1\r
                Host: \(host)\r
                User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36\r
                Accept: */*\r
                Accept-Encoding: gzip, deflate, br, zstd\r
                Accept-Language: en-US,en;q=0.9\r
                Sec-Fetch-Site: \(site)\r
                Sec-Fetch-Mode: no-cors\r
                Sec-Fetch-Dest: script\r
                \(extra)Connection: close\r
                \r

                """.utf8)
        }

        /// One event loop, so every connection shares one request cache.
        static func oneLoop(_ configuration: inout ServeConfiguration) {
            configuration.eventLoopCount = 1
        }

        @Test func aRepeatedBrowserRequestIsAnsweredWithoutTheRegistry() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let request = Self.browserRequest("/b.js")
                let first = try await RawHTTP.transmit(port: server.port, request)
                #expect(first.status == 200)
                #expect(first.header("Content-Encoding") == "gzip")
                // The file is read, then kept, then answered at once and remembered by request.
                for _ in 0..<3 { _ = try await RawHTTP.transmit(port: server.port, request) }
                let before = server.registry.metrics.started
                var answers: [RawHTTP.Response] = []
                for _ in 0..<5 { answers.append(try await RawHTTP.transmit(port: server.port, request)) }
                #expect(server.registry.metrics.started == before)
                for answer in answers {
                    #expect(answer.status == 200)
                    #expect(answer.body == first.body)
                    #expect(answer.header("ETag") == first.header("ETag"))
                    #expect(answer.header("Vary") == first.header("Vary"))
                    #expect(answer.header("X-Content-Type-Options") == "nosniff")
                }
            }
        }

        /// The same size, a new modification time: the cached answer is not served again.
        @Test func aFileChangedInPlaceIsServedFresh() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let request = Self.browserRequest("/c.json")
                for _ in 0..<4 { #expect(try await RawHTTP.transmit(port: server.port, request).text == "{\"a\":1}") }
                let url = server.root.appending(path: "c.json")
                try Data("{\"a\":2}".utf8).write(to: url)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: url.path(percentEncoded: false))
                #expect(try await RawHTTP.transmit(port: server.port, request).text == "{\"a\":2}")
            }
        }

        /// A file replaced by a symbolic link to a secret outside the root: neither the old bytes
        /// from the cache nor the secret.
        @Test func aFileReplacedByALinkOutIsNotServed() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let request = Self.browserRequest("/c.json")
                for _ in 0..<4 { _ = try await RawHTTP.transmit(port: server.port, request) }
                let url = server.root.appending(path: "c.json")
                try FileManager.default.removeItem(at: url)
                try FileManager.default.createSymbolicLink(
                    at: url, withDestinationURL: server.root.deletingLastPathComponent().appending(path: "secret.txt"))
                let answer = try await RawHTTP.transmit(port: server.port, request)
                #expect(answer.status == 403 || answer.status == 404)
                #expect(!answer.text.contains(Fixtures.secret))
                #expect(!answer.text.contains("{\"a\":1}"))
            }
        }

        /// Any field that differs takes the whole path: the Host check, conditional requests,
        /// content negotiation.
        @Test func aRequestThatDiffersInAnyFieldIsAnsweredForItself() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let request = Self.browserRequest("/b.js")
                var first: RawHTTP.Response?
                for _ in 0..<4 { first = try await RawHTTP.transmit(port: server.port, request) }
                let etag = try #require(first?.header("ETag"))

                let evil = try await RawHTTP.transmit(
                    port: server.port, Self.browserRequest("/b.js", host: "evil.example"))
                #expect(evil.status == 403)
                let twoHosts = try await RawHTTP.transmit(
                    port: server.port, Self.browserRequest("/b.js", extra: "Host: evil.example\r\n"))
                #expect(twoHosts.status == 400)
                for _ in 0..<3 {
                    let revalidated = try await RawHTTP.transmit(
                        port: server.port, Self.browserRequest("/b.js", extra: "If-None-Match: \(etag)\r\n"))
                    #expect(revalidated.status == 304)
                    #expect(revalidated.body.isEmpty)
                }
                let plain = try await RawHTTP.transmit(
                    port: server.port,
                    Data("GET /b.js HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nConnection: close\r\n\r\n".utf8))
                #expect(plain.status == 200)
                #expect(plain.header("Content-Encoding") == nil)
                #expect(plain.text.hasPrefix("console.log('x');"))
                let crossSite = try await RawHTTP.transmit(
                    port: server.port,
                    Self.browserRequest("/b.js", site: "cross-site"))
                #expect(crossSite.status == 403)
            }
        }

        /// An answer kept for seconds still says what time it is.
        @Test func theDateOfAKeptAnswerIsCurrent() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let request = Self.browserRequest("/a.css")
                var first: RawHTTP.Response?
                for _ in 0..<4 { first = try await RawHTTP.transmit(port: server.port, request) }
                let earlier = try #require(first?.header("Date"))
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                let earlierDate = try #require(formatter.date(from: earlier))
                // The kept answer is asked again once the wall clock is in a later second than the
                // one it named: what this test needs is a second that changed, and it waits for
                // exactly that.
                #expect(
                    await eventually {
                        Date.now.timeIntervalSince1970.rounded(.down) > earlierDate.timeIntervalSince1970
                    })
                let asked = Date.now
                let later = try #require(try await RawHTTP.transmit(port: server.port, request).header("Date"))
                let answered = Date.now
                #expect(later != earlier)
                // Whole seconds: the answer's second lies between the second asked and the one answered
                // (timed around the request itself: formatters are slow under ThreadSanitizer).
                let date = try #require(formatter.date(from: later))
                #expect(date.timeIntervalSince1970 >= asked.timeIntervalSince1970.rounded(.down))
                #expect(date.timeIntervalSince1970 <= answered.timeIntervalSince1970)
            }
        }
    }
#endif
