// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeServe
    import Testing

    /// Conditional requests and ranges answered right when the small file is already in the body
    /// cache (after a few GETs), through a real schemeserve.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct ServeCacheTests {
        /// Warms the cache for `path` and returns the validators of the last GET.
        static func warm(_ server: TestServer, _ path: String) async throws -> (etag: String, lastModified: String) {
            var last: RawHTTP.Response?
            for _ in 0..<3 {
                let response = try await RawHTTP.fetch(port: server.port, path)
                #expect(response.status == 200)
                last = response
            }
            let response = try #require(last)
            return (try #require(response.header("ETag")), try #require(response.header("Last-Modified")))
        }

        @Test func ifMatchMismatchOnACacheHitIs412() async throws {
            try await TestServer.with { server in
                let (etag, _) = try await Self.warm(server, "/letters.txt")
                let failed = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-Match": "\"nope\""])
                #expect(failed.status == 412)
                #expect(!failed.text.contains("abcdef"))
                let matched = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["If-Match": etag])
                #expect(matched.status == 200)
                #expect(matched.body.count == 1000)
            }
        }

        @Test func oldIfUnmodifiedSinceOnACacheHitIs412() async throws {
            try await TestServer.with { server in
                let (_, lastModified) = try await Self.warm(server, "/letters.txt")
                let failed = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-Unmodified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"]
                )
                #expect(failed.status == 412)
                let current = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-Unmodified-Since": lastModified])
                #expect(current.status == 200)
            }
        }

        @Test func ifNoneMatchOnACacheHitIs304() async throws {
            try await TestServer.with { server in
                let (etag, lastModified) = try await Self.warm(server, "/letters.txt")
                let byTag = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["If-None-Match": etag])
                #expect(byTag.status == 304)
                #expect(byTag.body.isEmpty)
                let byDate = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["If-Modified-Since": lastModified])
                #expect(byDate.status == 304)
            }
        }

        @Test func rangesAndHeadOnACacheHit() async throws {
            try await TestServer.with { server in
                let (etag, _) = try await Self.warm(server, "/letters.txt")
                let single = try await RawHTTP.fetch(port: server.port, "/letters.txt", headers: ["Range": "bytes=2-5"])
                #expect(single.status == 206)
                #expect(single.text == "cdef")
                let ifRangeMismatch = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=2-5", "If-Range": "\"old\""])
                #expect(ifRangeMismatch.status == 200)
                #expect(ifRangeMismatch.body.count == 1000)
                let ifRangeMatch = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=2-5", "If-Range": etag])
                #expect(ifRangeMatch.status == 206)
                let unsatisfiable = try await RawHTTP.fetch(
                    port: server.port, "/letters.txt", headers: ["Range": "bytes=5000-"])
                #expect(unsatisfiable.status == 416)
                let head = try await RawHTTP.fetch(port: server.port, "/letters.txt", method: "HEAD")
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "1000")
                #expect(head.body.isEmpty)
            }
        }

        /// A file changed on disk is served fresh at once: the cache is keyed by what `fstat` says.
        /// A file of a script bundle's size (200 KiB, under the 256 KiB default) is kept too: its
        /// repeats come back whole and byte for byte, ranges of it are right, and the same-sized
        /// file rewritten on disk is served fresh.
        @Test func aBundleSizedFileIsKeptAndServedFreshAfterAChange() async throws {
            #expect(ServeConfiguration(root: URL(filePath: "/")).smallFileCacheLimit == 256 << 10)
            let size = 200 << 10
            let first = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try await TestServer.with { server in
                try first.write(to: server.root.appending(path: "bundle.js"))
                for _ in 0..<4 {
                    let response = try await RawHTTP.fetch(port: server.port, "/bundle.js")
                    #expect(response.status == 200)
                    #expect(response.header("Content-Length") == "\(size)")
                    #expect(response.body == first)
                }
                let range = try await RawHTTP.fetch(
                    port: server.port, "/bundle.js", headers: ["Range": "bytes=150000-150009"])
                #expect(range.status == 206)
                #expect(range.body == first[150000..<150010])
                let url = server.root.appending(path: "bundle.js")
                let second = Data(first.reversed())
                try second.write(to: url)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: url.path(percentEncoded: false))
                let fresh = try await RawHTTP.fetch(port: server.port, "/bundle.js")
                #expect(fresh.status == 200)
                #expect(fresh.body == second)
            }
        }

        @Test func aChangedFileIsServedFresh() async throws {
            try await TestServer.with { server in
                _ = try await Self.warm(server, "/c.json")
                let url = server.root.appending(path: "c.json")
                try Data("{\"b\":22}".utf8).write(to: url)
                // Make sure the modification time differs even on a coarse clock.
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: url.path(percentEncoded: false))
                let fresh = try await RawHTTP.fetch(port: server.port, "/c.json")
                #expect(fresh.text == "{\"b\":22}")
            }
        }
    }
#endif
