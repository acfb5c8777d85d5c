// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    package import Logging

    /// A log handler that holds lines back until told to write them: the access log's writer
    /// calls ``flush()`` after each batch of lines (a batch per poll interval at most, 10 ms).
    package protocol AccessLogFlushing: LogHandler {
        /// Writes every line held.
        func flush()
        /// Whether the handler writes the access line's metadata (method, path, status, bytes, ms,
        /// handler) and not only its message; when `false` the log skips building it. Default: `true`.
        var writesMetadata: Bool { get }
    }

    extension AccessLogFlushing {
        package var writesMetadata: Bool { true }
    }
#endif
