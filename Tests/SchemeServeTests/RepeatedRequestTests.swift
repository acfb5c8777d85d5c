// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Glibc
    import LoopbackTestSupport
    import NIOCore
    import SchemeKit
    import Testing

    @testable import SchemeServe

    /// A request repeated byte for byte is answered before HTTP decoding, from the response kept
    /// for it, on keep-alive connections as a browser uses them: in order with every other
    /// response, whole when it arrives in pieces, never ahead of a response still streaming.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct RepeatedRequestTests {
        /// Chromium's request for a script, kept alive.
        static func script(_ target: String, method: String = "GET") -> String {
            """
            \(method) \(target) HTTP/1.1\r
            Host: localhost\r
            User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36\r
            Accept: */*\r
            Accept-Encoding: gzip, deflate, br, zstd\r
            Accept-Language: en-US,en;q=0.9\r
            Sec-Fetch-Site: same-origin\r
            Sec-Fetch-Mode: no-cors\r
            Sec-Fetch-Dest: script\r
            \r

            """
        }

        /// A keep-alive connection that reads one response at a time, framed by `Content-Length`
        /// or chunked.
        final class Connection {
            let fd: Int32
            let port: Int
            private var pending: [UInt8] = []

            init(port: Int) throws {
                self.port = port
                fd = try RawHTTP.connect(port: port)
            }
            deinit { close(fd) }

            func send(_ text: String) throws { try RawHTTP.sendAll(fd, Data(text.utf8)) }

            /// Sends `text` as a read of its own for the server: returns once the server has read
            /// it (the kernel shows none of it left in either socket), so the next send cannot
            /// join it in one read.
            func sendAlone(_ text: String) throws {
                try send(text)
                guard eventuallyBlocking({ TCPSocketTable.serverHasRead(fd, serverPort: port) }) else {
                    throw RawHTTP.Failure(description: "the server did not read what was sent")
                }
            }

            /// The next response; `head` when it answers a HEAD request (no body follows).
            func response(head: Bool = false) throws -> RawHTTP.Response {
                let headEnd = try index(after: Array("\r\n\r\n".utf8), from: 0)
                let headText = String(decoding: pending[..<headEnd], as: UTF8.self).lowercased()
                let fields = headText.split(separator: "\r\n").dropFirst().map {
                    $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                }
                var end = headEnd
                if !head, fields.contains(["transfer-encoding", "chunked"]) {
                    end = try index(after: Array("\r\n0\r\n\r\n".utf8), from: headEnd - 2)
                } else if !head,
                    let length = fields.first(where: { $0.first == "content-length" }).flatMap({ Int($0[1]) })
                {
                    while pending.count < headEnd + length { try receive() }
                    end = headEnd + length
                }
                let raw = Data(pending[..<end])
                pending.removeFirst(end)
                return try RawHTTP.parse(raw)
            }

            /// The index just past the first `marker` at or after `start`, receiving until there is one.
            private func index(after marker: [UInt8], from start: Int) throws -> Int {
                var from = start
                while true {
                    if let found = pending[from...].firstRange(of: marker) { return found.upperBound }
                    from = max(start, pending.count - marker.count + 1)
                    try receive()
                }
            }

            private func receive() throws {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { throw RawHTTP.Failure(description: "connection closed or timed out") }
                pending.append(contentsOf: buffer[..<count])
            }
        }

        static func oneLoop(_ configuration: inout ServeConfiguration) {
            configuration.eventLoopCount = 1
        }

        @Test func repeatsOnOneConnectionAreAnsweredInOrder() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let (port, registry) = (server.port, server.registry)
                try await onThread {
                    let connection = try Connection(port: port)
                    try connection.send(Self.script("/b.js"))
                    let first = try connection.response()
                    #expect(first.status == 200)
                    #expect(first.header("Content-Encoding") == "gzip")
                    for _ in 0..<3 {
                        try connection.send(Self.script("/b.js"))
                        #expect(try connection.response().body == first.body)
                    }
                    let before = registry.metrics.started
                    for _ in 0..<5 {
                        try connection.send(Self.script("/b.js"))
                        let again = try connection.response()
                        #expect(again.status == 200)
                        #expect(again.body == first.body)
                        #expect(again.header("ETag") == first.header("ETag"))
                    }
                    #expect(registry.metrics.started == before, "a repeat does not reach the registry")

                    // Pipelined in one write: a repeat, a new request, a repeat. Three answers, in order.
                    try connection.send(Self.script("/b.js") + Self.script("/c.json") + Self.script("/b.js"))
                    #expect(try connection.response().body == first.body)
                    let json = try connection.response()
                    #expect(json.status == 200)
                    #expect(json.header("Content-Type")?.hasPrefix("application/json") == true)
                    #expect(try connection.response().body == first.body)
                }
            }
        }

        /// Bytes that repeat a kept request, sent as the body of a request whose head has come,
        /// are that body: the request they belong to is answered, once, and no repeat.
        @Test func aRepeatSentAsARequestBodyIsTheBody() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let port = server.port
                try await onThread {
                    let plain = "GET /c.json HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    let warm = try Connection(port: port)
                    for _ in 0..<4 {
                        try warm.send(plain)
                        #expect(try warm.response().text == "{\"a\":1}")
                    }
                    let connection = try Connection(port: port)
                    // The head in one read, its body (the repeat's bytes) in the next.
                    try connection.sendAlone(
                        "POST /letters.txt HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(plain.utf8.count)\r\n\r\n")
                    try connection.send(plain)
                    let answer = try connection.response()
                    #expect(answer.status == 405, "the POST's own answer")
                    #expect(answer.text != "{\"a\":1}")
                    // And nothing else: the next answer is the next request's.
                    try connection.send("GET /letters.txt HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    #expect(try connection.response().body.count == 1000)
                }
            }
        }

        /// A repeat that arrives in pieces, and a HEAD repeat, are answered like the first.
        @Test func aRepeatInPiecesAndAHeadRepeatAreAnsweredWhole() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let port = server.port
                try await onThread {
                    let connection = try Connection(port: port)
                    let request = Self.script("/letters.txt")
                    try connection.send(request)
                    let first = try connection.response()
                    #expect(first.status == 200)
                    for _ in 0..<2 {
                        try connection.send(request)
                        #expect(try connection.response().body == first.body)
                    }
                    // The repeat in two reads: its first 40 bytes, then the rest.
                    let cut = request.index(request.startIndex, offsetBy: 40)
                    try connection.sendAlone(String(request[..<cut]))
                    try connection.send(String(request[cut...]))
                    #expect(try connection.response().body == first.body)
                    try connection.send(request)
                    #expect(try connection.response().body == first.body)

                    let head = Self.script("/letters.txt", method: "HEAD")
                    for _ in 0..<3 {
                        try connection.send(head)
                        let answer = try connection.response(head: true)
                        #expect(answer.status == 200)
                        #expect(answer.body.isEmpty)
                        #expect(answer.header("Content-Length") == first.header("Content-Length"))
                    }
                    // The connection is still in step: the next answer is the next request's.
                    try connection.send(request)
                    #expect(try connection.response().body == first.body)
                }
            }
        }

        /// Bytes that repeat a kept request, sent after an unfinished head, are the rest of that
        /// head to the server, not a repeat: what HTTP says of the whole (a malformed request, 400).
        @Test func aRepeatAfterAnUnfinishedHeadIsNotAnsweredAsARepeat() async throws {
            try await TestServer.with(configure: Self.oneLoop) { server in
                let port = server.port
                try await onThread {
                    let request = Self.script("/letters.txt")
                    for _ in 0..<3 {
                        let warm = try Connection(port: port)
                        try warm.send(request)
                        #expect(try warm.response().status == 200)
                    }
                    let connection = try Connection(port: port)
                    // The unfinished head in one read, the repeat's bytes in the next.
                    try connection.sendAlone("GET /c.json HTTP/1.1\r\nX-Unfinished: yes\r\n")
                    try connection.send(request)
                    let answer = try connection.response()
                    #expect(answer.status == 400)
                }
            }
        }

        /// Answered repeats keep an active connection open, and an idle one still closes, on time
        /// though the head timeout is longer.
        @Test func repeatsCountAsActivityAndIdleConnectionsStillClose() async throws {
            try await TestServer.with(configure: {
                $0.eventLoopCount = 1
                $0.idleTimeout = .seconds(1)
            }) { server in
                let port = server.port
                try await onThread {
                    let connection = try Connection(port: port)
                    let request = Self.script("/b.js")
                    // Eight requests at least 200 ms apart: 1.6 s or more, past the 1 s idle timeout,
                    // each well within it of the last answer.
                    for _ in 0..<8 {
                        try connection.send(request)
                        #expect(try connection.response().status == 200)
                        Thread.sleep(forTimeInterval: 0.2)  // paces the requests: a rate
                    }
                    #expect(
                        ServeTimeoutTests.closedByPeer(connection.fd, within: 3),
                        "idle after its last repeat, it closes")
                }
            }
        }

        @Test func theScannerFindsTheHeadsEndAndTheDate() {
            let request = ByteBuffer(string: "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b")
            #expect(RepeatedRequestHandler.headLength(in: request) == 27)
            #expect(RepeatedRequestHandler.headLength(in: ByteBuffer(string: "GET / HTTP/1.1\r\nHost: a\r\n")) == nil)
            #expect(RepeatedRequestHandler.headLength(in: ByteBuffer(string: "\r\n\r")) == nil)
            #expect(RepeatedRequestHandler.endsWithBlankLine(ByteBuffer(string: "x\r\n\r\n")))
            #expect(!RepeatedRequestHandler.endsWithBlankLine(ByteBuffer(string: "x\r\n\r\nx")))
            let response = ByteBuffer(
                string: "HTTP/1.1 200 OK\r\ncontent-length: 2\r\ndate: Thu, 26 Nov 2026 22:50:15 GMT\r\n\r\nok")
            let index = RepeatedRequestHandler.dateValueIndex(in: response)
            #expect(index.map { response.getString(at: $0, length: 29) } == "Thu, 26 Nov 2026 22:50:15 GMT")
            // A `date:` in the body is not the head's.
            #expect(
                RepeatedRequestHandler.dateValueIndex(in: ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n\r\ndate: x"))
                    == nil)
        }
    }
#endif
