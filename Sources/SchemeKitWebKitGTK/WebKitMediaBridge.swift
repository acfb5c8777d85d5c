// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit

    /// The UI-process side of the media bridge: answers the range requests of the web process
    /// extension `SchemeKitWebKitGTKMedia` (its GStreamer source `schemekitsrc`) through the adapter's
    /// registry.
    ///
    /// Each web process sends one user message (`SchemeKit.media.connect`) carrying a control socket;
    /// a thread per web process reads range requests from it, each with its own response socket, and
    /// runs one registry task per range (a `Range: bytes=N-` request when N > 0). The wire format is
    /// the one in `SchemeKitWebKitGTKMedia.h`; its two structs are mirrored here byte for byte.
    final class WebKitMediaBridge: Sendable {
        /// The user message name the extension sends (`SCHEMEKIT_MEDIA_CONNECT_MESSAGE`).
        static let connectMessage = "SchemeKit.media.connect"
        /// "SKM1" in host byte order (`SCHEMEKIT_MEDIA_MAGIC`).
        static let magic: UInt32 = 0x314d_4b53
        /// `sizeof(SchemeKitMediaRequest)`: magic, URI length, offset.
        static let requestSize = 16
        /// `sizeof(SchemeKitMediaResponse)`: magic, status, total size, offset, message length, reserved.
        static let responseSize = 32

        private unowned let adapter: WebKitSchemeAdapter

        init(adapter: WebKitSchemeAdapter) {
            self.adapter = adapter
        }

        /// Reads requests from a web process's control socket on a thread of its own until the web
        /// process closes it (it exits).
        func serve(controlSocket fd: Int32) {
            let thread = Thread { [adapter] in
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                while true {
                    var responseSocket: Int32 = -1
                    let count = buffer.withUnsafeMutableBytes { bytes in
                        schemekit_receive_with_fd(fd, bytes.baseAddress, bytes.count, &responseSocket)
                    }
                    if count <= 0 { break }
                    guard responseSocket >= 0 else { continue }
                    guard let request = Self.parseRequest(buffer[0..<count]) else {
                        close(responseSocket)
                        continue
                    }
                    WebKitMediaStream.start(
                        uri: request.uri, offset: request.offset, socket: responseSocket, adapter: adapter)
                }
                close(fd)
            }
            thread.name = "SchemeKit media bridge"
            thread.start()
        }

        /// The URI and offset of a request message, or `nil` when it is not one.
        static func parseRequest(_ bytes: ArraySlice<UInt8>) -> (uri: String, offset: UInt64)? {
            guard bytes.count >= requestSize else { return nil }
            let base = bytes.startIndex
            func integer<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
                var value = T.zero
                withUnsafeMutableBytes(of: &value) { raw in
                    for i in 0..<MemoryLayout<T>.size { raw[i] = bytes[base + at + i] }
                }
                return value
            }
            guard integer(0, UInt32.self) == magic else { return nil }
            let length = Int(integer(4, UInt32.self))
            let offset = integer(8, UInt64.self)
            guard bytes.count >= requestSize + length else { return nil }
            let uri = String(decoding: bytes[(base + requestSize)..<(base + requestSize + length)], as: UTF8.self)
            return (uri, offset)
        }

        /// A response head: status, total size (-1 unknown), where the body starts, and a message.
        static func responseHead(status: Int, totalSize: Int64, offset: Int64, message: String = "") -> Data {
            let text = Array(message.utf8.prefix(4096))
            var data = Data(capacity: responseSize + text.count)
            func append<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value) { data.append(contentsOf: $0) }
            }
            append(magic)
            append(Int32(truncatingIfNeeded: status))
            append(totalSize)
            append(offset)
            append(UInt32(text.count))
            append(UInt32(0))
            data.append(contentsOf: text)
            return data
        }
    }
#endif
