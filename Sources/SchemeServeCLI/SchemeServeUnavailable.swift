// Without the package trait `Server` the command has nothing to run: it says how to get it.
#if !Server
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The `schemeserve` executable built without the trait `Server`.
    @main
    enum SchemeServeUnavailable {
        static func main() {
            print(
                "schemeserve: error: built without the package trait `Server`; build with `swift build` (it is a default trait) or add `Server` to `--traits`"
            )
            exit(64)
        }
    }
#endif
