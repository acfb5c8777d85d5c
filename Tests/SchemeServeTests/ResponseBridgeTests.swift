// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import NIOCore
    import SchemeKit
    import Testing

    @testable import SchemeServe

    /// The bridge lends NIO buffers to handlers and takes them back without a copy.
    struct ResponseBridgeTests {
        static func address(_ buffer: ByteBuffer) -> UInt {
            buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        }

        @Test func aLentBufferWrittenBackReachesTheChannelWithoutACopy() throws {
            let bridge = ResponseBridge()
            let body = bridge.makeBody(count: 100_000) { buffer in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index) }
                return buffer.count
            }
            let lent = try #require(body.engineBuffer(as: ByteBufferBody.self))
            bridge.receive(SchemeResponse(status: .ok))
            bridge.receive(body)
            bridge.finish()
            let chunks = try #require(bridge.completedBody())
            #expect(chunks.count == 1)
            #expect(Self.address(chunks[0]) == Self.address(lent.buffer))
            #expect(Data(chunks[0].readableBytesView) == body.data)
        }

        @Test func slicesOfALentBufferStayInItAndOtherBodiesAreCopied() throws {
            let bridge = ResponseBridge()
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
            let chunks = try #require(bridge.completedBody())
            #expect(chunks.map { Data($0.readableBytesView) } == [Data(Array(10..<20)), Data("plain".utf8), lent.data])
            #expect(Self.address(chunks[0]) == base + 10)
            #expect(Self.address(chunks[2]) == base)
        }

        struct FillFailure: Error, Equatable {}

        @Test func aFailingFillThrowsAndLendsNothing() {
            let bridge = ResponseBridge()
            #expect(throws: FillFailure()) {
                try bridge.makeBody(count: 16) { (_) throws(FillFailure) -> Int in throw FillFailure() }
            }
            #expect(bridge.makeBody(count: 16) { _ in 0 }.isEmpty)
        }
    }
#endif
