// Built when at least one engine is (package traits `WebKitGTK`, `Chromium`, `Firefox`).
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import SchemeKit

    /// What one `headless-render` run prints, whatever the engine: the load, every request, the
    /// console, the `--eval` result, the snapshot, and the cold/warm figures of `--iterations`.
    struct RenderReport: Encodable {
        /// One request the engine adapter answered.
        struct Request: Encodable {
            /// The registry URL's path (`/index.html`).
            var path: String
            /// The status sent (0 when none was: the request was stopped or failed first).
            var status: Int
            /// Body bytes sent.
            var bytes: Int
            /// The handler that answered (`files`, `network`, `not-found`).
            var handler: String
            /// From the engine's request to the answer.
            var ms: Double
            /// Why the request failed, when it did (a body over the message limit names the limit).
            var error: String?

            /// The row for a record, the same from every engine: the handler that answered, or
            /// `continued`, or `stopped (<reason>)` with a `SchemeRequestRecord.StopReason` (`stopped
            /// (canceledByPage)`); a failure's message.
            init(_ record: SchemeRequestRecord) {
                let path = URL(string: record.registryURL)?.path(percentEncoded: true) ?? record.registryURL
                self.path = path.isEmpty ? "/" : path
                status = record.status ?? 0
                bytes = record.bytes
                ms = RenderReport.milliseconds(record.duration)
                switch record.outcome {
                case .answered: handler = record.handler ?? "unknown"
                case .continued: handler = "continued"
                case .failed:
                    handler = record.handler ?? "failed"
                    error = record.error.map { ($0 as? EngineError)?.message ?? "\($0)" } ?? "failed"
                case .stopped(let reason): handler = "stopped (\(reason.rawValue))"
                }
            }
        }

        /// `webkit`, `chromium` or `firefox`.
        var engine: String
        var url: String
        var loadMs: Double
        var requests: [Request]
        var console: [String]
        /// The `--eval` result as JSON text (`true`, `"no-cache"`).
        var eval: String?
        var screenshot: String?
        /// Where `--pdf` wrote the PDF.
        var pdf: String?
        var coldMedianMs: Double?
        var coldP90Ms: Double?
        var warmMedianMs: Double?
        var warmP90Ms: Double?
        /// Every cold load time, in order (with `--iterations`): for pooling several runs.
        var coldMs: [Double]?
        /// Every warm load time, in order (with `--iterations`).
        var warmMs: [Double]?

        /// Fills the `--iterations` figures.
        mutating func setIterations(cold: [Double], warm: [Double]) {
            coldMedianMs = Self.percentile(cold, 0.5)
            coldP90Ms = Self.percentile(cold, 0.9)
            warmMedianMs = Self.percentile(warm, 0.5)
            warmP90Ms = Self.percentile(warm, 0.9)
            coldMs = cold
            warmMs = warm
        }

        /// The report as text lines (the default) or as one JSON object (`--json`).
        func rendered(json: Bool) throws -> String {
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return String(decoding: try encoder.encode(self), as: UTF8.self)
            }
            var lines = ["loaded \(url) in \(Self.format(loadMs)) ms"]
            for request in requests {
                lines.append(
                    "  \(request.status) \(request.path) \(request.bytes) B \(request.handler) \(Self.format(request.ms)) ms"
                        + (request.error.map { ": \($0)" } ?? ""))
            }
            for message in console { lines.append("console \(message)") }
            if let eval { lines.append("eval \(eval)") }
            if let screenshot { lines.append("screenshot \(screenshot)") }
            if let pdf { lines.append("pdf \(pdf)") }
            if let coldMedian = coldMedianMs, let warmMedian = warmMedianMs {
                lines.append("cold median \(Self.format(coldMedian)) ms, p90 \(Self.format(coldP90Ms ?? 0)) ms")
                lines.append("warm median \(Self.format(warmMedian)) ms, p90 \(Self.format(warmP90Ms ?? 0)) ms")
                lines.append("warm is \(Self.format(coldMedian / max(warmMedian, 0.001)))x faster")
            }
            return lines.joined(separator: "\n")
        }

        static func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }

        static func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
            return sorted[max(0, index)]
        }

        static func format(_ value: Double) -> String { String(format: "%.1f", value) }
    }

    extension RenderReport {
        /// What `--json` prints instead of the report when a run fails after its arguments were
        /// accepted (exit 1, 2 or 3): the engine, the page, and why, so a script that reads
        /// standard output always gets one JSON object.
        struct Failure: Encodable {
            /// `webkit`, `chromium` or `firefox`.
            var engine: String
            /// The page the run loaded, or was to load.
            var url: String
            /// The message standard error has too (without the `headless-render: ` prefix).
            var error: String
            /// The process's exit status.
            var exitStatus: Int32

            /// One line of JSON, keys sorted.
            func rendered() -> String {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
                    ?? #"{"error":"unencodable failure"}"#
            }
        }
    }

    /// A failure with a message for the user.
    struct RenderError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
