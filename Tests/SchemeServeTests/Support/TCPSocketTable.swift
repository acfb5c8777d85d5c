// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Glibc

    /// This network namespace's IPv4 TCP sockets as the kernel lists them (`/proc/net/tcp`): how a
    /// test knows a connection's state that neither end reports, such as a server stalled by a
    /// client that does not read, or bytes a server has not read yet.
    enum TCPSocketTable {
        /// One socket's line.
        struct Entry: Equatable {
            var localPort: Int
            var remotePort: Int
            /// The connection state (`st`): 1 is established.
            var state: Int
            /// Bytes written and not yet acknowledged by the peer (`tx_queue`).
            var sendQueue: Int
            /// Bytes received and not yet read by the application (`rx_queue`).
            var receiveQueue: Int
            /// The pending timer (`tr`): 4 is the zero-window probe.
            var timer: Int

            /// The peer advertised a zero window: this end cannot send until the peer reads.
            var isStalledByPeer: Bool { timer == 4 }
        }

        /// Every IPv4 TCP socket of the namespace.
        static func entries() -> [Entry] {
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
        static func entry(localPort: Int, remotePort: Int) -> Entry? {
            entries().first { $0.localPort == localPort && $0.remotePort == remotePort && $0.state == 1 }
        }

        /// The local port of socket `fd`.
        static func localPort(of fd: Int32) -> Int? {
            // A `sockaddr_in` read as bytes (its port is bytes 2 and 3, big-endian): its members
            // resolve to NIO's C module in release builds.
            var address = [UInt8](repeating: 0, count: 16)
            var length = socklen_t(address.count)
            let result = address.withUnsafeMutableBytes {
                getsockname(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
            }
            guard result == 0 else { return nil }
            return Int(address[2]) << 8 | Int(address[3])
        }

        /// The server's socket of connection `fd` (this end's, made to `serverPort`).
        static func serverEntry(of fd: Int32, serverPort: Int) -> Entry? {
            localPort(of: fd).flatMap { entry(localPort: serverPort, remotePort: $0) }
        }

        /// Whether the server on `serverPort` has read everything sent on `fd`: this end's send
        /// queue is empty (the server's kernel has it all) and so is the server socket's receive
        /// queue (the server's process took it all).
        static func serverHasRead(_ fd: Int32, serverPort: Int) -> Bool {
            guard let port = localPort(of: fd),
                let client = entry(localPort: port, remotePort: serverPort),
                let server = entry(localPort: serverPort, remotePort: port)
            else { return false }
            return client.sendQueue == 0 && server.receiveQueue == 0
        }

        /// Whether the server on `serverPort` is stalled sending on connection `fd`: this end does
        /// not read, its receive window is full, and the server's socket waits on a zero window.
        static func serverIsStalled(sendingTo fd: Int32, serverPort: Int) -> Bool {
            serverEntry(of: fd, serverPort: serverPort)?.isStalledByPeer ?? false
        }
    }
#endif
