// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import Testing

    @testable import SchemeKitWebKitGTK

    /// The media extension's directories do not pile up: a process that ended without removing
    /// its own (headless-render ends with `_exit`) has it removed by the next one.
    struct WebKitMediaDirectoryTests {
        @Test func theDirectoriesOfEndedProcessesAreRemovedAndLiveOnesKept() throws {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("media-dirs-\(UUID())")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: temporary) }
            let ended = Process()
            ended.executableURL = URL(fileURLWithPath: "/bin/true")
            try ended.run()
            ended.waitUntilExit()
            let names = [
                "schemekit-webkit-media-\(ended.processIdentifier)-7",  // its process is gone
                "schemekit-webkit-media-\(getpid())-7",  // this process's own
                "schemekit-webkit-media-1-7",  // init's: alive
                "other-\(ended.processIdentifier)-7",
            ]
            for name in names {
                let directory = temporary.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data("so".utf8).write(to: directory.appendingPathComponent("lib.so"))
            }
            WebKitMediaDirectory.removeAbandoned(in: temporary)
            let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
            #expect(left == names.dropFirst().sorted())
        }
    }
#endif
