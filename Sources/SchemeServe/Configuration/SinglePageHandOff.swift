// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import SchemeKit

    /// With `--spa` and `--fallback` both: hands a page navigation the origin does not have (its
    /// `404`) on to the single-page fallback, so the origin answers every path it has first, as a
    /// dev server's proxy does before its history fallback (Vite, webpack-dev-server, nginx's
    /// `try_files`). Everything else, navigations the origin answers included (a server-rendered
    /// page, a login redirect, a download), passes through unchanged.
    struct SinglePageHandOff: SchemeHandler {
        let wrapped: any SchemeHandler

        var name: String { wrapped.name }
        var supportedMethods: Set<HTTPRequest.Method> { wrapped.supportedMethods }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            guard request.method == .get, NavigationRequest.isNavigation(request.headerFields) == true else {
                return try await wrapped.handle(request, writer: writer)
            }
            let watching = NotFoundWriter(base: writer)
            let outcome = try await wrapped.handle(request, writer: watching)
            return watching.handedOff ? .passed : outcome
        }

        /// Forwards a response, unless its head is a `404`: then nothing of it reaches the engine.
        final class NotFoundWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
            let base: Base
            private let dropping = Locked(false)

            init(base: Base) { self.base = base }

            /// Whether the response was a 404 and dropped.
            var handedOff: Bool { dropping.withLock { $0 } }

            func writeHead(_ response: SchemeResponse) async throws {
                if response.status == .notFound {
                    dropping.withLock { $0 = true }
                    return
                }
                try await base.writeHead(response)
            }

            func write(_ body: SchemeBody) async throws {
                guard !handedOff else { return }
                try await base.write(body)
            }

            func finish() async throws {
                guard !handedOff else { return }
                try await base.finish()
            }

            func fail(_ error: any Error) async throws {
                guard !handedOff else { return }
                try await base.fail(error)
            }
        }
    }
#endif
