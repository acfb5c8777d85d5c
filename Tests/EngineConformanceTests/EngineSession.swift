// Built with the package trait `Chromium`, `Firefox` or both: each test runs on every browser built.
#if Chromium || Firefox
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

    /// A browser engine of this build, as the conformance suites run it.
    enum BrowserEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case chromium
        case firefox

        /// The engines of this build.
        static let built: [BrowserEngine] = {
            var engines: [BrowserEngine] = []
            #if Chromium
                engines.append(.chromium)
            #endif
            #if Firefox
                engines.append(.firefox)
            #endif
            return engines
        }()

        var testDescription: String { rawValue }
    }

    /// A launched browser, an adapter serving `https://app.localhost/` from a registry, and a page:
    /// what the conformance tests drive, the same way on every engine.
    ///
    /// Made and closed by ``with(_:transport:register:_:)`` only, so the browser is closed before
    /// the test returns, whatever the test does.
    struct EngineSession: Sendable {
        let engine: BrowserEngine
        let registry: SchemeRegistry
        /// The virtual origin's URL prefix (`https://app.localhost`).
        let origin = "https://app.localhost"
        /// The port of the browser's loopback origin, when it has one.
        let loopbackPort: Int?
        /// Whether the adapter serves from the loopback origin (`false`: interception).
        let servesFromLoopback: Bool
        let navigate: @Sendable (String) async throws -> Void
        let evaluate: @Sendable (String) async throws -> JavaScriptValue
        let statistics: @Sendable () -> EngineAdapterStatistics
        private let close: @Sendable () async -> Void

        static let virtualOrigin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// Runs `body` with a new session on `engine`, then closes the adapter and the browser,
        /// also when `body` throws.
        static func with<T: Sendable>(
            _ engine: BrowserEngine, transport: BrowserTransport = .automatic,
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

        /// Runs `body` with a page of a new browser on `engine` that no adapter serves (to load the
        /// same files from a web server), then closes the browser, also when `body` throws.
        static func withBrowser<T: Sendable>(
            _ engine: BrowserEngine,
            _ body: (
                _ navigate: @Sendable (String) async throws -> Void,
                _ evaluate: @Sendable (String) async throws -> JavaScriptValue
            ) async throws -> T
        ) async throws -> T {
            switch engine {
            case .chromium:
                #if Chromium
                    let browser = try await ChromiumBrowser.launch()
                    do {
                        let page = try await browser.newPage()
                        let result = try await body(
                            { try await page.navigate(to: $0) }, { try await page.evaluate($0) })
                        await browser.close()
                        return result
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("built without the Chromium trait")
                #endif
            case .firefox:
                #if Firefox
                    let browser = try await FirefoxBrowser.launch()
                    do {
                        let page = try await browser.newPage()
                        let result = try await body(
                            { try await page.navigate(to: $0) }, { try await page.evaluate($0) })
                        await browser.close()
                        return result
                    } catch {
                        await browser.close()
                        throw error
                    }
                #else
                    fatalError("built without the Firefox trait")
                #endif
            }
        }

        /// Navigates to `path` on the origin (`/blank.html` by default: a page with nothing in it,
        /// which the tests' registries serve).
        func open(_ path: String = "/blank.html") async throws {
            try await navigate(origin + path)
        }

        private static func open(
            _ engine: BrowserEngine, transport: BrowserTransport, registry: SchemeRegistry
        ) async throws -> EngineSession {
            switch engine {
            case .chromium:
                #if Chromium
                    let browser = try await ChromiumBrowser.launch()
                    do {
                        let adapter = ChromiumSchemeAdapter(
                            registry: registry, browser: browser,
                            configuration: ChromiumAdapterConfiguration(origins: [virtualOrigin], transport: transport))
                        try await adapter.start()
                        let page = try await browser.newPage()
                        let loopback = browser.connection.loopbackOrigin
                        return EngineSession(
                            engine: engine, registry: registry, loopbackPort: loopback?.port,
                            servesFromLoopback: loopback != nil && transport == .automatic,
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
                    fatalError("built without the Chromium trait")
                #endif
            case .firefox:
                #if Firefox
                    let browser = try await FirefoxBrowser.launch()
                    do {
                        let adapter = FirefoxSchemeAdapter(
                            registry: registry, browser: browser,
                            configuration: FirefoxAdapterConfiguration(origins: [virtualOrigin], transport: transport))
                        try await adapter.start()
                        let page = try await browser.newPage()
                        let loopback = browser.connection.loopbackOrigin
                        return EngineSession(
                            engine: engine, registry: registry, loopbackPort: loopback?.port,
                            servesFromLoopback: loopback != nil && transport == .automatic,
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
                    fatalError("built without the Firefox trait")
                #endif
            }
        }
    }

    /// A page with nothing in it, at `/blank.html`: where the tests' scripts run on the origin.
    let blankPage = ClosureHandler(name: "blank") { _, writer in
        try await writer.respond(
            SchemeResponse(status: .ok, mimeType: "text/html", textEncodingName: "utf-8"),
            body: Data("<!doctype html><link rel=icon href=\"data:,\"><title>blank</title>".utf8))
        return .handled
    }

    /// A one-shot gate a handler waits at until the test opens it: a state the test controls, so a
    /// test can tell "the page got the first part while the rest was still held" without timing.
    final class Gate: Sendable {
        private struct State {
            var open = false
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        private let state = Mutex(State())

        /// Waits until ``open()`` (at once if it was opened already).
        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// Lets every waiter through, now and later.
        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
#endif
