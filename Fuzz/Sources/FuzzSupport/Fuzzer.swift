internal import CFuzzerDriver
internal import Foundation

/// Runs libFuzzer with a Swift closure as the per-input callback.
///
/// Each fuzz target's `@main` calls ``run(_:)``, which hands the command line to libFuzzer's
/// driver (`LLVMFuzzerRunDriver`). The program is linked with `-sanitize=fuzzer,address`, so the
/// driver, coverage feedback and AddressSanitizer come from the toolchain's runtime.
public enum Fuzzer {
    /// The callback libFuzzer calls; set once, before the driver starts, and then only read.
    nonisolated(unsafe) private static var body: ((UnsafeRawBufferPointer) -> Void)?

    /// Starts libFuzzer with the process's arguments and exits with its status.
    ///
    /// - Parameter body: Called once per input. A property violation calls ``fail(_:)``, which
    ///   aborts; libFuzzer then saves the input as a reproducer.
    public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput)
        exit(status)
    }

    /// One input: calls the closure ``run(_:)`` was given.
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        guard let body else { fail("Fuzzer.run was not called before the first input") }
        body(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    /// Reports a broken property and aborts, so libFuzzer records the input as a crash.
    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\nFUZZ PROPERTY VIOLATED: \(message)\n".utf8))
        abort()
    }
}

/// Checks a property of the code under test; on failure prints `message` and aborts.
///
/// Unlike `precondition`, this is also checked in optimised builds.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { Fuzzer.fail(message()) }
}

/// libFuzzer's per-input entry point, by the name its runtime expects.
///
/// The runtime's own `main` refers to this symbol, so the link needs it even though the targets
/// start libFuzzer from their `@main` through `LLVMFuzzerRunDriver`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    Fuzzer.testOneInput(data, size)
}
