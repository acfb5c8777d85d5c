import CWebKitGTK
import Foundation
import SchemeKit
import SchemeKitWebKitGTK
import Synchronization

/// The work of one `headless-render` run.
struct Renderer {
    let options: HeadlessRender
    let glib: GLibMainThread

    /// Forwards `console.*` and uncaught errors to the `console` script message handler.
    static let consoleScript = """
        (() => {
          const post = (level, args) => {
            try {
              const text = args.map((a) => typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch (e) { return String(a); } })()).join(' ');
              window.webkit.messageHandlers.console.postMessage(level + ': ' + text);
            } catch (e) {}
          };
          for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
            const original = console[level].bind(console);
            console[level] = (...args) => { post(level, args); original(...args); };
          }
          window.addEventListener('error', (event) => post('error', [event.message]));
          window.addEventListener('unhandledrejection', (event) => post('error', ['unhandled rejection: ' + event.reason]));
        })();
        """

    struct Report: Encodable {
        var url: String
        var loadMs: Double
        var requests: [Request]
        var console: [String]
        var eval: String?
        var screenshot: String?
        var coldMedianMs: Double?
        var coldP90Ms: Double?
        var warmMedianMs: Double?
        var warmP90Ms: Double?
        /// Every cold load time, in order (with `--iterations`): for pooling several runs.
        var coldMs: [Double]?
        /// Every warm load time, in order (with `--iterations`).
        var warmMs: [Double]?
    }

    struct Request: Encodable {
        var path: String
        var status: Int
        var bytes: Int
        var handler: String
        var ms: Double
    }

    final class Holder: Sendable {}

    func run() async throws -> Int32 {
        let executor = glib.executor
        let registry = SchemeRegistry()
        let files = LocalFileHandler(
            configuration: .init(
                root: .directory(URL(fileURLWithPath: options.directory)), cacheControl: options.cache.cacheControl))
        if let fallback = options.fallback {
            try registry.register(
                SchemeHandlerChain(files, NetworkFallbackHandler(origin: fallback)), for: options.scheme)
        } else {
            try registry.register(files, for: options.scheme)
        }
        let adapter = try await executor.run {
            WebKitSchemeAdapter(registry: registry, context: webkit_web_context_get_default(), executor: executor)
        }
        let target =
            options.url ?? "\(options.scheme)://localhost\(options.path.hasPrefix("/") ? "" : "/")\(options.path)"
        // Reset views to a blank page of the target's own site, so warm views stay in their web
        // process (a site change moves a view to a new one); other URLs reset to about:blank.
        let blankURL =
            target.hasPrefix("\(options.scheme)://")
            ? WebKitSchemeAdapter.blankURL(scheme: options.scheme) : "about:blank"
        let pool = SessionPool(
            configuration: .init(warmCount: 1, maximumCount: 2, sweepInterval: nil), executor: executor
        ) { try await WebViewSession.make(executor: executor, blankURL: blankURL) }
        await pool.start()

        let console = Mutex<[String]>([])
        let holder = Holder()
        let session = try await pool.acquire(for: holder)
        try await session.addUserScript(Self.consoleScript)
        try await session.addScriptMessageHandler("console") { json in
            let text = (try? JSONDecoder().decode(String.self, from: Data(json.utf8))) ?? json
            console.withLock { $0.append(text) }
        }
        adapter.clearLog()
        let started = ContinuousClock.now
        do {
            try await session.load(target)
        } catch {
            throw RenderError("the page failed to load: \(error)")
        }
        let loadMs = Self.milliseconds(ContinuousClock.now - started)
        var report = Report(url: target, loadMs: loadMs, requests: [], console: [])
        var status: Int32 = 0
        if let expression = options.eval {
            do {
                report.eval = try await session.callAsyncFunction("return (\(expression));")
            } catch {
                FileHandle.standardError.write(Data("headless-render: --eval threw: \(error)\n".utf8))
                status = 1
            }
        }
        if let screenshot = options.screenshot {
            try await session.snapshot(to: screenshot)
            report.screenshot = screenshot
        }
        report.requests = adapter.log.map {
            Request(path: $0.path, status: $0.status, bytes: $0.bytes, handler: $0.handler, ms: $0.milliseconds)
        }
        report.console = console.withLock { $0 }
        try await pool.recycle(session)

        if let iterations = options.iterations {
            var cold: [Double] = []
            for _ in 0..<iterations {
                let begin = ContinuousClock.now
                let view = try await WebViewSession.make(executor: executor, warm: false)
                try await view.load(target)
                cold.append(Self.milliseconds(ContinuousClock.now - begin))
                await view.tearDown()
            }
            var warm: [Double] = []
            for _ in 0..<iterations {
                let begin = ContinuousClock.now
                let view = try await pool.acquire(for: holder)
                try await view.load(target)
                warm.append(Self.milliseconds(ContinuousClock.now - begin))
                try await pool.recycle(view)
            }
            report.coldMedianMs = Self.percentile(cold, 0.5)
            report.coldP90Ms = Self.percentile(cold, 0.9)
            report.warmMedianMs = Self.percentile(warm, 0.5)
            report.warmP90Ms = Self.percentile(warm, 0.9)
            report.coldMs = cold
            report.warmMs = warm
        }
        await pool.shutDown()
        print(options.json ? try Self.json(report) : Self.text(report))
        return status
    }

    static func text(_ report: Report) -> String {
        var lines = ["loaded \(report.url) in \(format(report.loadMs)) ms"]
        for request in report.requests {
            lines.append(
                "  \(request.status) \(request.path) \(request.bytes) B \(request.handler) \(format(request.ms)) ms")
        }
        for message in report.console { lines.append("console \(message)") }
        if let eval = report.eval { lines.append("eval \(eval)") }
        if let screenshot = report.screenshot { lines.append("screenshot \(screenshot)") }
        if let coldMedian = report.coldMedianMs, let warmMedian = report.warmMedianMs {
            lines.append("cold median \(format(coldMedian)) ms, p90 \(format(report.coldP90Ms ?? 0)) ms")
            lines.append("warm median \(format(warmMedian)) ms, p90 \(format(report.warmP90Ms ?? 0)) ms")
            lines.append("warm is \(format(coldMedian / max(warmMedian, 0.001)))x faster")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ report: Report) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// A failure with a message for the user.
struct RenderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
