import Foundation

/// This network namespace's IPv4 TCP sockets as the kernel lists them (`/proc/net/tcp`, Linux):
/// how a test knows a connection's state that neither end reports, such as an origin stalled by a
/// client that does not read.
enum TCPSocketTable {
    /// One socket's line.
    struct Entry: Equatable {
        var localPort: Int
        var remotePort: Int
        /// The connection state (`st`): 1 is established.
        var state: Int
        /// The pending timer (`tr`): 4 is the zero-window probe.
        var timer: Int

        /// The peer advertised a zero window: this end cannot send until the peer reads.
        var isStalledByPeer: Bool { timer == 4 }
    }

    /// Every IPv4 TCP socket of the namespace (none where there is no `/proc/net/tcp`).
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
                let state = Int(fields[3], radix: 16), let timer = hex(fields[5], 0)
            else { return nil }
            return Entry(localPort: localPort, remotePort: remotePort, state: state, timer: timer)
        }
    }

    /// Whether an established socket listening-side on `localPort` (a server's end of one of its
    /// connections) is stalled: its client does not read and the window is zero.
    static func serverIsStalled(port localPort: Int) -> Bool {
        entries().contains { $0.localPort == localPort && $0.state == 1 && $0.isStalledByPeer }
    }
}
