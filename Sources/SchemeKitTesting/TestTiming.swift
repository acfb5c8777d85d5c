#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Time bounds for tests that must also pass under ThreadSanitizer, which slows code down 5–15×
/// (and a whole suite under it, far more: every test shares the slowed cooperative pool).
///
/// A bound in a test is there to catch a hang, not to measure speed. Scale it, and it keeps doing
/// that under `swift test --sanitize=thread` without failing on mere slowness:
///
/// ```swift
/// let engine = try ScriptedEngine(serving: handler, timeout: TestTiming.scaled(.seconds(10)))
/// ```
///
/// ``ScriptedEngine``'s default timeout is scaled already.
public enum TestTiming {
    /// Whether this process runs under ThreadSanitizer (its runtime is linked in).
    package static let isThreadSanitized: Bool = {
        #if canImport(Glibc) || canImport(Darwin)
            // RTLD_DEFAULT: every image loaded in the process.
            let everything = UnsafeMutableRawPointer(bitPattern: 0)
            #if canImport(Darwin)
                let handle = UnsafeMutableRawPointer(bitPattern: -2)
            #else
                let handle = everything
            #endif
            return dlsym(handle, "__tsan_init") != nil
        #else
            return false
        #endif
    }()

    /// How much longer bounds are: 10 under ThreadSanitizer, else 1.
    package static var factor: Int { isThreadSanitized ? 10 : 1 }

    /// `duration` times 10 under ThreadSanitizer, else `duration`.
    public static func scaled(_ duration: Duration) -> Duration {
        duration * factor
    }
}
