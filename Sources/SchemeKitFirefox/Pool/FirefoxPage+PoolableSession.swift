#if Firefox
    public import SchemeKit
    import SchemeKitBrowserSupport

    extension FirefoxPage: PoolableSession {
        /// Makes the page fit for a new holder: navigates to `about:blank`.
        ///
        /// Cookies, storage and the HTTP cache belong to the browser, shared by all its pages, and are
        /// kept (as a WebKit view keeps its context's). WebDriver BiDi cannot clear one context's
        /// history; to isolate holders from each other, give each its own browser.
        ///
        /// - Throws: `EngineError` when the page cannot navigate to `about:blank` within 15
        ///   seconds (the pool then replaces it).
        public nonisolated(nonsending) func reset() async throws {
            try await navigate(to: "about:blank", timeout: .seconds(15))
        }

        /// Whether the page still answers a trivial evaluation within five seconds.
        public nonisolated(nonsending) func isHealthy() async -> Bool {
            guard !connection.isClosed else { return false }
            let page = self
            let answer = try? await withDeadline(.seconds(5), orThrow: { EngineError(.timedOut, "health check") }) {
                try await page.evaluate("1")
            }
            return answer == .number(1)
        }

        /// Closes the page's browsing context.
        public nonisolated(nonsending) func tearDown() async {
            try? await close()
        }
    }

    extension FirefoxBrowser {
        /// A `SessionPool` of this browser's pages: pre-warmed, reset (`about:blank`)
        /// and health-checked between holders.
        ///
        /// ```swift
        /// let pool = browser.makePagePool(configuration: .init(warmCount: 2))
        /// await pool.start()
        /// let page = try await pool.acquire(for: self)
        /// try await page.navigate(to: "https://app.localhost/")
        /// try await pool.recycle(page)
        /// ```
        ///
        /// - Parameter configuration: Sizes and limits. Default: `SessionPoolConfiguration`'s defaults.
        public func makePagePool(configuration: SessionPoolConfiguration = SessionPoolConfiguration())
            -> SessionPool<FirefoxPage>
        {
            SessionPool(configuration: configuration) { [self] in try await self.newPage() }
        }
    }
#endif
