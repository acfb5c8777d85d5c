import Foundation

/// Writes JSON the way browsers export HAR files: UTF-8, two-space indentation, members in the
/// order given (custom members sorted by name), numbers in their shortest form that reads back
/// as the same `Double`.
struct HARJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// For each open container: whether it has a member or element yet.
    private var hasContent: [Bool] = []

    init() {
        bytes.reserveCapacity(64 << 10)
    }

    // MARK: Containers

    mutating func object(_ body: (inout HARJSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout HARJSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        hasContent.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        if hasContent.removeLast() { newline() }
        bytes.append(bracket)
    }

    /// Starts an array element or an object member: the comma and the indentation.
    private mutating func nextItem() {
        guard let last = hasContent.indices.last else { return }
        if hasContent[last] { bytes.append(UInt8(ascii: ",")) }
        hasContent[last] = true
        newline()
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * hasContent.count))
    }

    /// Starts the member `name`; the value follows.
    mutating func key(_ name: String) {
        nextItem()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    /// Starts an array element; the value follows.
    mutating func element() {
        nextItem()
    }

    // MARK: Members

    mutating func field(_ name: String, _ value: String) {
        key(name)
        writeString(value)
    }

    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        field(name, value)
    }

    mutating func field(_ name: String, _ value: Double) {
        key(name)
        writeNumber(value)
    }

    mutating func field(_ name: String, _ value: Double?) {
        guard let value else { return }
        field(name, value)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        bytes.append(contentsOf: Array(String(value).utf8))
    }

    mutating func field(_ name: String, _ value: Int?) {
        guard let value else { return }
        field(name, value)
    }

    mutating func field(_ name: String, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
    }

    mutating func field(_ name: String, _ value: HARValue?) {
        guard let value else { return }
        key(name)
        write(value)
    }

    /// The custom members, sorted by name.
    mutating func custom(_ members: [String: HARValue]) {
        for name in members.keys.sorted() {
            field(name, members[name])
        }
    }

    // MARK: Values

    mutating func write(_ value: HARValue) {
        switch value {
        case .null: bytes.append(contentsOf: Array("null".utf8))
        case .bool(let flag): bytes.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let number): writeNumber(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            array { writer in
                for element in elements {
                    writer.element()
                    writer.write(element)
                }
            }
        case .object(let members):
            object { writer in writer.custom(members) }
        }
    }

    mutating func writeNumber(_ number: Double) {
        // Integers print without a fraction ("200", "-1"); others in Swift's shortest round-trip
        // form, which is valid JSON for every finite Double ("0.5", "1e-07", "1.5e+300").
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            bytes.append(contentsOf: Array(String(Int64(number)).utf8))
        } else {
            bytes.append(contentsOf: Array("\(number)".utf8))
        }
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                bytes.append(contentsOf: Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
