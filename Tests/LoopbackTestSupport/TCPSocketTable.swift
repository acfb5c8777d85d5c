import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This network namespace's IPv4 TCP sockets as the kernel lists them (`/proc/net/tcp`, Linux):
/// how a test knows a connection's state that neither end reports, such as a server stalled by a
/// client that does not read, or bytes a server has not read yet.
public enum TCPSocketTable {
    /// One socket's line.
    public struct Entry: Equatable, Sendable {
        /// The socket's own port.
        public var localPort: Int
        /// The peer's port.
        public var remotePort: Int
        /// The connection state (`st`): 1 is established.
        public var state: Int
        /// Bytes written and not yet acknowledged by the peer (`tx_queue`).
        public var sendQueue: Int
        /// Bytes received and not yet read by the application (`rx_queue`).
        public var receiveQueue: Int
        /// The pending timer (`tr`): 4 is the zero-window probe.
        public var timer: Int

        /// The peer advertised a zero window: this end cannot send until the peer reads.
        public var isStalledByPeer: Bool { timer == 4 }
    }

    /// Every IPv4 TCP socket of the namespace (none where there is no `/proc/net/tcp`).
    public static func entries() -> [Entry] {
        // procfs files say they are empty: read to the end, not by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return [] }
        defer { try? handle.close() }
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 5 else { return nil }
            func hex(_ field: Substring, _ part: Int) -> Int? {
                let parts = field.split(separator: ":")
                return parts.count > part ? Int(parts[part], radix: 16) : nil
            }
            guard let localPort = hex(fields[1], 1), let remotePort = hex(fields[2], 1),
                let state = Int(fields[3], radix: 16), let sendQueue = hex(fields[4], 0),
                let receiveQueue = hex(fields[4], 1), let timer = hex(fields[5], 0)
            else { return nil }
            return Entry(
                localPort: localPort, remotePort: remotePort, state: state, sendQueue: sendQueue,
                receiveQueue: receiveQueue, timer: timer)
        }
    }

    /// The established socket from `localPort` to `remotePort`.
    public static func entry(localPort: Int, remotePort: Int) -> Entry? {
        entries().first { $0.localPort == localPort && $0.remotePort == remotePort && $0.state == 1 }
    }

    /// The local port of socket `fd`.
    public static func localPort(of fd: Int32) -> Int? {
        // A `sockaddr_in` read as bytes (its port is bytes 2 and 3, big-endian): its members
        // resolve to NIO's C module in release builds of a target that imports NIO.
        var address = [UInt8](repeating: 0, count: 16)
        var length = socklen_t(address.count)
        let result = address.withUnsafeMutableBytes {
            getsockname(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard result == 0 else { return nil }
        return Int(address[2]) << 8 | Int(address[3])
    }

    /// The server's socket of connection `fd` (this end's, made to `serverPort`).
    public static func serverEntry(of fd: Int32, serverPort: Int) -> Entry? {
        localPort(of: fd).flatMap { entry(localPort: serverPort, remotePort: $0) }
    }

    /// Whether the server on `serverPort` has read everything sent on `fd`: this end's send
    /// queue is empty (the server's kernel has it all) and so is the server socket's receive
    /// queue (the server's process took it all).
    public static func serverHasRead(_ fd: Int32, serverPort: Int) -> Bool {
        guard let port = localPort(of: fd),
            let client = entry(localPort: port, remotePort: serverPort),
            let server = entry(localPort: serverPort, remotePort: port)
        else { return false }
        return client.sendQueue == 0 && server.receiveQueue == 0
    }

    /// Whether the server on `serverPort` is stalled sending on connection `fd`: this end does
    /// not read, its receive window is full, and the server's socket waits on a zero window.
    public static func serverIsStalled(sendingTo fd: Int32, serverPort: Int) -> Bool {
        serverEntry(of: fd, serverPort: serverPort)?.isStalledByPeer ?? false
    }

    /// Whether an established socket on `localPort` (a server's end of one of its connections) is
    /// stalled: its client does not read and the window is zero.
    public static func serverIsStalled(port localPort: Int) -> Bool {
        entries().contains { $0.localPort == localPort && $0.state == 1 && $0.isStalledByPeer }
    }
}
