// Built with a package trait of an engine (`WebKitGTK`, `Chromium`, `Firefox`): each test runs on
// every engine built. WebKitGTK needs a display: `xvfb-run -a swift test …`.
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport
    import Synchronization
    import Testing

    #if Chromium
        @testable import SchemeKitChromium
    #endif
    #if Firefox
        @testable import SchemeKitFirefox
    #endif
    #if WebKitGTK
        import CWebKitGTK
        @testable import SchemeKitWebKitGTK
    #endif

    /// An engine of this build, as the conformance suites run it.
    enum BrowserEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case webkit
        case chromium
        case firefox

        /// The engines of this build.
        /// Leaves out an engine whose `SCHEMEKIT_SKIP_<ENGINE>` is `1`, as `Scripts/test.sh` does.
        static let built: [BrowserEngine] = {
            var engines: [BrowserEngine] = []
            #if WebKitGTK
                engines.append(.webkit)
            #endif
            #if Chromium
                engines.append(.chromium)
            #endif
            #if Firefox
                engines.append(.firefox)
            #endif
            let environment = ProcessInfo.processInfo.environment
            return engines.filter { environment["SCHEMEKIT_SKIP_\($0.rawValue.uppercased())"] != "1" }
        }()

        /// The browsers of this build (Chromium, Firefox): the engines with a protocol transport.
        static var browsers: [BrowserEngine] { built.filter { $0 != .webkit } }

        var testDescription: String { rawValue }

        /// How SchemeKit can serve this engine: the loopback https origin everywhere; the
        /// protocol's interception on the browsers; the custom scheme (`app://`) on WebKitGTK.
        var transports: [EngineTransport] {
            self == .webkit ? [.loopbackOrigin, .customScheme] : [.loopbackOrigin, .interception]
        }
    }

    /// How a registry reaches an engine's page.
    enum EngineTransport: String, Sendable, CustomTestStringConvertible {
        /// `https://app.localhost/` from a loopback https origin (``BrowserTransport/automatic`` on the
        /// browsers, ``WebKitSchemeAdapter/httpsNetworkSession(origins:requestTimeout:)`` on WebKitGTK).
        case loopbackOrigin
        /// `https://app.localhost/` through the browser protocol's interception (``BrowserTransport/interception``).
        case interception
        /// `app://localhost/` through WebKitGTK's custom-scheme handler.
        case customScheme

        var testDescription: String { rawValue }
    }

    /// An engine with one way of serving it: a test argument.
    struct ServedEngine: Sendable, CustomTestStringConvertible {
        let engine: BrowserEngine
        let transport: EngineTransport

        /// Every engine of the build with every way of serving it.
        static let all: [ServedEngine] = BrowserEngine.built.flatMap { engine in
            engine.transports.map { ServedEngine(engine: engine, transport: $0) }
        }

        var testDescription: String { "\(engine) \(transport)" }
    }

    /// An engine, an adapter serving the virtual origin from a registry, and a page: what the
    /// conformance tests drive, the same way on every engine.
    ///
    /// Made and closed by ``with(_:transport:register:_:)`` only, so the engine is closed before
    /// the test returns, whatever the test does.
    struct EngineSession: Sendable {
        let engine: BrowserEngine
        let transport: EngineTransport
        let registry: SchemeRegistry
        /// The page's origin: `https://app.localhost`, or `app://localhost` on the custom scheme.
        let origin: String
        /// The port of the loopback origin, when the session is served from one.
        let loopbackPort: Int?
        let navigate: @Sendable (String) async throws -> Void
        let evaluate: @Sendable (String) async throws -> JavaScriptValue
        let statistics: @Sendable () -> EngineAdapterStatistics
        private let close: @Sendable () async -> Void

        static let virtualOrigin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// Whether the adapter serves from the loopback origin.
        var servesFromLoopback: Bool { transport == .loopbackOrigin && loopbackPort != nil }

        /// Runs `body` with a new session on `engine`, then closes the adapter and the engine,
        /// also when `body` throws.
        static func with<T: Sendable>(
            _ engine: BrowserEngine, transport: EngineTransport = .loopbackOrigin,
            register: (SchemeRegistry) throws -> Void, _ body: (EngineSession) async throws -> T
        ) async throws -> T {
            let registry = SchemeRegistry()
            try register(registry)
            let session = try await open(engine, transport: transport, registry: registry)
            do {
                let result = try await body(session)
                await session.close()
                return result
            } catch {
                await session.close()
                throw error
            }
        }

        /// Runs `body` with a page of a new engine that no adapter serves (to load the same files
        /// from a web server), then closes it, also when `body` throws.
        static func withBrowser<T: Sendable>(
            _ engine: BrowserEngine,
            _ body: (
                _ navigate: @Sendable (String) async throws -> Void,
                _ evaluate: @Sendable (String) async throws -> JavaScriptValue
            ) async throws -> T
        ) async throws -> T {
            let page = try await plainPage(engine)
            do {
                let result = try await body(page.navigate, page.evaluate)
                await page.close()
                return result
            } catch {
                await page.close()
                throw error
            }
        }

        /// Navigates to `path` on the origin (`/blank.html` by default: a page with nothing in it,
        /// which the tests' registries serve).
        func open(_ path: String = "/blank.html") async throws {
            try await navigate(origin + path)
        }

        private struct Page {
            var navigate: @Sendable (String) async throws -> Void
            var evaluate: @Sendable (String) async throws -> JavaScriptValue
            var close: @Sendable () async -> Void
        }

        private static func plainPage(_ engine: BrowserEngine) async throws -> Page {
            switch engine {
            case .chromium:
                #if Chromium
                    let browser = try await ChromiumBrowser.launch()
                    do {
                        let page = try await browser.newPage()
                        return Page(
                            navigate: { try await page.navigate(to: $0) }, evaluate: { try await page.evaluate($0) },
                            close: { await browser.close() })
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("not built")
                #endif
            case .firefox:
                #if Firefox
                    let browser = try await FirefoxBrowser.launch()
                    do {
                        let page = try await browser.newPage()
                        return Page(
                            navigate: { try await page.navigate(to: $0) }, evaluate: { try await page.evaluate($0) },
                            close: { await browser.close() })
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("not built")
                #endif
            case .webkit:
                #if WebKitGTK
                    let executor = try WebKitEngine.executor()
                    let network = try await executor.run {
                        UInt(bitPattern: UnsafeMutableRawPointer(webkit_network_session_new_ephemeral()))
                    }
                    let view = try await WebViewSession.make(
                        executor: executor, blankURL: "about:blank", networkSession: OpaquePointer(bitPattern: network))
                    return Page(
                        navigate: { try await view.load($0) }, evaluate: { try await view.evaluate($0) },
                        close: {
                            await view.tearDown()
                            _ = try? await executor.run { g_object_unref(UnsafeMutableRawPointer(bitPattern: network)) }
                        })
                #else
                    fatalError("not built")
                #endif
            }
        }

        private static func open(
            _ engine: BrowserEngine, transport: EngineTransport, registry: SchemeRegistry
        ) async throws -> EngineSession {
            switch engine {
            case .chromium:
                #if Chromium
                    let browser = try await ChromiumBrowser.launch()
                    do {
                        let adapter = ChromiumSchemeAdapter(
                            registry: registry, browser: browser,
                            configuration: ChromiumAdapterConfiguration(
                                origins: [virtualOrigin],
                                transport: transport == .interception ? .interception : .automatic))
                        try await adapter.start()
                        let page = try await browser.newPage()
                        return EngineSession(
                            engine: engine, transport: transport, registry: registry, origin: "https://app.localhost",
                            loopbackPort: browser.connection.loopbackOrigin?.port,
                            navigate: { try await page.navigate(to: $0) },
                            evaluate: { try await page.evaluate($0) },
                            statistics: { adapter.statistics },
                            close: {
                                await adapter.stop()
                                await browser.close()
                            })
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("not built")
                #endif
            case .firefox:
                #if Firefox
                    let browser = try await FirefoxBrowser.launch()
                    do {
                        let adapter = FirefoxSchemeAdapter(
                            registry: registry, browser: browser,
                            configuration: FirefoxAdapterConfiguration(
                                origins: [virtualOrigin],
                                transport: transport == .interception ? .interception : .automatic))
                        try await adapter.start()
                        let page = try await browser.newPage()
                        return EngineSession(
                            engine: engine, transport: transport, registry: registry, origin: "https://app.localhost",
                            loopbackPort: browser.connection.loopbackOrigin?.port,
                            navigate: { try await page.navigate(to: $0) },
                            evaluate: { try await page.evaluate($0) },
                            statistics: { adapter.statistics },
                            close: {
                                await adapter.stop()
                                await browser.close()
                            })
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("not built")
                #endif
            case .webkit:
                #if WebKitGTK
                    let executor = try WebKitEngine.executor()
                    // A web context of its own: WebKit takes one registration per scheme and context.
                    let adapter = try await executor.run {
                        WebKitSchemeAdapter(
                            registry: registry, context: webkit_web_context_new(), executor: executor,
                            mediaExtension: WebKitSchemeAdapter.defaultMediaExtension)
                    }
                    let network: UInt
                    let origin: String
                    if transport == .loopbackOrigin {
                        network = UInt(
                            bitPattern: UnsafeMutableRawPointer(
                                try await adapter.httpsNetworkSession(origins: [virtualOrigin])))
                        origin = "https://app.localhost"
                    } else {
                        network = try await executor.run {
                            UInt(bitPattern: UnsafeMutableRawPointer(webkit_network_session_new_ephemeral()))
                        }
                        origin = "app://localhost"
                    }
                    nonisolated(unsafe) let context = adapter.context
                    let view = try await WebViewSession.make(
                        executor: executor, blankURL: "about:blank", context: context,
                        networkSession: OpaquePointer(bitPattern: network))
                    return EngineSession(
                        engine: engine, transport: transport, registry: registry, origin: origin,
                        loopbackPort: adapter.state.withLock { $0.loopback?.port },
                        navigate: { try await view.load($0) },
                        evaluate: { try await view.evaluate($0) },
                        statistics: { adapter.statistics },
                        close: {
                            await view.tearDown()
                            await adapter.stopHTTPS()
                            _ = try? await executor.run { g_object_unref(UnsafeMutableRawPointer(bitPattern: network)) }
                        })
                #else
                    fatalError("not built")
                #endif
            }
        }
    }

    #if WebKitGTK
        /// The one GLib main thread of this test process (GTK can start once per process).
        enum WebKitEngine {
            static let glib = Result { try GLibMainThread() }

            static func executor() throws -> GLibExecutor { try glib.get().executor }
        }
    #endif

    /// A page with nothing in it, at `/blank.html`: where the tests' scripts run on the origin.
    let blankPage = ClosureHandler(name: "blank") { _, writer in
        try await writer.respond(
            SchemeResponse(status: .ok, mimeType: "text/html", textEncodingName: "utf-8"),
            body: Data("<!doctype html><link rel=icon href=\"data:,\"><title>blank</title>".utf8))
        return .handled
    }
#endif
