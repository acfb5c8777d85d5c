import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitWKWebViewStandIn
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `<video>`'s reads of a large file, as WebKit's media loader makes them, with bounded memory:
/// an open-ended range stopped after 16 MiB (a seek), the second half to the end, then the gap —
/// every byte of the file once, through `LocalFileHandler`'s ranges and the adapter's pieces.
///
/// The file is 1 GiB when `SCHEMEKIT_MEMORY_TEST_BYTES=1073741824` (the `tests: bounded memory`
/// stage of `Scripts/test.sh`, which runs every suite whose name contains `BoundedMemoryTests`
/// with `SCHEMEKIT_ISOLATED=1`); 256 MiB otherwise. It is sparse, so it costs no disk. The test
/// measures its own process (``IsolatedProcess``): the peak resident growth must stay within
/// 64 MiB.
///
/// **Assumption**: WebKit consumes `didReceive(_: Data)` as it comes (it copies each piece to
/// its network process); the stand-in counts each piece and keeps nothing. `WKURLSchemeTask` has
/// no flow control: the adapter's bound is one piece per task in flight on the main queue.
@Suite(.serialized)
struct WKWebViewBoundedMemoryTests {
    static let size =
        ProcessInfo.processInfo.environment["SCHEMEKIT_MEMORY_TEST_BYTES"].flatMap { Int($0) } ?? 256 << 20
    static let bound = 64 << 20

    @MainActor
    @Test(.timeLimit(.minutes(3)))
    func mediaRangesOfALargeFileStayWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "mediaRangesOfALargeFileStayWithinTheBound") else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wk-media-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("clip.mp4")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.size))
        try handle.close()

        let registry = SchemeRegistry()
        try registry.register(LocalFileHandler(root: directory), for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let url = "app://localhost/clip.mp4"
        let seekAt = 16 << 20
        let half = Self.size / 2
        let probe = MemoryProbe()
        let clock = ContinuousClock()
        let started = clock.now

        let (first, second, gap) = try await withTimeLimit(.seconds(150), "media ranges") { @MainActor in
            // 1. The element opens the file and seeks after 16 MiB: WebKit stops the range.
            let first = engine.start(
                ScriptedWebKit.request(url, headers: ["Range": "bytes=0-"]), keepsBody: false
            ) { task, event in
                if case .data = event, task.byteCount >= seekAt, !task.isStopped {
                    DispatchQueue.main.async { MainActor.assumeIsolated { engine.stop(task) } }
                }
            }
            await first.waitForEnd()
            // 2. Plays from the middle to the end.
            let second = engine.start(
                ScriptedWebKit.request(url, headers: ["Range": "bytes=\(half)-"]), keepsBody: false)
            await second.waitForEnd()
            // 3. Seeks back and plays the part it skipped.
            let gap = engine.start(
                ScriptedWebKit.request(url, headers: ["Range": "bytes=\(first.byteCount)-\(half - 1)"]),
                keepsBody: false)
            await gap.waitForEnd()
            return (first, second, gap)
        }
        let growth = probe.stop()
        let total = first.byteCount + second.byteCount + gap.byteCount
        print(
            "WKWebView media ranges, \(Self.size >> 20) MiB: \(total >> 20) MiB delivered in "
                + "\(clock.now - started), peak RSS growth \(growth >> 20) MiB")
        #expect(first.status == 206)
        #expect(first.isStopped && first.byteCount >= seekAt)
        #expect(second.status == 206)
        #expect(second.byteCount == Self.size - half)
        #expect(second.events.last == .finish)
        #expect(gap.status == 206)
        #expect(gap.byteCount == half - first.byteCount)
        #expect(gap.events.last == .finish)
        #expect(total == Self.size)
        if case .response(_, let headers) = second.events.first {
            #expect(headers["content-range"] == "bytes \(half)-\(Self.size - 1)/\(Self.size)")
        }
        #expect(max(first.largestPiece, second.largestPiece, gap.largestPiece) <= 256 << 10)
        for task in [first, second, gap] { #expect(task.violations.isEmpty) }
        #expect(growth < Self.bound, "peak RSS growth \(growth >> 20) MiB")
    }
}
