#if Chromium || Firefox
    /// Runs `body`, throwing `timeoutError()` when it takes longer than `limit` (the body is then cancelled).
    package func withDeadline<T: Sendable>(
        _ limit: Duration,
        orThrow timeoutError: @escaping @Sendable () -> any Error,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw timeoutError()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
#endif
