// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    import NIOCore
    import SchemeKit
    import Synchronization
    import Testing

    @testable import SchemeServe

    /// The bridge lends NIO buffers to handlers and takes them back without a copy, wakes the
    /// event loop only when it is idle, and takes file regions only when no transform needs bytes.
    struct ResponseBridgeTests {
        static func address(_ buffer: ByteBuffer) -> UInt {
            buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        }

        /// Counts the bridge's wake-ups.
        final class WakeCounter: Sendable {
            private let count = Atomic(0)
            func add() { count.add(1, ordering: .relaxed) }
            var value: Int { count.load(ordering: .relaxed) }
        }

        static func bridge(gzip: Bool = false, wakes: WakeCounter? = nil) -> ResponseBridge {
            ResponseBridge(
                planner: { response in
                    var transforms = ResponseTransforms()
                    transforms.gzip = gzip
                    return ResponsePlan(status: response.status, fields: response.headerFields, transforms: transforms)
                },
                wake: { wakes?.add() })
        }

        static func bytes(_ chunks: [ResponseBridge.Chunk]) -> [ByteBuffer] {
            chunks.compactMap { chunk in
                if case .bytes(let buffer) = chunk { return buffer }
                return nil
            }
        }

        @Test func aLentBufferWrittenBackReachesTheChannelWithoutACopy() throws {
            let bridge = Self.bridge()
            let body = bridge.makeBody(count: 100_000) { buffer in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index) }
                return buffer.count
            }
            let lent = try #require(body.engineBuffer(as: ByteBufferBody.self))
            bridge.receive(SchemeResponse(status: .ok))
            bridge.receive(body)
            bridge.finish()
            let batch = bridge.take()
            let chunks = Self.bytes(batch.chunks)
            #expect(chunks.count == 1)
            #expect(Self.address(chunks[0]) == Self.address(lent.buffer))
            #expect(Data(chunks[0].readableBytesView) == body.data)
            guard case .finished = batch.end else {
                Issue.record("no finish in \(batch)")
                return
            }
        }

        @Test func slicesOfALentBufferStayInItAndOtherBodiesAreCopied() throws {
            let bridge = Self.bridge()
            let lent = bridge.makeBody(count: 64) { buffer in
                buffer.copyBytes(from: Array(0..<64))
                return 64
            }
            let base = try Self.address(#require(lent.engineBuffer(as: ByteBufferBody.self)).buffer)
            bridge.receive(SchemeResponse(status: .ok))
            bridge.receive(lent.slice(10..<20))  // a slice of the lent memory: still no copy
            bridge.receive(SchemeBody(Data("plain".utf8)))  // not the bridge's: copied
            bridge.receive(lent)
            bridge.finish()
            let chunks = Self.bytes(bridge.take().chunks)
            #expect(chunks.map { Data($0.readableBytesView) } == [Data(Array(10..<20)), Data("plain".utf8), lent.data])
            #expect(Self.address(chunks[0]) == base + 10)
            #expect(Self.address(chunks[2]) == base)
        }

        struct FillFailure: Error, Equatable {}

        @Test func aFailingFillThrowsAndLendsNothing() {
            let bridge = Self.bridge()
            #expect(throws: FillFailure()) {
                try bridge.makeBody(count: 16) { (_) throws(FillFailure) -> Int in throw FillFailure() }
            }
            #expect(bridge.makeBody(count: 16) { _ in 0 }.isEmpty)
        }

        @Test func theLoopIsWokenOnlyWhenIdle() {
            let wakes = WakeCounter()
            let bridge = Self.bridge(wakes: wakes)
            bridge.receive(SchemeResponse(status: .ok))
            bridge.receive(SchemeBody(Data("a".utf8)))
            bridge.receive(SchemeBody(Data("b".utf8)))
            #expect(wakes.value == 1)  // the loop has not taken anything yet
            #expect(bridge.take().chunks.count == 2)
            #expect(bridge.take().isEmpty)  // nothing new: the loop goes idle…
            bridge.receive(SchemeBody(Data("c".utf8)))
            #expect(wakes.value == 2)  // …and the next chunk wakes it
        }

        @Test func fileRegionsOnlyWhenNoTransformNeedsTheBytes() {
            let plain = Self.bridge()
            #expect(!plain.acceptsFileRegions)  // no head yet: no plan
            plain.receive(SchemeResponse(status: .ok))
            #expect(plain.acceptsFileRegions)
            let gzipped = Self.bridge(gzip: true)
            gzipped.receive(SchemeResponse(status: .ok))
            #expect(!gzipped.acceptsFileRegions)
        }

        @Test func aFailureBeforeTheHeadIsTheStart() {
            let bridge = Self.bridge()
            bridge.fail(URLError(.cannotConnectToHost))
            guard case .failed(let error) = bridge.take().start else {
                Issue.record("expected a failed start")
                return
            }
            #expect(error is URLError)
        }

        /// Two writers waiting for room at once (a handler writing from two child tasks) are both
        /// released when the loop takes the queue down; a second waiter used to replace the first,
        /// which then waited forever.
        @Test func everyWriterWaitingForRoomIsReleased() async throws {
            let bridge = ResponseBridge(
                highWaterMark: 16,
                planner: { ResponsePlan(status: $0.status, fields: $0.headerFields, transforms: ResponseTransforms()) },
                wake: {})
            bridge.receive(SchemeResponse(status: .ok))
            bridge.receive(SchemeBody(Data(count: 64)))
            let released = Locked(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        await bridge.waitForCapacity()
                        released.withLock { $0 += 1 }
                    }
                }
                // Both are parked before the loop takes the queue down.
                #expect(await eventually { bridge.waitingProducers == 2 })
                #expect(released.withLock { $0 } == 0, "the writers wait while 64 bytes are queued")
                _ = bridge.take()
                group.addTask {
                    try await Task.sleep(for: .seconds(10))  // the deadline: catches a writer left waiting
                    throw CancellationError()
                }
                for _ in 0..<2 { try await group.next() }
                group.cancelAll()
            }
            #expect(released.withLock { $0 } == 2)
            #expect(bridge.waitingProducers == 0)
        }
    }
#endif
