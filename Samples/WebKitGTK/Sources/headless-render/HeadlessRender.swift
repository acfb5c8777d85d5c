import ArgumentParser
import CWebKitGTK
import Dispatch
import Foundation
import SchemeKit
import SchemeKitWebKitGTK
import Synchronization

/// `headless-render`: loads a directory through SchemeKit in a pooled headless WebKitGTK view and
/// reports the load time, every request, the console, an optional JavaScript result and snapshot.
@main
struct HeadlessRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headless-render",
        abstract: "Render a directory through a SchemeKit custom scheme in headless WebKitGTK (run under xvfb-run -a)."
    )

    @Argument(help: "The directory to serve.")
    var directory: String

    @Option(help: "The custom scheme to serve the directory on.")
    var scheme = "app"

    @Option(help: "The path to load.")
    var path = "/index.html"

    @Option(
        help: "Load this URL instead (file://, http://127.0.0.1…) — for comparisons; the directory is still served.")
    var url: String?

    @Option(
        help: """
            Fetch paths the directory does not have from this origin (http or https, e.g. \
            https://origin.example): app://localhost/a.js → https://origin.example/a.js. The page \
            itself may then come from the origin too.
            """,
        transform: HeadlessRender.origin)
    var fallback: URL?

    @Option(
        help: """
            How WebKit may cache the directory's files: 'immutable' (the directory is a package \
            snapshot: subresources stay in WebKit's memory cache between loads, as file:// ones do) \
            or 'revalidate' (Cache-Control: no-cache: every load asks SchemeKit again).
            """)
    var cache: CachePolicy = .immutable

    @Option(help: "A JavaScript expression to evaluate after the load; a Promise is awaited.")
    var eval: String?

    @Option(help: "Write a PNG snapshot of the page here.")
    var screenshot: String?

    @Option(help: "Give up after this many seconds.")
    var timeout: Double = 30

    @Option(help: "Load the page N times on cold views and N times on warm pooled views.")
    var iterations: Int?

    @Flag(help: "Print one JSON object at the end.")
    var json = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("no such directory: \(directory)")
        }
        if url == nil, fallback == nil {  // with a fallback, the page may come from the origin
            let file = URL(fileURLWithPath: directory).appendingPathComponent(String(path.drop { $0 == "/" }))
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ValidationError("\(path) not found in \(directory)")
            }
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
    }

    /// Parses `--fallback`: an http or https URL with a host.
    static func origin(_ argument: String) throws -> URL {
        guard let origin = URL(string: argument), ["http", "https"].contains(origin.scheme?.lowercased()),
            origin.host(percentEncoded: false)?.isEmpty == false
        else { throw ValidationError("--fallback must be an http or https origin, such as https://origin.example") }
        return origin
    }

    func run() throws {
        let deadline = timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
            FileHandle.standardError.write(Data("headless-render: timed out after \(deadline) s\n".utf8))
            HeadlessRender.exitNow(3)
        }
        let glib: GLibMainThread
        do {
            glib = try GLibMainThread()
        } catch {
            FileHandle.standardError.write(Data("headless-render: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let outcome = Mutex<Result<Int32, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let options = self
        Task {
            let result = await Result { try await Renderer(options: options, glib: glib).run() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        var code: Int32 = 0
        switch outcome.withLock({ $0! }) {
        case .success(let status):
            code = status
        case .failure(let error):
            FileHandle.standardError.write(Data("headless-render: \(error)\n".utf8))
            code = 1
        }
        glib.stop()
        Self.exitNow(code)
    }

    /// Exits without running exit-time destructors: WebKit's and GTK's do not expect to run while
    /// another thread owns the main context.
    static func exitNow(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }
}

/// How `headless-render` lets WebKit cache the files it serves.
enum CachePolicy: String, ExpressibleByArgument, CaseIterable {
    /// `Cache-Control: max-age=31536000, immutable`.
    case immutable
    /// `Cache-Control: no-cache`, the file handler's default.
    case revalidate

    /// The `Cache-Control` value the file handler sends.
    var cacheControl: String {
        switch self {
        case .immutable: "max-age=31536000, immutable"
        case .revalidate: "no-cache"
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
