#if Chromium || Firefox
    package import Foundation

    /// The temporary profile directory of a browser SchemeKit launched.
    package enum ProfileDirectory {
        /// Removes `directory`, trying again while the browser's last helper processes, which end after
        /// the browser process that was reaped, still write into it (at most two seconds).
        package static func remove(_ directory: URL) async {
            for _ in 0..<40 {
                try? FileManager.default.removeItem(at: directory)
                guard FileManager.default.fileExists(atPath: directory.path) else { return }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }
#endif
