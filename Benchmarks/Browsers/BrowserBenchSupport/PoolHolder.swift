/// What holds a pooled page while a benchmark uses it (a session pool hands pages to holders).
public final class PoolHolder: Sendable {
    /// A new holder.
    public init() {}
}
