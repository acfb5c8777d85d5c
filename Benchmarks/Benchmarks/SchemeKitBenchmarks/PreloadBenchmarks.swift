import Benchmark
import Foundation
import SchemeKit
import Synchronization

/// Registers the preload benchmarks: time to first byte for the engine with and without a preload.
///
/// A real origin (`Tests/Fixtures/origin.py`, 127.0.0.1) answers after 200 ms. With preloading the
/// fetch starts 150 ms before the engine asks; the measured span is from the engine's request to
/// the first body byte reaching its sink. Target: ≤ 60 ms with the preload, against ≥ 200 ms
/// without.
func preloadBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(30),
        maxIterations: 20
    )
    Benchmark("Preload: first byte, preload started 150 ms ahead (origin 200 ms)", configuration: configuration) {
        benchmark in
        await measureFirstByte(benchmark, preloadAhead: .milliseconds(150))
    } setup: {
        try BenchOrigin.start()
    }
    Benchmark("Preload: first byte, no preload (origin 200 ms)", configuration: configuration) { benchmark in
        await measureFirstByte(benchmark, preloadAhead: nil)
    } setup: {
        try BenchOrigin.start()
    }
}

private func measureFirstByte(_ benchmark: Benchmark, preloadAhead: Duration?) async {
    guard let port = BenchOrigin.port else { return }
    let upstream = NetworkUpstream(
        rewriter: NetworkRewriter(defaultRule: NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: port))
    )
    let preloader = Preloader(allowedHosts: [], upstream: upstream)
    let registry = SchemeRegistry()
    try? registry.register(PreloadHandler(preloader: preloader), for: "app")
    for _ in benchmark.scaledIterations {
        let url = URL(string: "app://bench/page-\(UUID().uuidString).html?delay=200&size=20000&type=text/html")!
        if let preloadAhead {
            preloader.preload(url)
            try? await Task.sleep(for: preloadAhead)
        }
        guard let request = try? SchemeRequest(url: url) else { return }
        let sink = FirstByteSink()
        benchmark.startMeasurement()
        registry.task(for: request, sink: sink).start()
        await sink.waitForFirstByte()
        benchmark.stopMeasurement()
        await sink.waitForEnd()
    }
}

/// The origin process, started once per benchmark process; it exits when this process ends
/// (its stdin closes).
private enum BenchOrigin {
    private static let state = Mutex<(process: Process, stdin: Pipe, port: Int)?>(nil)

    static var port: Int? { state.withLock { $0?.port } }

    static func start() throws {
        if port != nil { return }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/origin.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--max-lifetime", "300"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        guard let port = Int(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? "") else {
            process.terminate()
            return
        }
        state.withLock { $0 = (process, stdin, port) }
    }
}

/// A sink that signals the first body byte and the end of the response.
private final class FirstByteSink: SchemeTaskSink {
    private struct State {
        var sawByte = false
        var ended = false
        var byteWaiters: [CheckedContinuation<Void, Never>] = []
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func receive(_ response: SchemeResponse) {}

    func receive(_ data: SchemeBody) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.sawByte else { return [] }
            state.sawByte = true
            defer { state.byteWaiters = [] }
            return state.byteWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func finish() { end() }

    func fail(_ error: any Error) { end() }

    private func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ended = true
            state.sawByte = true
            defer {
                state.byteWaiters = []
                state.endWaiters = []
            }
            return state.byteWaiters + state.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitForFirstByte() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sawByte { return true }
                state.byteWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func waitForEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.ended { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
