// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Glibc
    import Testing

    /// On-the-fly gzip of a large file cannot stall the server: a hundred clients asking for a
    /// 20 MiB text file with `Accept-Encoding: gzip` and reading almost nothing (as any web page can
    /// make browsers do with cross-site GETs) must leave small requests answered at once, and the
    /// server's memory bounded. It used to compress each whole file on the event loop before the
    /// first byte: every other request then waited about ten seconds.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct ServeCompressionLoadTests {
        @Test func slowGzipReadersOfALargeFileDoNotStallSmallRequests() async throws {
            // Blocking sockets throughout: on a thread of its own, not the concurrency pool.
            try await onThread { try Self.slowGzipReaders() }
        }

        static func slowGzipReaders() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // 20 MiB of text that compresses (but not to nothing: lines differ).
            var text = Data()
            text.reserveCapacity(20 << 20)
            var line = 0
            while text.count < 20 << 20 {
                text.append(Data("console.log('line \(line)', \(line &* 2_654_435_761 % 1_000_003));\n".utf8))
                line += 1
            }
            try text.write(to: directory.appending(path: "big.js"))
            try Data("small".utf8).write(to: directory.appending(path: "small.txt"))
            let server = try ServeProcess([directory.path(percentEncoded: false)])
            defer { server.stop() }
            let baseline = server.peakResidentKiB ?? 0

            // A hundred readers that ask and then read 1 KiB of the answer, no more.
            var readers: [Int32] = []
            defer { for fd in readers { close(fd) } }
            for _ in 0..<100 {
                let fd = try RawHTTP.connect(port: server.port, timeout: 10)
                var size: Int32 = 4096  // a small receive buffer: the server must wait for the reader
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                try RawHTTP.sendAll(
                    fd, Data("GET /big.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n".utf8))
                readers.append(fd)
            }
            var buffer = [UInt8](repeating: 0, count: 1024)
            var gzipped = 0
            for fd in readers where recv(fd, &buffer, buffer.count, 0) > 0 {
                if String(decoding: buffer, as: UTF8.self).lowercased().contains("content-encoding: gzip") {
                    gzipped += 1
                }
            }
            #expect(gzipped == 100, "every reader got a gzip answer")

            // Meanwhile small requests are answered promptly, one after another.
            var slowest = Duration.zero
            for _ in 0..<50 {
                let started = ContinuousClock.now
                let response = try RawHTTP.request(port: server.port, "/small.txt")
                slowest = max(slowest, ContinuousClock.now - started)
                #expect(response.status == 200 && response.text == "small")
            }
            #expect(slowest < .seconds(2), "the slowest small request took \(slowest)")
            let grown = (server.peakResidentKiB ?? 0) - baseline
            #expect(grown < 256 * 1024, "100 gzip streams grew the server by \(grown / 1024) MiB")
        }
    }
#endif
