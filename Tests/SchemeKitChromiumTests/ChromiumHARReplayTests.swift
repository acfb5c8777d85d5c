#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitChromium

    /// A page in a real engine loaded entirely from a HAR file: the sample app is recorded through a
    /// `HARRecorder` around `LocalFileHandler`, its files are deleted, and headless Chromium is served
    /// by a `HARReplayHandler` alone (`https://app.localhost/` resolves nowhere, so nothing else can
    /// answer).
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumHARReplayTests {
        @Test func theSampleAppLoadsEntirelyFromAHAR() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-chromium-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let copy = directory.appendingPathComponent("app")
            try FileManager.default.copyItem(at: ChromiumHarness.sampleApp, to: copy)
            let harFile = directory.appendingPathComponent("sample-app.har")

            // Record every file of the app (video included: 31 KB each) as an engine would ask for it.
            let recorder = HARRecorder(LocalFileHandler(root: copy), to: harFile)
            let engine = try ScriptedEngine(serving: recorder)
            let files = try Self.files(under: copy)
            #expect(files.count >= 12)
            for path in files {
                let result = try await engine.run("app://localhost/\(path)")
                #expect(result.status == .ok, "\(path)")
            }
            #expect(recorder.recordedCount == files.count)
            try FileManager.default.removeItem(at: copy)

            let replay = CountingHandler(
                try HARReplayHandler(
                    contentsOf: harFile, configuration: HARReplayHandler.Configuration(whenMissing: .notFound)))
            try await ChromiumHarness.with { registry in
                try registry.register(replay, for: "app")
            } _: { harness in
                let records = harness.adapter.records()
                try await harness.page.navigate(to: "https://app.localhost/index.html")
                let report = try await harness.page.evaluate("window.sampleReport")
                for check in ["css", "module", "font", "json", "video", "missing404"] {
                    #expect(report[check] == .bool(true), "\(check): \(report)")
                }
                #expect(report["image"]?["ok"] == .bool(true), "\(report)")
                #expect(try await harness.page.evaluate("document.title") == .string("sample:ok"))
                // The eager `<video>` may still be reading a range when the report is ready: every task
                // ends (none leaks), not necessarily before the page's scripts do.
                #expect(await eventually { harness.registry.metrics.live == 0 })
                // Every file the report waited for came from the HAR, and every call ended in a record;
                // nothing passed, and only a stopped call (a range the video let go) threw.
                await harness.adapter.stop()
                let (read, ended) = await readToEnd(records, within: .seconds(30))
                #expect(ended)
                #expect(SampleApp.answeredPaths(read) == SampleApp.reportedPaths, "\(read.map(\.url))")
                let counts = replay.counts
                #expect(counts.calls == read.count, "one record per call: \(counts)")
                #expect(counts.passed == 0 && counts.threw == counts.cancelled, "\(counts)")
            }
        }

        /// The paths of the regular files under `root`, relative, with `/` separators.
        static func files(under root: URL) throws -> [String] {
            let resolved = root.resolvingSymlinksInPath().path
            guard let enumerator = FileManager.default.enumerator(atPath: resolved) else { return [] }
            var paths: [String] = []
            while let path = enumerator.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: resolved + "/" + path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    paths.append(path)
                }
            }
            return paths.sorted()
        }
    }
#endif
