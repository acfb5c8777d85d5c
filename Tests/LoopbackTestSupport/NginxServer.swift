public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx on 127.0.0.1 serving a directory, with `/dyn/` proxied to a backend unbuffered: the real
/// web server the conformance suites compare SchemeKit with, the same files to the same engine.
///
/// Started in the foreground with a configuration and a prefix of its own (`daemon off`, its pid,
/// logs and temporary files in a scratch directory), on a free port; ``stop()`` ends it and waits
/// for it.
public final class NginxServer: Sendable {
    /// nginx did not start (not installed, or it did not accept connections within 15 s).
    public struct LaunchError: Error, CustomStringConvertible {
        /// What went wrong, with nginx's error log.
        public var description: String
    }

    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let directory: URL

    /// Starts nginx serving `root`, with `/dyn/` proxied to `http://127.0.0.1:<backend>` when given.
    public init(root: URL, backend: Int? = nil) throws {
        let probe = try SilentListener()
        port = probe.port
        probe.close()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let proxy =
            backend.map {
                """
                location /dyn/ {
                      proxy_pass http://127.0.0.1:\($0);
                      proxy_http_version 1.1;
                      proxy_buffering off;
                      proxy_set_header Connection "";
                    }
                """
            } ?? ""
        let temporary = directory.path
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(temporary)/nginx.pid;
            error_log \(temporary)/error.log;
            events { worker_connections 256; }
            http {
              include /etc/nginx/mime.types;
              default_type application/octet-stream;
              access_log off;
              sendfile on;
              client_body_temp_path \(temporary)/body;
              proxy_temp_path \(temporary)/proxy;
              fastcgi_temp_path \(temporary)/fastcgi;
              uwsgi_temp_path \(temporary)/uwsgi;
              scgi_temp_path \(temporary)/scgi;
              server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                \(proxy)
              }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", file.path, "-p", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let port = self.port
        let accepting = eventuallyBlocking(timeout: .seconds(15)) {
            !process.isRunning || LoopbackOrigin.accepts(port)
        }
        guard accepting, process.isRunning else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            stop()
            throw LaunchError(description: "nginx did not start: \(log)")
        }
    }

    /// Ends nginx (its master and workers) and waits until it is gone.
    public func stop() {
        if process.isRunning {
            process.terminate()
            _ = eventuallyBlocking(timeout: .seconds(10)) { !process.isRunning }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
