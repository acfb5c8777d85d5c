// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import SchemeServe

    /// One line per event on standard error, in the `--log-format` the user chose:
    /// - text: `2025-01-01T12:00:00.000Z info GET / 200 1234B 0.4ms files`;
    /// - JSON: one object per line with `time`, `level`, `message` and the metadata.
    ///
    /// With a ``StandardErrorBuffer`` (the access log's handler) lines are written in batches, when
    /// the access log's writer says a batch is done (``AccessLogFlushing``); without one, at once.
    struct StandardErrorLogHandler: LogHandler, AccessLogFlushing {
        let label: String
        let format: LogFormat
        var buffer: StandardErrorBuffer?
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        init(label: String, format: LogFormat, buffer: StandardErrorBuffer? = nil) {
            self.label = label
            self.format = format
            self.buffer = buffer
        }

        func flush() {
            buffer?.flush()
        }

        /// Only the JSON format writes metadata.
        var writesMetadata: Bool { format == .json }

        /// The text format's `<time> <level> `, when lines are held in a buffer.
        func plainTextPrefix(level: Logger.Level) -> String? {
            guard format == .text, buffer != nil else { return nil }
            return "\(LogTimestamp.now()) \(level) "
        }

        func holdPlainText(_ text: [UInt8]) {
            buffer?.append(text)
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let time = LogTimestamp.now()
            switch format {
            case .text:
                write("\(time) \(event.level) \(event.message)\n")
            case .json:
                var object: [String: String] = [
                    "time": time,
                    "level": event.level.rawValue,
                    "message": event.message.description,
                ]
                for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
                    object[key] = value.description
                }
                guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                    return
                }
                write(String(decoding: data, as: UTF8.self) + "\n")
            }
        }

        private func write(_ line: String) {
            if let buffer {
                buffer.append(line)
            } else {
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
    }
#endif
