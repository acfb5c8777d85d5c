#if Chromium
    package import SchemeKit
    import SchemeKitBrowserSupport

    /// The adapters intercepting on one connection, and the one `Fetch.enable` that serves them all.
    ///
    /// Chromium keeps one set of Fetch patterns per session: a second `Fetch.enable` on the browser
    /// session replaces the first one's patterns, and `Fetch.disable` ends every adapter's
    /// interception. So every ``ChromiumSchemeAdapter`` on a connection registers here (a renderer
    /// service with a registry per tenant, a test runner with one per test, on one browser):
    /// - the browser session's patterns are always the union of the running adapters' origins, and
    ///   Fetch is disabled only when the last adapter stops;
    /// - updates reach Chromium one after another, each with the adapters running when it is sent,
    ///   so the last one sent is always the current set;
    /// - every adapter sees every `Fetch.requestPaused`, and ``decision(for:adapter:)`` gives each
    ///   paused request to exactly one of them: the first registered adapter whose origins name it
    ///   serves it; a request no adapter's origins name is continued by the first registered one.
    package final class ChromiumFetchInterception: Sendable {
        /// What an adapter does with a paused request.
        package enum Decision: Sendable, Equatable {
            /// Serve it from its registry, at this registry URL.
            case serve(registryURL: String)
            /// Let it go to the network (`Fetch.continueRequest`): no adapter's origins name it.
            case `continue`
            /// Leave it to the adapter that owns it.
            case ignore
        }

        private struct Registered {
            var adapter: ObjectIdentifier
            var origins: [VirtualOrigin]
        }

        private struct State {
            var registered: [Registered] = []
            /// The last update sent or queued: the next one waits for it.
            var tail: Task<Result<Void, any Error>, Never>?
        }

        private let state = Locked(State())

        package init() {}

        /// Whether any adapter is registered.
        package var isEmpty: Bool { state.withLock { $0.registered.isEmpty } }

        /// Registers an adapter's origins (after those already registered) and sends the union.
        ///
        /// - Throws: `EngineError` when Chromium refuses the patterns; the adapter is then not
        ///   registered.
        package func add(
            _ adapter: ObjectIdentifier, origins: [VirtualOrigin], on connection: ChromiumConnection
        ) async throws {
            state.withLock { state in
                state.registered.removeAll { $0.adapter == adapter }
                state.registered.append(Registered(adapter: adapter, origins: origins))
            }
            do {
                try await update(on: connection)
            } catch {
                remove(adapter)
                _ = try? await update(on: connection)
                throw error
            }
        }

        /// Unregisters an adapter at once; ``update(on:)`` then tells Chromium.
        ///
        /// - Returns: Whether it was registered.
        @discardableResult
        package func remove(_ adapter: ObjectIdentifier) -> Bool {
            state.withLock { state in
                let count = state.registered.count
                state.registered.removeAll { $0.adapter == adapter }
                return state.registered.count != count
            }
        }

        /// Who handles a paused request for `url`, as seen by `adapter`.
        package func decision(for url: String, adapter: ObjectIdentifier) -> Decision {
            state.withLock { state in
                for registered in state.registered {
                    guard let registryURL = registered.origins.registryURL(for: url) else { continue }
                    return registered.adapter == adapter ? .serve(registryURL: registryURL) : .ignore
                }
                let first = state.registered.first?.adapter
                return first == nil || first == adapter ? .continue : .ignore
            }
        }

        /// Sends the registered adapters' patterns (`Fetch.enable`), or `Fetch.disable` when none
        /// is left, after every earlier update; returns when Chromium has answered this one.
        package func update(on connection: ChromiumConnection) async throws {
            let mine = state.withLock { state in
                let previous = state.tail
                let mine = Task { () -> Result<Void, any Error> in
                    _ = await previous?.value
                    // The set as it is now, not as it was when this update was asked for.
                    let patterns = self.patterns
                    do {
                        if patterns.isEmpty {
                            try await connection.send("Fetch.disable")
                        } else {
                            try await connection.send(CDP.FetchEnable(urlPatterns: patterns))
                        }
                        return .success(())
                    } catch {
                        return .failure(error)
                    }
                }
                state.tail = mine
                return mine
            }
            try await mine.value.get()
        }

        /// Every registered origin's pattern once, in registration order.
        private var patterns: [String] {
            var seen = Set<String>()
            return state.withLock { $0.registered.flatMap { $0.origins.map { "https://\($0.host)/*" } } }
                .filter { seen.insert($0).inserted }
        }
    }

#endif
