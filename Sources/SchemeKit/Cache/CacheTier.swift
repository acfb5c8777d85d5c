/// Which tier of a cache answered a lookup.
public enum CacheTier: String, Sendable, Hashable {
    /// The in-memory tier (``MemoryStorage``).
    case memory
    /// The on-disk tier (``DiskStorage``).
    case disk
}
