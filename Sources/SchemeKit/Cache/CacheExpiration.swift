public import Foundation

/// When a cache entry stops being served.
///
/// Both cache tiers (``MemoryStorage`` and ``DiskStorage``) take an expiration per entry. An
/// expired entry is never returned: it is dropped the next time it is looked up, when the tier
/// needs room, or by `removeExpired()`.
///
/// ```swift
/// cache.put(png, mimeType: "image/png", forKey: url, expiration: .seconds(3600))
/// ```
public enum CacheExpiration: Sendable, Hashable {
    /// The entry never expires; only eviction (size and count limits) or removal drops it.
    case never
    /// The entry expires this long after it is stored. Zero or negative: already expired.
    case after(Duration)
    /// The entry expires at this wall-clock date.
    case date(Date)

    /// The entry expires `seconds` after it is stored.
    public static func seconds(_ seconds: Double) -> CacheExpiration {
        .after(.milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The moment the entry expires when stored at `now`, or `nil` for ``never``.
    package func expiryDate(storedAt now: Date) -> Date? {
        switch self {
        case .never: nil
        case .after(let duration): now.addingTimeInterval(duration.timeInterval)
        case .date(let date): date
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
