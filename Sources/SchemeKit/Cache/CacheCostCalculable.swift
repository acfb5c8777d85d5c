package import Foundation

/// A value that knows how many bytes it costs to keep in a ``MemoryStorage``.
package protocol CacheCostCalculable: Sendable {
    /// The cost in bytes, counted against ``MemoryStorage/Config/totalCostLimit``.
    var cacheCost: Int { get }
}

extension Data: CacheCostCalculable {
    /// The number of bytes.
    package var cacheCost: Int { count }
}
