import Foundation

/// How long a shaped handler waits before its response starts: nothing, a fixed time, or a draw
/// from a seeded distribution (the time to first byte of a real network).
///
/// A distribution draws one delay per request from a generator seeded with its `seed`, owned by the
/// ``ShapedHandler``: the same handler asked the same requests in the same order waits the same
/// delays on every run.
///
/// ```swift
/// let jittery = files.shaped(NetworkConditions(latency: .uniform(.milliseconds(40)...(.milliseconds(120)), seed: 7)), clock: clock)
/// let mobile = files.shaped(NetworkConditions(latency: .normal(mean: .milliseconds(300), standardDeviation: .milliseconds(80), seed: 1)))
/// ```
public struct NetworkLatency: Sendable, Hashable, CustomStringConvertible {
    enum Distribution: Sendable, Hashable {
        case fixed(Duration)
        case uniform(Duration, Duration)
        case normal(mean: Duration, standardDeviation: Duration)
    }

    let distribution: Distribution
    /// The seed of the generator a distribution draws from (unused by ``none`` and ``fixed(_:)``).
    package let seed: UInt64

    /// No delay.
    public static let none = NetworkLatency(distribution: .fixed(.zero), seed: 0)

    /// Always `delay` (negative delays count as zero).
    public static func fixed(_ delay: Duration) -> NetworkLatency {
        NetworkLatency(distribution: .fixed(max(.zero, delay)), seed: 0)
    }

    /// A delay drawn uniformly from `range` for each request (negative bounds count as zero).
    ///
    /// - Parameters:
    ///   - range: The smallest and largest delay.
    ///   - seed: The generator's seed. Default: 0.
    public static func uniform(_ range: ClosedRange<Duration>, seed: UInt64 = 0) -> NetworkLatency {
        NetworkLatency(distribution: .uniform(max(.zero, range.lowerBound), max(.zero, range.upperBound)), seed: seed)
    }

    /// A delay drawn from a normal distribution for each request, never below zero (a draw below
    /// zero waits zero).
    ///
    /// - Parameters:
    ///   - mean: The mean delay.
    ///   - standardDeviation: The spread.
    ///   - seed: The generator's seed. Default: 0.
    public static func normal(mean: Duration, standardDeviation: Duration, seed: UInt64 = 0) -> NetworkLatency {
        NetworkLatency(distribution: .normal(mean: mean, standardDeviation: max(.zero, standardDeviation)), seed: seed)
    }

    /// Whether every draw is zero.
    package var isNone: Bool { distribution == .fixed(.zero) }

    /// Draws one delay from `generator` (a fixed latency draws nothing).
    package func sample(using generator: inout some RandomNumberGenerator) -> Duration {
        switch distribution {
        case .fixed(let delay):
            return delay
        case .uniform(let lower, let upper):
            guard upper > lower else { return lower }
            let unit = Double(generator.next() >> 11) / Double(1 << 53)  // [0, 1)
            return lower + .seconds((upper - lower).seconds * unit)
        case .normal(let mean, let standardDeviation):
            // Box–Muller: two uniform draws give one standard normal draw.
            let first = (Double(generator.next() >> 11) + 1) / Double(1 << 53)  // (0, 1]
            let second = Double(generator.next() >> 11) / Double(1 << 53)
            let standard = (-2 * log(first)).squareRoot() * cos(2 * Double.pi * second)
            let seconds = mean.seconds + standardDeviation.seconds * standard
            return seconds > 0 ? .seconds(seconds) : .zero
        }
    }

    /// `none`, `fixed(…)`, `uniform(…...…, seed: …)` or `normal(mean: …, sd: …, seed: …)`.
    public var description: String {
        switch distribution {
        case .fixed(let delay): delay == .zero ? "none" : "fixed(\(delay))"
        case .uniform(let lower, let upper): "uniform(\(lower)...\(upper), seed: \(seed))"
        case .normal(let mean, let deviation): "normal(mean: \(mean), sd: \(deviation), seed: \(seed))"
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
