/// Structured values taken from the front of a fuzzer's input.
///
/// Every accessor is total: when the input runs out it returns zero, `false` or an empty string,
/// so any byte string is a valid input and libFuzzer's mutations keep their meaning.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    /// Wraps the bytes of one input.
    public init(_ buffer: UnsafeRawBufferPointer) {
        bytes = Array(buffer)
    }

    /// Whether every byte has been taken.
    public var isEmpty: Bool { index >= bytes.count }

    /// The next byte, or 0.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next byte's low bit.
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// The next 8 bytes, little-endian, as a signed integer.
    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int64(bitPattern: value)
    }

    /// A length byte, then up to that many bytes, decoded as UTF-8 (invalid sequences become U+FFFD).
    public mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }

    /// A length byte, then up to that many raw bytes.
    public mutating func chunk() -> [UInt8] {
        let count = min(Int(byte()), bytes.count - min(index, bytes.count))
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    /// Every byte not yet taken.
    public mutating func rest() -> [UInt8] {
        guard index < bytes.count else { return [] }
        defer { index = bytes.count }
        return Array(bytes[index...])
    }

    /// Every byte not yet taken, decoded as UTF-8.
    public mutating func restString() -> String {
        String(decoding: rest(), as: UTF8.self)
    }
}
