import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Tests/Fixtures/origin.py` on 127.0.0.1, one process per test (so a test can stop it): the
/// real HTTP origin recordings are made against. It exits when ``stop()`` is called, when our end
/// of its stdin closes, or after two minutes, so it never outlives the test.
final class LoopbackOrigin: Sendable {
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    private let process: Process
    private let stdin: Pipe

    init() throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/origin.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--max-lifetime", "120"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // The first line is the port: read it with poll(2), bounded.
        let descriptor = stdout.fileHandleForReading.fileDescriptor
        var line = Data()
        let deadline = Date.now.addingTimeInterval(15)
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while Date.now < deadline {
            guard poll(&request, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1, byte != 10 else { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw LaunchError(description: "origin.py did not report its port")
        }
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// `http://127.0.0.1:<port>`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Ends the origin and waits (bounded) until it is gone.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        let deadline = Date.now.addingTimeInterval(10)
        while process.isRunning, Date.now < deadline { usleep(10_000) }
    }

    /// Whether something accepts TCP connections on the origin's port.
    var isReachable: Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    deinit { stop() }
}
