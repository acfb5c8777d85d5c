/// How a ``HARRecorder`` (or a ``HARReplayHandler`` in update mode) writes what it records.
public struct HARRecordingOptions: Sendable {
    /// The largest body (request or response) written into the HAR file itself; a larger one is
    /// written beside it, named by content (`<fnv1a-64>-<size>.<ext>`) and referred to by
    /// `_file`, as Playwright does. Default: 1 MiB.
    public var maxInlineBodySize: Int
    /// The largest request body recorded; a larger one fails the request
    /// (`SchemeRequestBodyTooLarge`). Default: 64 MiB.
    public var maxRequestBodySize: Int
    /// The `creator` written into a new HAR file: SchemeKit.
    package var creator: HARCreator
    /// The URL written for each request: the registry's (`app://localhost/a.js`), the one the
    /// engine's page used (`.origin(URL(string: "https://app.localhost")!)` for headless Chromium),
    /// or a mapping of your own. Default: ``HARRecordedURL/request``.
    public var url: HARRecordedURL

    /// Creates options; the defaults are documented on each property.
    public init(maxInlineBodySize: Int = 1 << 20, maxRequestBodySize: Int = 64 << 20, url: HARRecordedURL = .request) {
        self.init(
            maxInlineBodySize: maxInlineBodySize, maxRequestBodySize: maxRequestBodySize, creator: .schemeKit, url: url)
    }

    /// Options with another `creator`.
    package init(maxInlineBodySize: Int, maxRequestBodySize: Int, creator: HARCreator, url: HARRecordedURL) {
        self.maxInlineBodySize = maxInlineBodySize
        self.maxRequestBodySize = maxRequestBodySize
        self.creator = creator
        self.url = url
    }
}
