/// Reads `sequence` to its end, waiting at most `limit`: what it yielded, and whether it ended by
/// itself (`false` when the limit cut it short). For a test that a sequence ends: one that never
/// does fails the test after `limit` instead of hanging it.
public func readToEnd<Element: Sendable>(
    _ sequence: AsyncStream<Element>, within limit: Duration
) async -> (elements: [Element], ended: Bool) {
    let reader = Task {
        var elements: [Element] = []
        for await element in sequence { elements.append(element) }
        return elements
    }
    let watchdog = Task {
        try await Task.sleep(for: limit)  // the deadline: cancelled once the sequence ended
        reader.cancel()
    }
    let elements = await reader.value
    watchdog.cancel()
    let fired = (try? await watchdog.value) != nil
    return (elements, !fired)
}
