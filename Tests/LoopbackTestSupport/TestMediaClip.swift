public import Foundation

/// A VP8 WebM clip made with GStreamer (`gst-launch-1.0`, from Debian's `gstreamer1.0-tools` and
/// `gstreamer1.0-plugins-good`, which `Scripts/test.sh` installs): 160×120 at 30 fps, a test
/// pattern, of a whole number of seconds.
public enum TestMediaClip {
    /// The bytes of a clip `seconds` long.
    ///
    /// - Throws: `CocoaError` when `gst-launch-1.0` is missing, fails, runs over two minutes, or
    ///   leaves no WebM.
    public static func webm(seconds: Int) throws -> Data {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("schemekit-clip-\(getpid())-\(UUID().uuidString).webm")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=\(seconds * 30)", "!",
            "video/x-raw,width=160,height=120,framerate=30/1", "!", "vp8enc", "!", "webmmux", "!", "filesink",
            "location=\(file.path)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Not `waitUntilExit()`: Foundation learns of the exit by reaping the child, and when a
        // test process has started GLib (WebKitGTK's harness), GLib may reap it first; the wait
        // then never returned (a hung WebKitGTK suite). Polled instead, bounded: the process ended
        // when Foundation saw it exit or when it no longer exists at all.
        let pid = process.processIdentifier
        let ended = eventuallyBlocking(timeout: .seconds(120)) { !process.isRunning || processIsGone(pid) }
        if !ended {
            process.terminate()
            throw CocoaError(.fileWriteUnknown)
        }
        if !process.isRunning, process.terminationStatus != 0 { throw CocoaError(.fileWriteUnknown) }
        // Reaped elsewhere, the status is lost: the file must then be a whole WebM (EBML magic).
        let data = try Data(contentsOf: file)
        guard data.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }
}
