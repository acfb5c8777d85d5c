// schemeserve's gzip through compress-nio and through zlib directly, side by side in one run.
//
//     cd Benchmarks && swift run -c release gzip-peers [rounds]
//
// Cases, all on JavaScript-like text: (a) 1 KiB compressed whole at level 1 (a small cached answer;
// nginx's `gzip_comp_level` 1 is the peer schemeserve is measured against), (b) 64 KiB whole at
// level 1, (c) 20 MiB streamed in 64 KiB writes at level 1 (a streamed body), (d) 64 KiB whole at
// zlib's default level 6 (the file handler's encoder, once per file identity). Each round runs
// every case with both peers, the order alternating between rounds; each prints the median time
// per body over the rounds, MB/s of input, and the ratio zlib ÷ compress-nio (below 1: zlib is
// faster). Both peers use the same zlib settings (windowBits 15 + 16, memLevel 8), so their output
// must be byte-identical; it is checked, and inflated back, before timing.
import CGzipPeerZlib
import CompressNIO
import Foundation
import NIOCore

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 15 : 15

/// Deterministic JavaScript-like text: identifiers, calls, strings and numbers from a small
/// vocabulary, so it compresses like real scripts (neither trivially nor not at all).
func javaScript(_ count: Int) -> Data {
    let words = [
        "const", "let", "function", "return", "await", "async", "this", "options", "element", "value",
        "items", "fetch", "render", "update", "state", "props", "document", "querySelector", "length",
        "map", "filter", "push", "then", "catch", "error", "result", "index", "config", "handler", "event",
    ]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    var text = ""
    text.reserveCapacity(count + 200)
    while text.utf8.count < count {
        let indent = String(repeating: "  ", count: next(4))
        let a = words[next(words.count)]
        let b = words[next(words.count)]
        let c = words[next(words.count)]
        switch next(4) {
        case 0: text += "\(indent)const \(a)\(next(100)) = \(b).\(c)(\(next(1000)));\n"
        case 1: text += "\(indent)if (\(a).\(b) === \"\(c)-\(next(10000))\") { return \(a); }\n"
        case 2: text += "\(indent)function \(a)\(b.capitalized)(\(c), \(a)) {\n"
        default: text += "\(indent)}\n\(indent)// \(a) \(b) \(c) \(next(100_000))\n"
        }
    }
    return Data(text.utf8.prefix(count))
}

func bytes(_ buffers: [ByteBuffer]) -> [UInt8] { buffers.flatMap { Array($0.readableBytesView) } }

struct Case {
    var name: String
    var inputBytes: Int
    /// Bodies per timed batch.
    var iterations: Int
    var nio: () throws -> [ByteBuffer]
    var zlib: () throws -> [ByteBuffer]
}

let small = javaScript(1 << 10)
let medium = javaScript(64 << 10)
let large = javaScript(20 << 20)
let chunks = stride(from: 0, to: large.count, by: 64 << 10).map { Data(large[$0..<min($0 + (64 << 10), large.count)]) }

func streamNIO() throws -> [ByteBuffer] {
    let stream = try NIOGzipStream()
    var out: [ByteBuffer] = []
    for chunk in chunks { out += try stream.compress(chunk) }
    return out + (try stream.compress(Data(), finish: true))
}

func streamZlib() throws -> [ByteBuffer] {
    let stream = try ZlibGzipStream()
    var out: [ByteBuffer] = []
    for chunk in chunks { out += try stream.compress(chunk) }
    return out + (try stream.compress(Data(), finish: true))
}

let cases = [
    Case(
        name: "(a) 1 KiB whole, level 1", inputBytes: small.count, iterations: 2000,
        nio: { [try NIOGzipStream.compressWhole(small)] }, zlib: { [try ZlibGzipStream.compressWhole(small)] }),
    Case(
        name: "(b) 64 KiB whole, level 1", inputBytes: medium.count, iterations: 100,
        nio: { [try NIOGzipStream.compressWhole(medium)] }, zlib: { [try ZlibGzipStream.compressWhole(medium)] }),
    Case(
        name: "(c) 20 MiB streamed, 64 KiB writes, level 1", inputBytes: large.count, iterations: 1,
        nio: streamNIO, zlib: streamZlib),
    Case(
        name: "(d) 64 KiB whole, level 6 (file encoder)", inputBytes: medium.count, iterations: 50,
        nio: { [try NIOGzipStream.compressWhole(medium, level: .defaultCompressionLevel)] },
        zlib: { [try ZlibGzipStream.compressWhole(medium, level: Z_DEFAULT_COMPRESSION)] }),
]

let inputs = [small, medium, large, medium]
for (index, item) in cases.enumerated() {
    let nio = bytes(try item.nio())
    let zlib = bytes(try item.zlib())
    guard nio == zlib, gunzip(zlib) == [UInt8](inputs[index]) else {
        print("\(item.name): the peers' output differs or does not inflate back")
        exit(1)
    }
    print("\(item.name): \(item.inputBytes) → \(zlib.count) bytes, identical from both peers, inflates back")
}

/// Seconds per body, one batch.
func time(_ item: Case, _ body: () throws -> [ByteBuffer]) throws -> Double {
    let clock = ContinuousClock()
    var sink = 0
    let elapsed = try clock.measure {
        for _ in 0..<item.iterations { sink &+= try body().reduce(0) { $0 + $1.readableBytes } }
    }
    precondition(sink > 0)
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) + Double(attoseconds) / 1e18) / Double(item.iterations)
}

var samples = [[Double]](repeating: [], count: cases.count * 2)
for round in 0..<rounds {
    for (index, item) in cases.enumerated() {
        if round % 2 == 0 {
            samples[index * 2].append(try time(item, item.nio))
            samples[index * 2 + 1].append(try time(item, item.zlib))
        } else {
            samples[index * 2 + 1].append(try time(item, item.zlib))
            samples[index * 2].append(try time(item, item.nio))
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ seconds: Double) -> String {
    seconds < 1e-3 ? String(format: "%8.1f µs", seconds * 1e6) : String(format: "%8.2f ms", seconds * 1e3)
}

print("\n\(rounds) rounds, interleaved; median per body (MB/s of input)")
print("case                                          compress-nio              zlib direct   zlib ÷ nio")
for (index, item) in cases.enumerated() {
    let nioSeconds = median(samples[index * 2])
    let zlibSeconds = median(samples[index * 2 + 1])
    let ratio: Double = zlibSeconds / nioSeconds
    let rate = { (seconds: Double) in String(format: "(%6.1f)", Double(item.inputBytes) / seconds / 1e6) }
    print(
        item.name.padding(toLength: 44, withPad: " ", startingAt: 0),
        format(nioSeconds), rate(nioSeconds), " ", format(zlibSeconds), rate(zlibSeconds),
        String(format: "     %.2f", ratio))
}
