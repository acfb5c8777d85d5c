import Foundation
import LoopbackTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `Tests/Fixtures/origin.py` on 127.0.0.1, one process per test (so a test can stop it): the
/// real HTTP origin recordings are made against. It exits when ``stop()`` is called, when our end
/// of its stdin closes, or after two minutes, so it never outlives the test.
final class LoopbackOrigin: Sendable {
    let port: Int
    private let origin: OriginProcess

    init() throws {
        origin = try OriginProcess(maxLifetime: 120)
        port = origin.port
    }

    /// `http://127.0.0.1:<port>`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Ends the origin and waits (bounded) until it is gone.
    func stop() { origin.stop() }

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

}
