// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation

    /// Names the calling thread for the kernel (`top -H`, `/proc/<pid>/task/<tid>/comm`), which
    /// Foundation's `Thread.name` does not do on Linux. At most 15 bytes are kept. Does nothing
    /// where `/proc/thread-self` is missing.
    enum ThreadName {
        static func set(_ name: String) {
            #if os(Linux)
                guard let handle = FileHandle(forWritingAtPath: "/proc/thread-self/comm") else { return }
                try? handle.write(contentsOf: Data(name.utf8.prefix(15)))
                try? handle.close()
            #endif
        }
    }
#endif
