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
        let data = bridge.makeBody(count: 100_000) { buffer in
            for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index) }
            return buffer.count
        }
        let lentAddress = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        bridge.receive(SchemeResponse(status: .ok))
        bridge.receive(data)
        bridge.finish()
        let chunks = try #require(bridge.completedBody())
        #expect(chunks.count == 1)
        #expect(Self.address(chunks[0]) == lentAddress)
        #expect(Data(chunks[0].readableBytesView) == data)
    }

    @Test func otherDataAndSlicesAreCopiedWithTheirOwnBytes() throws {
        let bridge = ResponseBridge()
        let lent = bridge.makeBody(count: 64) { buffer in
            buffer.copyBytes(from: Array(0..<64))
            return 64
        }
        bridge.receive(SchemeResponse(status: .ok))
        bridge.receive(lent[10..<20])  // a slice that does not start the buffer: copied
        bridge.receive(Data("plain".utf8))
        bridge.receive(lent)  // still lent: taken without a copy
        bridge.finish()
        let chunks = try #require(bridge.completedBody())
        #expect(chunks.map { Data($0.readableBytesView) } == [Data(Array(10..<20)), Data("plain".utf8), lent])
        #expect(Self.address(chunks[2]) == lent.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
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
