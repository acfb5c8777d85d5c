// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    import SchemeKit
    import Synchronization

    /// The media fixture: a 5 s, 160×120, 30 fps VP8 WebM made with GStreamer (`gst-launch-1.0`, from
    /// Debian's `gstreamer1.0-tools` and `gstreamer1.0-plugins-good`), once per test process.
    enum MediaClip {
        static let duration = 5.0

        private static let made: Result<Data, any Error> = Result { try TestMediaClip.webm(seconds: 5) }

        /// The clip's bytes.
        static func data() throws -> Data { try made.get() }

        /// Writes the clip as `clip.webm` and a page playing it as `page.html` into `directory`.
        static func install(in directory: URL) throws {
            try data().write(to: directory.appendingPathComponent("clip.webm"))
            let page = """
                <!doctype html><title>media</title>
                <video id="v" muted playsinline preload="auto" src="clip.webm"></video>
                """
            try Data(page.utf8).write(to: directory.appendingPathComponent("page.html"))
        }
    }

    /// A file handler that records every request it is asked for, with its `Range` header.
    final class RangeRecordingHandler: SchemeHandler {
        struct Read: Sendable {
            var path: String
            /// The first byte asked for: 0 without a `Range` header, else N of `bytes=N-`.
            var offset: Int64
        }

        let files: LocalFileHandler
        private let record = Mutex<[Read]>([])

        init(_ files: LocalFileHandler) {
            self.files = files
        }

        var name: String { files.name }

        /// Every request so far, in order.
        var reads: [Read] { record.withLock { $0 } }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            let range = request.headerFields[.range]
            let offset = range.flatMap { Int64($0.dropFirst("bytes=".count).prefix { $0 != "-" }) } ?? 0
            record.withLock { $0.append(Read(path: request.path, offset: offset)) }
            return try await files.handle(request, writer: writer)
        }
    }

    /// `app://slowmedia/`: `page.html` autoplays `clip.webm`, whose body comes 4 KiB every 50 ms
    /// (a `Range: bytes=N-` is honoured with a 206), so a media request is still live seconds later.
    final class SlowMediaHandler: SchemeHandler {
        struct Record {
            var started = 0
            var chunks = 0
            var cancelled = 0
            var writesAfterCancel = 0
        }

        let record = Mutex(Record())
        var name: String { "slow-media" }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            if request.path == "/page.html" {
                let html = """
                    <!doctype html><title>slow media</title>
                    <video id="v" muted autoplay playsinline preload="auto" src="clip.webm"></video>
                    """
                try await writer.respond(.ok, mimeType: "text/html", body: Data(html.utf8))
                return .handled
            }
            guard request.path == "/clip.webm" else { return .passed }
            let clip = try MediaClip.data()
            let offset =
                request.headerFields[.range].flatMap { Int($0.dropFirst("bytes=".count).prefix { $0 != "-" }) } ?? 0
            record.withLock { $0.started += 1 }
            var fields: HTTPFields = [.acceptRanges: "bytes"]
            if offset > 0 { fields[.contentRange] = "bytes \(offset)-\(clip.count - 1)/\(clip.count)" }
            try await writer.writeHead(
                SchemeResponse(
                    status: offset > 0 ? .partialContent : .ok, headerFields: fields, mimeType: "video/webm",
                    expectedContentLength: Int64(clip.count - offset)))
            var position = offset
            do {
                while position < clip.count {
                    let end = min(position + 4096, clip.count)
                    try await writer.write(clip[position..<end])
                    record.withLock { $0.chunks += 1 }
                    position = end
                    try await Task.sleep(for: .milliseconds(50))  // the rate: 4 KiB every 50 ms
                }
            } catch {
                record.withLock { $0.cancelled += 1 }
                if (try? await writer.write(Data(count: 1))) != nil { record.withLock { $0.writesAfterCancel += 1 } }
                throw error
            }
            try await writer.finish()
            return .handled
        }
    }
#endif
