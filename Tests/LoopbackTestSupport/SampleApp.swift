public import Foundation
public import SchemeKit

/// The repository's sample app (`Samples/app`) as the engine tests load it: where it is, and what
/// its page asks for.
public enum SampleApp {
    /// The sample app's directory.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/app")

    /// The paths `index.html` loads whose outcome `window.sampleReport` waits for: the page, its
    /// stylesheet, two modules, two images (the logo is the icon too), the web font, the JSON, the
    /// missing file (a 404) and the clip's metadata (the WebM, the first source every engine plays).
    /// A page whose report passed asked for each of them.
    public static let reportedPaths: Set<String> = [
        "/index.html", "/css/style.css", "/js/main.mjs", "/js/util.mjs", "/img/logo.png", "/img/mandelbrot.jpg",
        "/fonts/dejavu-sans-subset.woff2", "/data/app.json", "/data/does-not-exist.json", "/media/clip.webm",
    ]

    /// The one other path the page may ask for: the video's poster, which the report does not wait for.
    public static let posterPath = "/media/clip-poster.jpg"

    /// The distinct paths of the `records` that were answered, less the poster: for a page whose
    /// report passed, exactly ``reportedPaths``.
    public static func answeredPaths(_ records: [SchemeRequestRecord]) -> Set<String> {
        Set(
            records.filter { $0.outcome == .answered }.compactMap { URL(string: $0.url)?.path }
                .filter { $0 != posterPath })
    }
}
