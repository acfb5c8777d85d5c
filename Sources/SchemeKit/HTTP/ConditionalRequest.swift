package import HTTPTypes

/// The preconditions of a request (`If-Match`, `If-Unmodified-Since`, `If-None-Match`,
/// `If-Modified-Since`, `If-Range`) and their evaluation against a representation's validators,
/// in the order of [RFC 9110 §13.2.2](https://www.rfc-editor.org/rfc/rfc9110#section-13.2.2).
///
/// ```swift
/// let conditions = ConditionalRequest(request.headerFields)
/// switch conditions.evaluate(method: request.method, validators: validators) {
/// case .proceed(let honourRange): // 200 or, when honourRange and a Range is present, 206
/// case .notModified: // 304 with ETag, Last-Modified, Cache-Control and no body
/// case .preconditionFailed: // 412
/// }
/// ```
///
/// Unparseable dates are ignored, as the RFC requires. The evaluation is pure: it reads only the
/// fields given and the validators passed in.
package struct ConditionalRequest: Sendable, Hashable {
    /// The validators of the selected representation.
    package struct Validators: Sendable, Hashable {
        /// The current entity tag, when the representation has one.
        package var entityTag: EntityTag?
        /// The last modification time in whole seconds since 1970, when known.
        package var lastModified: Int64?

        /// Creates validators.
        ///
        /// - Parameters:
        ///   - entityTag: The current entity tag. Default: none.
        ///   - lastModified: The modification time in whole Unix seconds. Default: unknown.
        package init(entityTag: EntityTag? = nil, lastModified: Int64? = nil) {
            self.entityTag = entityTag
            self.lastModified = lastModified
        }
    }

    /// The outcome of evaluating the preconditions.
    package enum Decision: Sendable, Hashable {
        /// Perform the method. `honourRange` is `false` when an `If-Range` did not match: any
        /// `Range` must then be ignored and the whole representation sent.
        case proceed(honourRange: Bool)
        /// Answer 304 Not Modified (GET and HEAD only).
        case notModified
        /// Answer 412 Precondition Failed.
        case preconditionFailed
    }

    /// `If-Match`, parsed.
    package var ifMatch: EntityTagCondition?
    /// `If-None-Match`, parsed.
    package var ifNoneMatch: EntityTagCondition?
    /// `If-Modified-Since` in Unix seconds; `nil` when absent or not a valid HTTP date.
    package var ifModifiedSince: Int64?
    /// `If-Unmodified-Since` in Unix seconds; `nil` when absent or not a valid HTTP date.
    package var ifUnmodifiedSince: Int64?
    /// `If-Range`, raw: an entity tag or an HTTP date.
    package var ifRange: String?

    /// Reads the conditional fields of a request.
    package init(_ fields: HTTPFields) {
        ifMatch = fields[.ifMatch].map(EntityTagCondition.init)
        ifNoneMatch = fields[.ifNoneMatch].map(EntityTagCondition.init)
        ifModifiedSince = fields[.ifModifiedSince].flatMap { HTTPDate.parseSecondsSince1970($0) }
        ifUnmodifiedSince = fields[.ifUnmodifiedSince].flatMap { HTTPDate.parseSecondsSince1970($0) }
        ifRange = fields[.ifRange]
    }

    /// Whether the request carries no precondition at all (the common case, worth a fast path).
    package var isEmpty: Bool {
        ifMatch == nil && ifNoneMatch == nil && ifModifiedSince == nil && ifUnmodifiedSince == nil && ifRange == nil
    }

    /// Evaluates the preconditions for an existing representation, in RFC 9110 §13.2.2 order.
    ///
    /// 1. `If-Match` present and no current tag matches strongly → 412 (`*` matches any).
    /// 2. Else `If-Unmodified-Since` valid and the representation is newer → 412.
    /// 3. `If-None-Match` present and a tag matches weakly (or `*`) → 304 for GET/HEAD, else 412.
    /// 4. Else, for GET/HEAD, `If-Modified-Since` valid and the representation is not newer → 304.
    /// 5. `If-Range` (GET only): an entity tag must match strongly, a date must equal the
    ///    modification time exactly; otherwise the `Range` is ignored.
    package func evaluate(method: HTTPRequest.Method, validators: Validators) -> Decision {
        if let ifMatch {
            guard ifMatch.strongMatches(validators.entityTag) else { return .preconditionFailed }
        } else if let ifUnmodifiedSince, let modified = validators.lastModified, modified > ifUnmodifiedSince {
            return .preconditionFailed
        }
        let isRead = method == .get || method == .head
        if let ifNoneMatch {
            if ifNoneMatch.weakMatches(validators.entityTag) { return isRead ? .notModified : .preconditionFailed }
        } else if isRead, let ifModifiedSince, let modified = validators.lastModified, modified <= ifModifiedSince {
            return .notModified
        }
        return .proceed(honourRange: ifRangeMatches(validators))
    }

    /// Whether `If-Range` allows the `Range` to be honoured: `true` when absent.
    package func ifRangeMatches(_ validators: Validators) -> Bool {
        guard let ifRange else { return true }
        let trimmed = Substring(ifRange).utf8.trimmingWhitespace()
        if trimmed.first == UInt8(ascii: "\"") || trimmed.starts(with: "W/".utf8) {
            guard let tag = EntityTag(String(Substring(trimmed))), let current = validators.entityTag else {
                return false
            }
            return tag.strongMatches(current)
        }
        guard let date = HTTPDate.parseSecondsSince1970(ifRange), let modified = validators.lastModified else {
            return false
        }
        return date == modified
    }
}
