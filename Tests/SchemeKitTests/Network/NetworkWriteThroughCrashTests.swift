import Foundation
import LoopbackTestSupport
import SchemeKitTesting
import Testing

@testable import SchemeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kills a process writing network responses through to disk at arbitrary moments, then checks
/// that every file in place is complete: the write-through's `fsync`, rename and directory `fsync`
/// (``AtomicFile``) never expose a part.
struct NetworkWriteThroughCrashTests {
    static let size = 4 << 20

    @Test(
        .enabled(
            if: CacheDiskCrashTests.helper != nil,
            "SchemeKitFaultHelper was not found next to the tests or in .build; build it first"),
        .timeLimit(.minutes(3))
    )
    func killingAWriterMidBodyNeverLeavesAPartialFileInPlace() async throws {
        let helper = try #require(CacheDiskCrashTests.helper)
        let origin = try OriginServer.shared()
        let directory = try TemporaryDirectory()
        let logs = try TemporaryDirectory()
        let expected = OriginServer.pattern(count: Self.size)
        let files = 3
        var midWriteKills = 0
        var stored = 0
        var round = 0
        while round < 40, midWriteKills < 3 || stored < 1 {
            defer { round += 1 }
            let log = logs.url.appendingPathComponent("round-\(round).txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = helper
            process.arguments = [
                "write-through", origin.url("/").absoluteString, directory.url.path,
                "size=\(Self.size)&type=text/javascript", String(files),
            ]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let started = await eventually(timeout: .seconds(20)) {
                ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ready")
            }
            // Every other round lets a body finish first, so a slow machine (where a 4 MiB body
            // with its fsyncs takes longer than the window below) still stores some.
            if round % 2 == 1 {
                _ = await eventually(timeout: .seconds(20)) {
                    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("stored")
                }
            }
            // A kill at a different moment each round: up to 60 ms into the loop of 4 MiB bodies.
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<60_000)))  // paces the kill: a random moment
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try output.close()
            #expect(started, "round \(round): the helper never got going")
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the helper exited on its own")
            stored += try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("stored") }.count

            // Every file in place is whole, after every kill.
            let placed = directory.url.appendingPathComponent("127.0.0.1_\(origin.port)/wt")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: placed.path)) ?? [] {
                let data = try Data(contentsOf: placed.appendingPathComponent(name))
                #expect(data.count == Self.size, "round \(round): \(name) is in place with \(data.count) bytes")
                #expect(data == expected, "round \(round): \(name) is not the origin's body")
            }
            // A kill mid-body leaves a temporary file in `.partial`, never a file in place.
            let partial = directory.url.appendingPathComponent(".partial")
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: partial.path)) ?? []
            if !leftovers.isEmpty {
                midWriteKills += 1
                for name in leftovers { try FileManager.default.removeItem(at: partial.appendingPathComponent(name)) }
            }
        }
        #expect(midWriteKills >= 1, "no kill landed mid-body in \(round) rounds")
        #expect(stored >= 1, "no response was written through in any round")
    }
}
