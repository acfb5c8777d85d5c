import Foundation
import SchemeKit
import Synchronization
import Testing

extension FilesTests {
    /// Engine-supplied body memory: a file is read straight into the engine's buffers.
    @Suite struct LocalFileBodyAllocatorTests {
        /// A sink that lends its own buffers and checks that the chunks it receives are those
        /// buffers (the engine could pass them on without a copy).
        final class LendingSink: SchemeTaskSink, SchemeBodyAllocator {
            /// The engine's own buffer type, recognised by type when it comes back.
            struct LentBuffer: SchemeBodyBuffer {
                let bytes: Data
                var count: Int { bytes.count }
                func withUnsafeBytes<Result, Failure: Error>(
                    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
                ) throws(Failure) -> Result {
                    try SchemeBody(bytes).withUnsafeBytes(body)
                }
                func slice(_ range: Range<Int>) -> LentBuffer {
                    LentBuffer(
                        bytes: bytes.subdata(
                            in: (bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)))
                }
            }
            struct State {
                var body = Data()
                var chunks = 0
                var chunksInLentMemory = 0
                var status = 0
                var finished = false
            }
            let state = Locked(State())

            var bodyAllocator: (any SchemeBodyAllocator)? { self }

            func makeBody<Failure: Error>(
                count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
            ) throws(Failure) -> SchemeBody {
                let body = try MallocBodyAllocator().makeBody(count: count, fill: fill)
                return SchemeBody(engineBuffer: LentBuffer(bytes: body.data))
            }

            func receive(_ response: SchemeResponse) { state.withLock { $0.status = response.status.code } }

            func receive(_ body: SchemeBody) {
                let lent = body.engineBuffer(as: LentBuffer.self) != nil
                state.withLock {
                    $0.chunks += 1
                    if lent { $0.chunksInLentMemory += 1 }
                    $0.body.append(body.data)
                }
            }

            func finish() { state.withLock { $0.finished = true } }
            func fail(_ error: any Error) {}
        }

        @Test(arguments: [false, true])
        func aStreamedFileIsReadIntoTheEnginesBuffers(onDispatchQueue: Bool) async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let content = Data((0..<(200 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try content.write(to: fixture.root.appending(path: "big.bin"))
            let readMode: LocalFileHandler.ReadMode =
                onDispatchQueue ? .dispatch(DispatchQueue(label: "test.io")) : .inline
            let registry = SchemeRegistry()
            try registry.register(
                LocalFileHandler(configuration: .init(root: .directory(fixture.root), readMode: readMode)), for: "app")
            let sink = LendingSink()
            await registry.handle(try SchemeRequest("app://localhost/big.bin"), sink: sink)
            let state = sink.state.withLock { $0 }
            #expect(state.status == 200)
            #expect(state.finished)
            #expect(state.body == content)
            #expect(state.chunks == 4)  // 64 KiB chunks
            #expect(state.chunksInLentMemory == state.chunks)
        }

        @Test func aSmallFileIsReadIntoTheEnginesBufferToo() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try Data("hello, engine memory".utf8).write(to: fixture.root.appending(path: "small.txt"))
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: fixture.root), for: "app")
            let sink = LendingSink()
            await registry.handle(try SchemeRequest("app://localhost/small.txt"), sink: sink)
            let state = sink.state.withLock { $0 }
            #expect(state.body == Data("hello, engine memory".utf8))
            #expect(state.chunks == 1)
            #expect(state.chunksInLentMemory == 1)
        }

        struct FillFailure: Error, Equatable {}

        @Test func theDefaultAllocatorReturnsWhatFillWroteAndPropagatesItsError() throws {
            let allocator = MallocBodyAllocator()
            let data = allocator.makeBody(count: 8) { buffer in
                buffer.copyBytes(from: [1, 2, 3])
                return 3
            }
            #expect(data.data == Data([1, 2, 3]))
            #expect(allocator.makeBody(count: 8) { _ in 0 }.isEmpty)
            #expect(throws: FillFailure()) {
                try allocator.makeBody(count: 8) { (_) throws(FillFailure) -> Int in throw FillFailure() }
            }
        }
    }
}
