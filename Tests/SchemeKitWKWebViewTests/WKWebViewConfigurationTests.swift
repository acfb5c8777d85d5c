import Foundation
import SchemeKit
import SchemeKitTesting
import SchemeKitWKWebViewStandIn
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Registering a registry's schemes on a configuration, and the CORS option.
@MainActor
struct WKWebViewConfigurationTests {
    /// Every scheme of the registry gets the adapter.
    @Test func everySchemeOfTheRegistryIsRegistered() throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a"), for: "app")
        try registry.register(StaticHandler("b"), for: "media")
        let adapter = WKWebViewSchemeAdapter(registry: registry)
        let configuration = WKWebViewConfiguration()
        #expect(try configuration.setURLSchemeHandler(adapter) == ["app", "media"])
        #expect(configuration.urlSchemeHandler(forURLScheme: "app") === adapter)
        #expect(configuration.urlSchemeHandler(forURLScheme: "media") === adapter)
        #expect(configuration.registrationViolations.isEmpty)
    }

    /// A scheme WebKit handles itself (`ftp` passes the registry's own check) is refused with a
    /// typed error, and nothing is registered — not even the valid schemes.
    @Test func aSchemeWebKitHandlesIsRefusedAndNothingIsRegistered() throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a"), for: "app")
        try registry.register(StaticHandler("b"), for: "ftp")
        let configuration = WKWebViewConfiguration()
        #expect(throws: WKSchemeRegistrationError.handledByWebKit("ftp")) {
            try configuration.setURLSchemeHandler(WKWebViewSchemeAdapter(registry: registry))
        }
        #expect(configuration.urlSchemeHandler(forURLScheme: "app") == nil)
        #expect(configuration.registrationViolations.isEmpty)
    }

    /// A second handler for a scheme is refused (WebKit would raise).
    @Test func aSecondHandlerIsRefused() throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a"), for: "app")
        let configuration = WKWebViewConfiguration()
        try configuration.setURLSchemeHandler(WKWebViewSchemeAdapter(registry: registry))
        #expect(throws: WKSchemeRegistrationError.alreadyHandled("app")) {
            try configuration.setURLSchemeHandler(WKWebViewSchemeAdapter(registry: registry))
        }
        #expect(throws: WKSchemeRegistrationError.noSchemes) {
            try WKWebViewConfiguration().setURLSchemeHandler(WKWebViewSchemeAdapter(registry: SchemeRegistry()))
        }
        #expect(configuration.registrationViolations.isEmpty)
    }

    /// With a CORS policy, a response to an allowed origin carries `Access-Control-Allow-Origin`
    /// (that origin) and `Vary: Origin`; another origin gets neither; a preflight from an allowed
    /// origin is answered 204 by the adapter, without the handler.
    @Test func corsFieldsForAllowedOriginsAndThePreflight() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler(methods: [.get, .head, .options]) { request, writer in
                #expect(request.method != .options, "the preflight reached the handler")
                try await writer.respond(.ok, body: Data("{}".utf8))
                return .handled
            }, for: "app")
        let cors = WKCORSPolicy(allowedOrigins: ["https://example.com"], allowedHeaders: ["Content-Type", "X-Token"])
        let engine = try ScriptedWebKit(registry: registry, options: WKSchemeAdapterOptions(cors: cors))
        let allowed = await engine.get("app://localhost/api", headers: ["Origin": "https://example.com"])
        guard case .response(_, let headers) = allowed.events.first else { throw InjectedError("no response") }
        #expect(headers["access-control-allow-origin"] == "https://example.com")
        #expect(headers["vary"] == "Origin")
        let other = await engine.get("app://localhost/api", headers: ["Origin": "https://evil.example"])
        guard case .response(_, let otherHeaders) = other.events.first else { throw InjectedError("no response") }
        #expect(otherHeaders["access-control-allow-origin"] == nil)
        let preflight = engine.start(
            ScriptedWebKit.request(
                "app://localhost/api", method: "OPTIONS",
                headers: ["Origin": "https://example.com", "Access-Control-Request-Method": "POST"]))
        #expect(preflight.status == 204)
        guard case .response(_, let preflightHeaders) = preflight.events.first else {
            throw InjectedError("no response")
        }
        #expect(preflightHeaders["access-control-allow-methods"] == "GET, HEAD, POST")
        #expect(preflightHeaders["access-control-allow-headers"] == "Content-Type, X-Token")
        for task in [allowed, other, preflight] { #expect(task.violations.isEmpty) }
    }

    /// The adapter's source is compiled here unchanged: every file of `Sources/SchemeKitWKWebView`
    /// has its link in `Tests/SchemeKitWKWebViewStandIn`, pointing at it.
    @Test func everyAdapterFileIsCompiledAgainstTheStandIn() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let sources = tests.deletingLastPathComponent().appendingPathComponent("Sources/SchemeKitWKWebView")
        let links = tests.appendingPathComponent("SchemeKitWKWebViewStandIn")
        let manager = FileManager.default
        let adapterFiles = try manager.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(adapterFiles.count >= 8)
        for file in adapterFiles {
            let destination = try? manager.destinationOfSymbolicLink(atPath: links.appendingPathComponent(file).path)
            #expect(destination == "../../Sources/SchemeKitWKWebView/\(file)", "\(file) is not linked")
        }
    }
}
