public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP socket that listens and never accepts.
public struct SilentListener: Sendable {
    /// The listening socket.
    public let descriptor: Int32
    /// Its port.
    public let port: Int

    /// Listens on a free loopback port.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the socket.
    public func close() {
        _ = Glibc.close(descriptor)
    }
}

/// `python3 -m http.server` on 127.0.0.1, serving a directory: the origin behind `--fallback`.
public final class LoopbackOrigin {
    let process = Process()
    /// The port it serves on.
    public let port: Int

    /// Starts the server on a free port and waits (at most 15 s) until it accepts connections.
    public init(serving directory: URL) throws {
        let probe = try SilentListener()
        port = probe.port
        probe.close()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let port = port
        if eventuallyBlocking(timeout: .seconds(15), { Self.accepts(port) }) { return }
        stop()
        throw POSIXError(.ECONNREFUSED)
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Kills the server and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// `127.0.0.1:port` as a socket address (port 0: any free port).
public func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}
