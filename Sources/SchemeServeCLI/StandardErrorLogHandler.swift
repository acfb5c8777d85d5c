// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging

    /// One line per event on standard error, in the `--log-format` the user chose:
    /// - text: `2025-01-01T12:00:00.000Z info GET / 200 1234B 0.4ms files`;
    /// - JSON: one object per line with `time`, `level`, `message` and the metadata.
    struct StandardErrorLogHandler: LogHandler {
        let label: String
        let format: LogFormat
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let time = Date.now.formatted(.iso8601)
            switch format {
            case .text:
                FileHandle.standardError.write(Data("\(time) \(event.level) \(event.message)\n".utf8))
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
                FileHandle.standardError.write(data + Data("\n".utf8))
            }
        }
    }
#endif
