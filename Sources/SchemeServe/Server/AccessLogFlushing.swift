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
        /// The start of a line written now at `level` (`2025-01-01T12:00:00Z info `), when the
        /// handler writes plain-text lines, each that start and the message; `nil` when it does
        /// not, and lines go through `log(event:)`. Default: `nil`.
        func plainTextPrefix(level: Logger.Level) -> String?
        /// Holds `text` (whole lines, each a ``plainTextPrefix(level:)`` and a message, ending in a
        /// newline) until ``flush()``. The access log hands a batch over in one call.
        func holdPlainText(_ text: [UInt8])
    }

    extension AccessLogFlushing {
        package var writesMetadata: Bool { true }
        package func plainTextPrefix(level: Logger.Level) -> String? { nil }
        package func holdPlainText(_ text: [UInt8]) {}
    }
#endif
