// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import Hummingbird
    import Logging
    import NIOCore
    import NIOEmbedded
    import SchemeKit
    import SchemeKitTesting
    import Synchronization
    import Testing

    @testable import SchemeServe

    /// The responder waiting at the bridge for a head that never comes must return once cancelled.
    @Suite(.timeLimit(.minutes(1)))
    struct SchemeResponderCancellationTests {
        @Test func cancellingBeforeTheHeadEndsTheResponder() async throws {
            let hanging = HangingHandler()
            let registry = SchemeRegistry()
            try registry.register(hanging, for: "app")
            let responder = SchemeResponder(
                configuration: ServeConfiguration(root: URL(filePath: "/")), registry: registry, accessLog: nil)
            let context = ServeRequestContext(
                source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
            let request = Request(
                head: HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/never"),
                body: RequestBody(buffer: ByteBuffer()))

            let returned = Flag()
            let responding = Task {
                let response = try? await responder.respond(to: request, context: context)
                returned.set()
                return response?.status
            }
            // Wait until the handler runs and the responder waits for its head.
            for _ in 0..<500 where hanging.started == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(hanging.started == 1)
            try await Task.sleep(for: .milliseconds(50))
            #expect(!returned.isSet)

            responding.cancel()
            // Poll rather than await the value: a hung responder must fail the test, not hang it.
            for _ in 0..<500 where !returned.isSet {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(returned.isSet, "the responder never returned")
            if returned.isSet {
                let status = await responding.value
                #expect(status != .ok)
            }
            #expect(hanging.cancellations == 1)
        }
    }

    /// A flag set once, readable from any task.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }
#endif
