// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import NIOCore

    /// How many cores this process may run on, for the default number of event loops.
    ///
    /// SwiftNIO's `System.coreCount` counts the machine's cores within the cgroup's `cpuset` and CPU
    /// quota, but not the process's CPU affinity mask (`taskset`, systemd's `CPUAffinity=`,
    /// `numactl`). On Linux the count here is also at most the CPUs in that mask, as Go's
    /// `GOMAXPROCS` and Rust's `available_parallelism` are: two event loops on one allowed core only
    /// take turns on it, each connection waiting while the other loop runs.
    enum UsableCores {
        /// The count; at least 1.
        static var count: Int {
            let cores = System.coreCount
            #if os(Linux)
                // `Cpus_allowed:\t00000000,00000003`: the affinity mask in hex, in groups of 32 bits.
                guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
                else { return cores }
                let allowed = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, digit in
                    count + (digit.hexDigitValue?.nonzeroBitCount ?? 0)
                }
                return allowed == 0 ? cores : max(1, min(cores, allowed))
            #else
                return max(1, cores)
            #endif
        }
    }
#endif
