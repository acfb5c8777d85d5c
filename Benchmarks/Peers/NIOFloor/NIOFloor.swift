import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The floor for any SwiftNIO HTTP/1.1 server on this machine: a bare `ServerBootstrap` with
/// NIO's own HTTP pipeline, answering `GET /<name>` from the channel handler with the bytes of a
/// file read into memory once at start-up — no file I/O, no checks, no Swift task, and no
/// headers beyond Content-Type and Content-Length.
///
/// `Benchmarks/serve.sh` runs it next to `schemeserve`, nginx and the other servers, so the
/// ratios can be read against what NIO's HTTP layer alone costs.
///
///     nio-floor <directory> <port> [event-loops]
@main
struct NIOFloor {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let port = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: nio-floor <directory> <port> [event-loops]\n".utf8))
            exit(64)
        }
        let loops = arguments.count > 3 ? Int(arguments[3]) ?? 1 : System.coreCount
        let directory = URL(filePath: arguments[1], directoryHint: .isDirectory)
        var files: [String: ByteBuffer] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)) {
            files["/" + name] = ByteBuffer(bytes: try Data(contentsOf: directory.appending(path: name)))
        }
        let table = files
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FloorHandler(files: table))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        try await channel.closeFuture.get()
    }
}

/// Answers every request from memory, on the event loop.
final class FloorHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let files: [String: ByteBuffer]
    private var keepAlive = true
    private var uri = "/"

    init(files: [String: ByteBuffer]) { self.files = files }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            uri = head.uri
        case .body:
            break
        case .end:
            let body = files[uri]
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/octet-stream")
            headers.add(name: "Content-Length", value: String(body?.readableBytes ?? 0))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            let head = HTTPResponseHead(version: .http1_1, status: body == nil ? .notFound : .ok, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            let keepAlive = self.keepAlive
            let loopBound = context.loopBound
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { loopBound.value.close(promise: nil) }
            }
        }
    }
}
