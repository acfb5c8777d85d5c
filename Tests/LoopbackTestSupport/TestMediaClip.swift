public import Foundation

/// A VP8 WebM clip made with GStreamer (`gst-launch-1.0`, from Debian's `gstreamer1.0-tools` and
/// `gstreamer1.0-plugins-good`, which `Scripts/test.sh` installs): 160×120 at 30 fps, a test
/// pattern, of a whole number of seconds.
public enum TestMediaClip {
    /// The bytes of a clip `seconds` long.
    ///
    /// - Throws: `CocoaError` when `gst-launch-1.0` is missing or fails.
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
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return try Data(contentsOf: file)
    }
}
