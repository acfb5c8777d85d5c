import Foundation
import FuzzSupport

@testable import SchemeKitBrowserSupport
@testable import SchemeKitChromium

/// The DevTools-protocol decoders: what Chromium sends down the pipe, framed and parsed.
///
/// Properties, for any bytes: the framer (NUL-terminated JSON, or CBOR envelopes) and both value
/// decoders throw or return, never trap; JSON messages are exactly the input's NUL-separated
/// pieces, and a CBOR message is exactly its envelope's length; a decoded value re-encodes to
/// bytes that decode to the same value (`decode(encode(v)) == v`, NaN equal to itself). Bytes are
/// not compared: objects are dictionaries, and their members may come out in another order.
@main
struct FuzzCDP {
    static func main() {
        Fuzzer.run { buffer in
            var input = FuzzInput(buffer)
            let mode = input.byte()
            let chunking = Int(input.byte() % 16) + 1
            let rest = input.rest()
            switch mode % 3 {
            case 0: checkCBOR(Data(rest))
            case 1: checkJSON(Data(rest))
            default: checkFraming(rest, format: mode & 0x80 == 0 ? .json : .cbor, chunk: chunking)
            }
        }
    }

    static func checkCBOR(_ data: Data) {
        guard let value = try? CDPCBOR.decode(data) else { return }
        let encoded = CDPCBOR.encode(value)
        guard let again = try? CDPCBOR.decode(encoded) else {
            Fuzzer.fail("the CBOR encoding of a decoded value does not decode: \(encoded as NSData)")
        }
        require(same(again, value), "CBOR round trip changed \(data as NSData)")
    }

    static func checkJSON(_ data: Data) {
        guard let value = try? CDPJSON.decode(data) else { return }
        let encoded = CDPJSON.encode(value)
        guard let again = try? CDPJSON.decode(encoded) else {
            Fuzzer.fail(
                "the JSON encoding of a decoded value does not decode: \(String(decoding: encoded, as: UTF8.self))")
        }
        require(same(again, value), "JSON round trip changed \(String(decoding: data, as: UTF8.self))")
    }

    /// Value equality where NaN equals NaN (CBOR can carry one) and an integer equals the double of
    /// the same value.
    static func same(_ a: CDPValue, _ b: CDPValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
        // JSON has one number type: an integral double written without a fraction reads back as
        // an integer, and is the same number.
        case (.int(let i), .double(let d)), (.double(let d), .int(let i)): return Double(i) == d
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// Feeds `bytes` to a framer `chunk` bytes at a time, as the pipe's reads would.
    static func checkFraming(_ bytes: [UInt8], format: ChromiumWireFormat, chunk: Int) {
        var framer = ChromiumMessageFramer(format: format)
        var messages: [Data] = []
        var offset = 0
        reading: while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            bytes[offset..<end].withUnsafeBytes { framer.append($0) }
            offset = end
            while true {
                do {
                    guard let message = try framer.next() else { break }
                    messages.append(message)
                } catch {
                    break reading  // a malformed stream ends the connection
                }
            }
        }
        switch format {
        case .json:
            let pieces = bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { Data($0) }
            if offset == bytes.count {
                require(messages == pieces, "JSON framing differs from the NUL-separated pieces")
            }
            for message in messages { _ = try? CDPJSON.decode(message) }
        case .cbor:
            for message in messages {
                require(
                    CDPCBOR.envelopeLength(message).map { $0 + 7 } == message.count,
                    "a CBOR message is not exactly its envelope")
                _ = try? CDPCBOR.decode(message)
            }
        }
    }
}
