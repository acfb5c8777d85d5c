import Foundation
import FuzzSupport

@testable import SchemeKitBrowserSupport
@testable import SchemeKitFirefox

/// The WebDriver BiDi message parser: what Firefox sends over the WebSocket, read as the adapter
/// reads it.
///
/// Properties, for any bytes: the JSON reader throws or returns, never traps (nesting past its
/// limit is an error, not a stack overflow); a value it read writes out as JSON that reads back as
/// the same value (an integral double and the integer of the same value are the same number);
/// parsing the bytes as a message equals classifying the value read; whatever the message is, the
/// adapter's readers of it (`network.beforeRequestSent`, `script.RemoteValue`, `network.BytesValue`)
/// throw a `BiDiProtocolError` or return, and a remote value becomes JSON that reads back.
@main
struct FuzzBiDi {
    static func main() {
        Fuzzer.run { buffer in
            let value: BiDiValue
            do {
                value = try BiDiJSONReader.read(buffer)
            } catch {
                if case .success = Result(catching: { try BiDiMessage.parse(buffer) }) {
                    Fuzzer.fail("BiDiMessage.parse accepted what the JSON reader refused")
                }
                return
            }
            var writer = BiDiJSONWriter()
            writer.write(value)
            guard let again = try? BiDiJSONReader.read(writer.bytes) else {
                Fuzzer.fail(
                    "the JSON written for a value read does not read: \(String(decoding: writer.bytes, as: UTF8.self))")
            }
            require(same(again, value), "the JSON round trip changed \(String(decoding: buffer, as: UTF8.self))")
            let direct = Result { try BiDiMessage.parse(buffer) }
            let classified = Result { try BiDiMessage.parse(value) }
            switch (direct, classified) {
            case (.success(let a), .success(let b)): require(a == b, "parse(bytes) and parse(value) differ")
            case (.failure, .failure): break
            default: Fuzzer.fail("parse(bytes) and parse(value) disagree on whether this is a message")
            }
            if case .success(let message) = classified { read(message) }
            readEverywhere(value, depth: 0)
        }
    }

    /// What the adapter and the pages read of a message.
    static func read(_ message: BiDiMessage) {
        switch message {
        case .event(let event):
            if let request = try? BiDiRequestEvent(params: event.params) {
                _ = request.headers.map(\.bidiValue)  // what provideResponse would echo
            }
        case .success(_, let result):
            if let remote = result["result"] { checkRemote(remote) }
            if let bytes = result["bytes"] { _ = try? BiDiBytes.decode(bytes) }
        case .error:
            break
        }
    }

    /// Every object in the value, tried as a request event, a remote value and a bytes value.
    static func readEverywhere(_ value: BiDiValue, depth: Int) {
        guard depth < 8 else { return }
        switch value {
        case .object(let members):
            _ = try? BiDiRequestEvent(params: value)
            checkRemote(value)
            _ = try? BiDiBytes.decode(value)
            for member in members.values { readEverywhere(member, depth: depth + 1) }
        case .array(let elements):
            for element in elements.prefix(16) { readEverywhere(element, depth: depth + 1) }
        default:
            break
        }
    }

    /// A remote value converts to JSON (or a typed error), and that JSON reads back.
    static func checkRemote(_ remote: BiDiValue) {
        guard let json = try? BiDiRemoteValue.json(from: remote) else { return }
        var writer = BiDiJSONWriter(sortedKeys: true)
        writer.write(json)
        guard let again = try? BiDiJSONReader.read(writer.bytes) else {
            Fuzzer.fail("a remote value's JSON does not read: \(String(decoding: writer.bytes, as: UTF8.self))")
        }
        require(same(again, json), "a remote value's JSON changed on the round trip")
    }

    /// Value equality where an integer equals the double of the same value (JSON has one number type).
    static func same(_ a: BiDiValue, _ b: BiDiValue) -> Bool {
        switch (a, b) {
        case (.int(let i), .double(let d)), (.double(let d), .int(let i)): return Double(i) == d
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () throws -> Success) {
        do { self = .success(try body()) } catch { self = .failure(error) }
    }
}
