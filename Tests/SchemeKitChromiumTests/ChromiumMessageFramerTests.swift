#if Chromium
    import Foundation
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// The pipe's framing: messages split across reads at every byte, several in one read, and a
    /// stream that is not CBOR.
    struct ChromiumMessageFramerTests {
        static let messages: [CDPValue] = [
            .object(["id": .int(1), "result": .object([:])]),
            .object([
                "method": .string("Fetch.requestPaused"),
                "params": .object(["requestId": .string("interception-job-1.0")]),
            ]),
            .object([
                "id": .int(2),
                "result": .object(["body": .binary(Data((0..<3000).map { UInt8(truncatingIfNeeded: $0) }))]),
            ]),
        ]

        /// Feeds `stream` in reads of `size` bytes and collects every decoded message.
        static func frame(_ stream: Data, format: ChromiumWireFormat, readsOf size: Int) throws -> [CDPValue] {
            var framer = ChromiumMessageFramer(format: format)
            var decoded: [CDPValue] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + size)
                stream[offset..<end].withUnsafeBytes { framer.append($0) }
                offset = end
                while let message = try framer.next() { decoded.append(try format.decode(message)) }
            }
            #expect(framer.bufferedCount == 0)
            return decoded
        }

        @Test(arguments: ChromiumWireFormat.allCases, [1, 2, 7, 100, 4096, 1 << 20])
        func everySplitGivesTheSameMessages(format: ChromiumWireFormat, readSize: Int) throws {
            let stream = Self.messages.reduce(into: Data()) { $0 += format.frame($1) }
            let decoded = try Self.frame(stream, format: format, readsOf: readSize)
            if format == .cbor {
                #expect(decoded == Self.messages)
            } else {
                // JSON carries binary as base64 text: compare what survives the format.
                #expect(decoded.count == Self.messages.count)
                #expect(decoded[1]["params"]?["requestId"] == .string("interception-job-1.0"))
            }
        }

        @Test func aPartialMessageWaitsForItsRest() throws {
            let framed = ChromiumWireFormat.cbor.frame(Self.messages[2])
            var framer = ChromiumMessageFramer(format: .cbor)
            framed.prefix(framed.count - 1).withUnsafeBytes { framer.append($0) }
            #expect(try framer.next() == nil)
            #expect(framer.bufferedCount == framed.count - 1)
            framed.suffix(1).withUnsafeBytes { framer.append($0) }
            #expect(try framer.next().map { try CDPCBOR.decode($0) } == Self.messages[2])
            #expect(try framer.next() == nil)
        }

        @Test func aCBORStreamWithoutAnEnvelopeIsRefused() {
            var framer = ChromiumMessageFramer(format: .cbor)
            Data("{\"id\":1}\0".utf8).withUnsafeBytes { framer.append($0) }
            #expect(throws: ChromiumMessageFramer.MalformedStream.self) { try framer.next() }
        }

        /// A CBOR envelope announcing more than the limit is refused at once, before its bytes arrive.
        @Test func aCBOREnvelopeOverTheLimitIsRefusedAtOnce() throws {
            let framed = ChromiumWireFormat.cbor.frame(Self.messages[2])
            var framer = ChromiumMessageFramer(format: .cbor, maximumMessageSize: framed.count - 1)
            framed.prefix(7).withUnsafeBytes { framer.append($0) }
            #expect(throws: ChromiumMessageFramer.MessageTooLarge.self) { try framer.next() }
            var exact = ChromiumMessageFramer(format: .cbor, maximumMessageSize: framed.count)
            framed.withUnsafeBytes { exact.append($0) }
            #expect(try exact.next() != nil)
        }

        /// JSON without a NUL within the limit is refused as soon as the limit is passed, whether the
        /// bytes come in one read or many.
        @Test(arguments: [1, 100, 5000])
        func jsonWithoutAnEndPastTheLimitIsRefused(readSize: Int) throws {
            var framer = ChromiumMessageFramer(format: .json, maximumMessageSize: 4096)
            let endless = Data(repeating: UInt8(ascii: " "), count: 5000)
            var refused: ChromiumMessageFramer.MessageTooLarge?
            var fed = 0
            while fed < endless.count, refused == nil {
                let end = min(endless.count, fed + readSize)
                endless[fed..<end].withUnsafeBytes { framer.append($0) }
                fed = end
                do { _ = try framer.next() } catch let error as ChromiumMessageFramer.MessageTooLarge {
                    refused = error
                }
            }
            #expect(refused?.limit == 4096)
            #expect(fed <= 4096 + readSize)
            // A message of exactly the limit passes.
            var exact = ChromiumMessageFramer(format: .json, maximumMessageSize: 4096)
            (Data(repeating: UInt8(ascii: " "), count: 4096) + Data([0])).withUnsafeBytes { exact.append($0) }
            #expect(try exact.next()?.count == 4096)
        }
    }
#endif
