// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes

    /// What the HTTP side does to a handler's response on its way out: security headers, CORS,
    /// live-reload injection, gzip. Decided once per response from the request and the head.
    struct ResponseTransforms: Sendable {
        /// Insert the live-reload script before `</body>`.
        var injectScript: Data?
        /// Gzip the body.
        var gzip = false

        /// Removes fields whose value carries CR, LF, NUL or form feed: they never reach the client.
        static func sanitise(_ fields: inout HTTPFields) {
            var hasUnsafeValue = false
            for field in fields
            where field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x0C || $0 == 0 }) {
                hasUnsafeValue = true
                break
            }
            guard hasUnsafeValue else { return }
            var clean = HTTPFields()
            for field in fields
            where !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x0C || $0 == 0 }) {
                clean.append(field)
            }
            fields = clean
        }

        /// Marks a strong `ETag` weak: the body that goes out (gzipped, or with the live-reload
        /// script) is not the file's bytes, so `If-None-Match` still matches it (weak comparison)
        /// and `If-Range` never does (a range of other bytes). nginx does the same for gzip.
        static func weakenETag(_ fields: inout HTTPFields) {
            if let etag = fields[.eTag], etag.hasPrefix("\"") { fields[.eTag] = "W/" + etag }
        }

        /// Whether `Cache-Control: no-transform` forbids changing the content (RFC 9110 §7.7): an
        /// origin behind `--fallback` that says so gets its bytes to the page as it sent them.
        static func forbidsTransformation(_ fields: HTTPFields) -> Bool {
            fields[values: .cacheControl].contains { value in
                value.split(separator: ",").contains {
                    $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-transform"
                }
            }
        }

        /// Adds `name` to `Vary` unless it is listed already (letter case aside; `*` lists all).
        static func addVary(_ name: String, to fields: inout HTTPFields) {
            guard let vary = fields[.vary] else {
                fields[.vary] = name
                return
            }
            let listed = vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard !listed.contains(name.lowercased()), !listed.contains("*") else { return }
            fields[.vary] = vary + ", " + name
        }

        /// A `304`'s `ETag` in the form the client keeps it: weak when its `If-None-Match` names
        /// the tag only weakly (`W/"x"`, from a body gzipped here, a large file's included, which
        /// the file handler does not know), so the 304 carries the tag the 200 had (RFC 9110
        /// §15.4.5).
        static func matchValidatorForm(_ fields: inout HTTPFields, ifNoneMatch: String?) {
            guard let ifNoneMatch, let etag = fields[.eTag], etag.hasPrefix("\"") else { return }
            let listed = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if listed.contains("W/" + etag), !listed.contains(etag) { fields[.eTag] = "W/" + etag }
        }

        /// Inserts `script` before the last `</body>` (case-insensitive), or appends it.
        static func inject(_ script: Data, into html: Data) -> Data {
            let marker = Array("</body>".utf8)
            let bytes = [UInt8](html)
            var index = bytes.count - marker.count
            while index >= 0 {
                var match = true
                for offset in 0..<marker.count where bytes[index + offset] | 0x20 != marker[offset] | 0x20 {
                    match = false
                    break
                }
                if match { break }
                index -= 1
            }
            var result = Data(capacity: html.count + script.count)
            if index >= 0 {
                result.append(contentsOf: bytes[..<index])
                result.append(script)
                result.append(contentsOf: bytes[index...])
            } else {
                result.append(html)
                result.append(script)
            }
            return result
        }
    }
#endif
