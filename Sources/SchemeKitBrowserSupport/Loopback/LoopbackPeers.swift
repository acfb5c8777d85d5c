#if Chromium || Firefox || WebKitGTK
    import Foundation
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Who may read from a loopback origin: the browser it was made for, and nothing else on the
    /// machine.
    ///
    /// A loopback listener is reachable by every local process. Each connection is checked when it
    /// is accepted: the kernel's socket table (`/proc/net/tcp`) names the socket at the other end,
    /// and the connection is served only when that socket is open in the browser's process or one
    /// of its descendants (Chromium's network service, Firefox's socket process). Any other
    /// process gets its connection closed before a byte is read. The browser's pid is set once it
    /// is spawned; until then every connection is refused.
    ///
    /// Linux only: elsewhere ``isSupported`` is `false` and the browsers use their protocol's
    /// interception instead.
    package final class LoopbackPeers: Sendable {
        private struct State {
            var root: pid_t?
            /// The process that owned the last accepted connection (checked first next time).
            var lastOwner: pid_t?
        }

        private let state = Locked(State())

        /// A policy with no browser yet: every connection is refused until ``setBrowser(_:)``.
        package init() {}

        /// Whether this system lets a listener tell which process opened a loopback connection.
        package static var isSupported: Bool {
            #if os(Linux)
                return FileManager.default.fileExists(atPath: "/proc/net/tcp")
            #else
                return false
            #endif
        }

        /// The browser's process: it and its descendants may connect.
        package func setBrowser(_ pid: Int32) {
            state.withLock { $0.root = pid }
        }

        /// Whether the TCP connection from loopback port `peerPort` to `localPort` was opened by the
        /// browser or one of its descendants. Reads `/proc`: call it off the event loop.
        package func allows(peerPort: Int, localPort: Int) -> Bool {
            #if os(Linux)
                guard let root = state.withLock({ $0.root }),
                    let inode = Self.socketInode(local: peerPort, remote: localPort)
                else { return false }
                let target = "socket:[\(inode)]"
                if let last = state.withLock({ $0.lastOwner }), Self.process(last, holds: target) {
                    return Self.tree(of: root).contains(last)
                }
                for pid in Self.tree(of: root) where Self.process(pid, holds: target) {
                    state.withLock { $0.lastOwner = pid }
                    return true
                }
                return false
            #else
                return false
            #endif
        }

        #if os(Linux)
            /// The inode of the socket bound to loopback `local` and connected to loopback `remote`,
            /// from `/proc/net/tcp` (IPv4) or `/proc/net/tcp6` (IPv4-mapped).
            static func socketInode(local: Int, remote: Int) -> UInt64? {
                let ports = (String(format: ":%04X", local), String(format: ":%04X", remote))
                for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                    guard let text = readFile(table) else { continue }
                    for line in text.split(separator: "\n").dropFirst() {
                        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                        guard fields.count > 9,
                            fields[1].hasSuffix(ports.0), isLoopback(fields[1]),
                            fields[2].hasSuffix(ports.1), isLoopback(fields[2]),
                            let inode = UInt64(fields[9]), inode != 0
                        else { continue }
                        return inode
                    }
                }
                return nil
            }

            /// `0100007F:PORT` (127.0.0.1) or its IPv4-mapped IPv6 form.
            private static func isLoopback(_ address: Substring) -> Bool {
                address.hasPrefix("0100007F:") || address.hasPrefix("0000000000000000FFFF00000100007F:")
            }

            /// `root` and every process descended from it, from each process's parent in `/proc/<pid>/stat`.
            static func tree(of root: pid_t) -> [pid_t] {
                var children: [pid_t: [pid_t]] = [:]
                guard let directory = opendir("/proc") else { return [root] }
                defer { closedir(directory) }
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    guard let pid = pid_t(name), let stat = readFile("/proc/\(pid)/stat"),
                        let close = stat.lastIndex(of: ")")
                    else { continue }
                    // After the command's closing parenthesis: state, then the parent's pid.
                    let fields = stat[stat.index(after: close)...].split(separator: " ")
                    guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
                    children[parent, default: []].append(pid)
                }
                var tree = [root]
                var index = 0
                while index < tree.count {
                    tree += children[tree[index]] ?? []
                    index += 1
                }
                return tree
            }

            /// Whether one of `pid`'s descriptors is `target` (`socket:[inode]`).
            static func process(_ pid: pid_t, holds target: String) -> Bool {
                let path = "/proc/\(pid)/fd"
                guard let directory = opendir(path) else { return false }
                defer { closedir(directory) }
                var buffer = [CChar](repeating: 0, count: 64)
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    guard name.first?.isNumber == true else { continue }
                    let count = readlink(path + "/" + name, &buffer, buffer.count - 1)
                    guard count > 0 else { continue }
                    if buffer.prefix(count).withUnsafeBytes({ String(decoding: $0, as: UTF8.self) }) == target {
                        return true
                    }
                }
                return false
            }

            /// A `/proc` file's contents (which report a size of 0: read to the end).
            private static func readFile(_ path: String) -> String? {
                guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
                defer { try? handle.close() }
                return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
            }
        #endif
    }
#endif
