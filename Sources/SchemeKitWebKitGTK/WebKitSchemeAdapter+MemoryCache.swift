// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import SchemeKit

    extension WebKitSchemeAdapter {
        /// Empties WebKit's in-memory resource cache in every web process of a network session, so the
        /// next loads ask the adapter again for every subresource.
        ///
        /// WebKit keeps a custom-scheme subresource (a script, a style sheet, an image) in its memory
        /// cache for the life of the web process unless the response says `Cache-Control: no-cache` or
        /// `no-store` — the same rule it applies to `file://`. A handler that lets WebKit cache
        /// (for instance `LocalFileHandler` with `cacheControl: "max-age=31536000, immutable"`
        /// over an offline package, whose files never change within a version) makes warm loads
        /// skip those requests entirely; call this after activating a new version, so no view mixes
        /// the old version's cached files with the new one's pages. Main resources (the pages
        /// themselves) are never cached.
        ///
        /// Callable from any task; WebKit is called on the adapter's executor.
        ///
        /// - Parameter networkSession: The `WebKitNetworkSession` whose cache to empty. Default: `nil`,
        ///   WebKit's default session and the session of every live ``WebViewSession`` that has one of
        ///   its own (the views made without a `networkSession`).
        /// - Throws: `EngineError` when WebKit reports a failure (the other sessions are still emptied).
        public func clearMemoryCache(networkSession: OpaquePointer? = nil) async throws {
            let requested = UInt(bitPattern: networkSession)
            // Each session is referenced until its clear completes: a view may close meanwhile.
            let sessions: [UInt] = try await executor.run {
                let sessions =
                    requested != 0
                    ? [requested]
                    : [UInt(bitPattern: webkit_network_session_get_default())] + WebViewSession.ownNetworkSessions
                for session in sessions { g_object_ref(UnsafeMutableRawPointer(bitPattern: session)) }
                return sessions
            }
            var failure: (any Error)?
            for session in sessions {
                do { try await clearMemoryCache(ofReferenced: session) } catch { failure = failure ?? error }
            }
            if let failure { throw failure }
        }

        /// Empties one session's memory cache and releases the reference the caller took on it.
        private func clearMemoryCache(ofReferenced session: UInt) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    let manager = webkit_network_session_get_website_data_manager(OpaquePointer(bitPattern: session))
                    let completion = GAsyncCompletion { source, result in
                        var error: UnsafeMutablePointer<GError>?
                        let cleared =
                            webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error) != 0
                        g_object_unref(UnsafeMutableRawPointer(bitPattern: session))
                        if cleared {
                            continuation.resume()
                        } else {
                            continuation.resume(throwing: EngineError.websiteData(consumeError(error)))
                        }
                    }
                    webkit_website_data_manager_clear(
                        manager, WEBKIT_WEBSITE_DATA_MEMORY_CACHE, 0, nil, GAsyncCompletion.callback,
                        completion.retainedPointer())
                }
            }
        }
    }
#endif
