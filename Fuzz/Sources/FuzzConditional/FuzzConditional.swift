import Foundation
import FuzzSupport
import HTTPTypes

@testable import SchemeKit

/// Conditional requests: entity tags and their lists, HTTP dates in the three formats, and the
/// RFC 9110 §13.2.2 evaluation of the `If-*` fields.
///
/// Properties: nothing traps; a parsed entity tag re-parses from its `headerValue` to itself; a
/// strong match implies a weak match; a parsed date formats to an IMF-fixdate that parses back to
/// the same second (and to the same text when the weekday was right); a date formatted from any
/// second in years 1–9999 parses back, also when written in the RFC 850 and asctime forms;
/// evaluation is deterministic and follows the precedence of the standard.
@main
struct FuzzConditional {
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete]
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, fixed for determinism

    static func main() {
        Fuzzer.run { buffer in
            var input = FuzzInput(buffer)
            let seconds = input.int64()
            checkDateRoundTrip(seconds: seconds)
            let method = methods[Int(input.byte()) % methods.count]
            let tag = EntityTag(input.string())
            let lastModified: Int64? = input.bool() ? input.int64() % 400_000_000_000 : nil
            var fields = HTTPFields()
            let names: [HTTPField.Name] = [.ifMatch, .ifNoneMatch, .ifModifiedSince, .ifUnmodifiedSince, .ifRange]
            var values: [String] = []
            for name in names {
                let value = input.string()
                values.append(value)
                if !value.isEmpty { fields[name] = value }
            }
            let free = input.restString()
            checkEntityTags(free)
            checkDate(free)
            for value in values {
                checkEntityTags(value)
                checkDate(value)
            }
            checkEvaluation(
                fields: fields, method: method, validators: .init(entityTag: tag, lastModified: lastModified))
        }
    }

    static func checkEntityTags(_ value: String) {
        if let tag = EntityTag(value) {
            require(EntityTag(tag.headerValue) == tag, "entity tag does not round-trip: \(value.debugDescription)")
            require(tag.weakMatches(tag), "a tag weakly matches itself")
            require(tag.strongMatches(tag) == !tag.isWeak, "strong self-match iff strong")
        }
        let condition = EntityTagCondition(value)
        for probe in [EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "a", isWeak: true), EntityTag(value)] {
            if condition.strongMatches(probe) {
                require(condition.weakMatches(probe), "strong match without weak match: \(value.debugDescription)")
            }
        }
        require(!condition.strongMatches(nil) || condition == .any, "a missing tag matched a list")
    }

    static func checkDate(_ value: String) {
        guard let seconds = HTTPDate.parseSecondsSince1970(value, now: now) else { return }
        let formatted = HTTPDate.format(secondsSince1970: seconds)
        require(formatted.utf8.count == 29, "IMF-fixdate length")
        require(
            HTTPDate.parseSecondsSince1970(formatted, now: now) == seconds,
            "format(parse(x)) does not parse back: \(value.debugDescription) → \(formatted)")
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if trimmed.utf8.count == 29, trimmed.utf8.dropFirst(3).first == UInt8(ascii: ","),
            trimmed.prefix(3) == formatted.prefix(3), !trimmed.contains(":60 ")  // a leap second reads as :59
        {
            require(formatted == trimmed, "IMF-fixdate does not round-trip: \(value.debugDescription) → \(formatted)")
        }
    }

    /// Any second in years 1–9999, formatted in the three forms RFC 9110 defines, parses back to itself.
    static func checkDateRoundTrip(seconds raw: Int64) {
        let seconds = -62_135_596_800 + Int64(UInt64(bitPattern: raw) % 315_537_897_600)
        let imf = HTTPDate.format(secondsSince1970: seconds)
        require(HTTPDate.parseSecondsSince1970(imf, now: now) == seconds, "IMF-fixdate round trip: \(seconds) \(imf)")
        // "Sun, 06 Nov 1994 08:49:37 GMT" → asctime "Sun Nov  6 08:49:37 1994", RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT".
        let parts = imf.split(separator: " ")
        let weekday = String(parts[0].dropLast())
        let day = Int(parts[1])!
        let dayText = day < 10 ? " \(day)" : "\(day)"
        let asctime = "\(weekday) \(parts[2]) \(dayText) \(parts[4]) \(parts[3])"
        require(HTTPDate.parseSecondsSince1970(asctime, now: now) == seconds, "asctime round trip: \(asctime)")
        let longDays = [
            "Sun": "Sunday", "Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
            "Fri": "Friday", "Sat": "Saturday",
        ]
        let year = Int(parts[3])!
        // RFC 850's two-digit year means the most recent year with those digits that is at most
        // 50 years after now; only those years round-trip.
        if year > 2026 - 50, year <= 2026 + 50 {
            let rfc850 = "\(longDays[weekday]!), \(parts[1])-\(parts[2])-\(parts[3].suffix(2)) \(parts[4]) GMT"
            require(HTTPDate.parseSecondsSince1970(rfc850, now: now) == seconds, "RFC 850 round trip: \(rfc850)")
        }
    }

    static func checkEvaluation(
        fields: HTTPFields, method: HTTPRequest.Method, validators: ConditionalRequest.Validators
    ) {
        let request = ConditionalRequest(fields)
        let decision = request.evaluate(method: method, validators: validators)
        require(
            decision == ConditionalRequest(fields).evaluate(method: method, validators: validators), "not deterministic"
        )
        // RFC 9110 §13.2.2 step 1: a failing If-Match always wins.
        if let ifMatch = request.ifMatch, !ifMatch.strongMatches(validators.entityTag) {
            require(decision == .preconditionFailed, "failing If-Match not 412")
        }
        // 304 only for GET and HEAD.
        if decision == .notModified { require(method == .get || method == .head, "304 for \(method)") }
        if request.isEmpty { require(decision == .proceed(honourRange: true), "no precondition, yet \(decision)") }
    }
}
