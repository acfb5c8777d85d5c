import FuzzSupport

@testable import SchemeKit

/// Media types, parsed with WHATWG's "parse a MIME type" and serialised back.
///
/// Properties: parsing never traps; for any `x` that parses, `parse(serialize(parse(x))) ==
/// parse(x)` and serialising is then stable; type and subtype are lowercased and non-empty;
/// parameter names are unique.
@main
struct FuzzMediaType {
    static func main() {
        Fuzzer.run { buffer in
            check(String(decoding: buffer, as: UTF8.self))
        }
    }

    static func check(_ text: String) {
        guard let parsed = MediaType(rawValue: text) else { return }
        require(!parsed.type.isEmpty && !parsed.subtype.isEmpty, "empty type or subtype: \(text.debugDescription)")
        require(
            parsed.type == parsed.type.lowercased() && parsed.subtype == parsed.subtype.lowercased(), "not lowercased")
        let names = parsed.parameters.map(\.name)
        require(Set(names).count == names.count, "duplicate parameter names: \(text.debugDescription)")
        let serialized = parsed.rawValue
        guard let reparsed = MediaType(rawValue: serialized) else {
            Fuzzer.fail("serialisation does not parse: \(text.debugDescription) → \(serialized.debugDescription)")
        }
        require(
            reparsed == parsed,
            "parse(serialize(parse(x))) != parse(x): \(text.debugDescription) → \(serialized.debugDescription)")
        require(reparsed.rawValue == serialized, "serialisation not stable: \(serialized.debugDescription)")
        _ = parsed.isText
        _ = parsed.charset
        _ = parsed.settingParameter("charset", to: "utf-8")
    }
}
