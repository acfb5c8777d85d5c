#if Chromium
    public import SchemeKit

    extension ChromiumPage: PoolableSession {
        /// Makes the page fit for a new holder: navigates to `about:blank`, then, best effort,
        /// forgets its history.
        ///
        /// Cookies, storage and the HTTP cache belong to the browser, shared by all its pages, and are
        /// kept (as a WebKit view keeps its context's): clearing them here would reach into pages
        /// other holders are using, and a warm page would load its subresources cold. To isolate
        /// holders from each other, give each its own browser.
        ///
        /// - Throws: `EngineError` when the page cannot navigate to `about:blank` within 15
        ///   seconds (the pool then replaces it).
        public nonisolated(nonsending) func reset() async throws {
            try await navigate(to: "about:blank", timeout: .seconds(15))
            _ = try? await send("Page.resetNavigationHistory")
        }

        /// Whether the page still answers a trivial evaluation within five seconds.
        public nonisolated(nonsending) func isHealthy() async -> Bool {
            guard !connection.isClosed else { return false }
            let page = self
            return (try? await withDeadline(.seconds(5)) { try await page.evaluate("1") == .number(1) }) ?? false
        }

        /// Closes the page's target.
        public nonisolated(nonsending) func tearDown() async {
            try? await close()
        }
    }

    extension ChromiumBrowser {
        /// A `SessionPool` of this browser's pages: pre-warmed, reset (`about:blank`,
        /// history) and health-checked between holders.
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
        public func makePagePool(configuration: SessionPoolConfiguration = SessionPoolConfiguration()) -> SessionPool<
            ChromiumPage
        > {
            SessionPool(configuration: configuration) { [self] in try await self.newPage() }
        }
    }
#endif
