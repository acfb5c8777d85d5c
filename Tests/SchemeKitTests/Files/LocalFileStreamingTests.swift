import Foundation
import GuardTestFixtures
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

@testable import SchemeKit

extension FilesTests {
    /// Large bodies: flat memory, stopping mid-stream, reads on a dispatch queue.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct LocalFileStreamingTests {
        @Test func streamingOneGiBKeepsMemoryFlat() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let size: Int64 = 1 << 30
            try fixture.sparseFile("gig.bin", size: size, markers: [(size - 4, Data("tail".utf8))])
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: fixture.root), for: "app")
            let sink = DiscardingCountingSink()
            await registry.handle(try SchemeRequest("app://localhost/gig.bin"), sink: sink)
            #expect(sink.status == 200)
            #expect(sink.bytes == size)
            #expect(sink.finished)
            // 16,384 chunks of 64 KiB went through; no more than two were ever alive at once.
            #expect(sink.peakLiveBytes <= 2 * 64 << 10, "\(sink.peakLiveBytes >> 10) KiB of body alive at once")
        }

        @Test(arguments: [false, true])
        func stoppingMidStreamStopsTheReads(onDispatchQueue: Bool) async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.sparseFile("big.bin", size: 256 << 20)
            let readMode: LocalFileHandler.ReadMode =
                onDispatchQueue ? .dispatch(DispatchQueue(label: "test.io")) : .inline
            let handler = LocalFileHandler(configuration: .init(root: .directory(fixture.root), readMode: readMode))
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let taskBox = Locked<SchemeTask?>(nil)
            let sink = CallbackSink { chunk in
                guard chunk == 3 else { return }
                taskBox.withLock { $0 }?.stop()
            }
            let task = registry.task(for: try SchemeRequest("app://localhost/big.bin"), sink: sink)
            taskBox.withLock { $0 = task }
            let probe = FileReadProbe()
            await FileReadProbe.$current.withValue(probe) {
                await task.run()
            }
            sink.recording.markStopped()
            #expect(task.isStopped)
            #expect(sink.recording.violations.isEmpty)
            #expect(sink.recording.terminalCount == 0)
            #expect(sink.recording.body.count == 3 * 64 * 1024)
            #expect(probe.reads <= 4, "read \(probe.reads) chunks after a stop at chunk 3")
        }

        @Test func cancellingTheSwiftTaskStopsTheReads() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.sparseFile("big.bin", size: 256 << 20)
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: fixture.root), for: "app")
            let probe = FileReadProbe()
            let started = AsyncStream<Void>.makeStream()
            // The sink holds the handler at chunk 2 until the cancel: otherwise a loaded machine
            // can read all 256 MiB before the test gets to cancel.
            let sink = CallbackSink(holdingAfter: 2) { chunk in if chunk == 2 { started.continuation.yield() } }
            let request = try SchemeRequest("app://localhost/big.bin")
            let running = Task {
                await FileReadProbe.$current.withValue(probe) {
                    await registry.handle(request, sink: sink)
                }
            }
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            running.cancel()
            await running.value
            #expect(probe.bytesRead < 256 << 20)
            #expect(!sink.recording.isFinished)
        }

        @Test func dispatchQueueReadsServeTheSameBytes() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try fixture.write("data.bin", content)
            let handler = LocalFileHandler(
                configuration: .init(
                    root: .directory(fixture.root), readMode: .dispatch(DispatchQueue(label: "test.io"))))
            let whole = try await exchange(handler, "app://localhost/data.bin")
            #expect(whole.body == content)
            let part = try await exchange(handler, "app://localhost/data.bin", headers: [.range: "bytes=70000-"])
            #expect(part.body == content.subdata(in: 70_000..<300_000))
        }
    }
}
