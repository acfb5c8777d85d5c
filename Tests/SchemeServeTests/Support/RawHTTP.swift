// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A raw HTTP/1.1 exchange over a loopback TCP socket: the request goes out byte for byte (no
    /// client library normalises the target), the response is read until the server closes or the
    /// timeout expires.
    struct RawHTTP {
        struct Response: Sendable {
            var status: Int
            var headers: [(String, String)]
            var body: Data
            var raw: Data

            func header(_ name: String) -> String? {
                headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
            }
            var text: String { String(decoding: body, as: UTF8.self) }
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
        }

        /// Connects to 127.0.0.1:`port`; receive timeout `timeout` seconds.
        @available(*, noasync, message: "blocks its thread: call it inside onThread, or use fetch/transmit")
        static func connect(port: Int, timeout: Int = 10) throws -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket") }
            var tv = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            // From the support module: here `sockaddr_in`'s members resolve to NIO's C module in release builds.
            var address = loopbackAddress(port: port)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                close(fd)
                throw Failure(description: "connect failed")
            }
            return fd
        }

        @available(*, noasync, message: "blocks its thread: call it inside onThread, or use fetch/transmit")
        static func sendAll(_ fd: Int32, _ data: Data) throws {
            var offset = 0
            while offset < data.count {
                let sent = data.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { throw Failure(description: "send failed") }
                offset += sent
            }
        }

        /// Sends `request` verbatim and reads until EOF (send `Connection: close`).
        @available(*, noasync, message: "blocks its thread: call it inside onThread, or use fetch/transmit")
        static func exchange(port: Int, _ request: Data, timeout: Int = 10) throws -> Response {
            let fd = try connect(port: port, timeout: timeout)
            defer { close(fd) }
            try sendAll(fd, request)
            var raw = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                raw.append(contentsOf: buffer[..<count])
            }
            return try parse(raw)
        }

        /// A GET (or `method`) with `Host: 127.0.0.1` unless `host` says otherwise, closing the connection.
        @available(*, noasync, message: "blocks its thread: call it inside onThread, or use fetch/transmit")
        static func request(
            port: Int,
            _ target: String,
            method: String = "GET",
            host: String? = "localhost",
            headers: [String: String] = [:]
        ) throws -> Response {
            var text = "\(method) \(target) HTTP/1.1\r\n"
            if let host { text += "Host: \(host)\r\n" }
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "Connection: close\r\n\r\n"
            let response = try exchange(port: port, Data(text.utf8))
            return method == "HEAD" ? response : response
        }

        static func parse(_ raw: Data) throws -> Response {
            guard let end = raw.firstRange(of: Data("\r\n\r\n".utf8)) else {
                throw Failure(description: "no response head (\(raw.count) bytes)")
            }
            let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw Failure(description: "bad status line")
            }
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var body = Data(raw[end.upperBound...])
            if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked" }) {
                body = dechunk(body)
            }
            return Response(status: status, headers: headers, body: body, raw: raw)
        }

        static func dechunk(_ data: Data) -> Data {
            var result = Data()
            var index = data.startIndex
            while let lineEnd = data[index...].firstRange(of: Data("\r\n".utf8)) {
                let sizeText =
                    String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText, radix: 16), size > 0 else { break }
                let start = lineEnd.upperBound
                guard start + size <= data.endIndex else { break }
                result.append(data[start..<(start + size)])
                index = start + size + 2
                guard index <= data.endIndex else { break }
            }
            return result
        }

        /// ``request(port:_:method:host:headers:)`` on a thread of its own, so blocking socket calls never
        /// occupy the Swift concurrency pool (or Dispatch's width-limited queues) an in-process server needs.
        static func fetch(
            port: Int,
            _ target: String,
            method: String = "GET",
            host: String? = "localhost",
            headers: [String: String] = [:]
        ) async throws -> Response {
            try await offload { try request(port: port, target, method: method, host: host, headers: headers) }
        }

        /// ``exchange(port:_:timeout:)`` on a thread of its own.
        static func transmit(port: Int, _ request: Data) async throws -> Response {
            try await offload { try exchange(port: port, request) }
        }

        private static func offload(_ work: @escaping @Sendable () throws -> Response) async throws -> Response {
            try await onThread(work)
        }
    }

    /// Runs blocking `work` (socket calls, waits) on a thread of its own, never on the Swift
    /// concurrency pool: two threads on two cores, which a few blocked tests would starve.
    func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
#endif
