import Foundation

/// The header at the start of every ``DiskStorage`` entry file, so each entry describes and
/// verifies itself whatever happened to the index.
///
/// Layout (little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `SKC1` |
/// | 4 | 4 | header length in bytes, `48 + keyLength` |
/// | 8 | 8 | data length in bytes |
/// | 16 | 8 | data checksum (``FNV1a/checksum(_:)``) |
/// | 24 | 8 | stored at, milliseconds since 1970 |
/// | 32 | 8 | expires at, milliseconds since 1970; `Int64.max` for never |
/// | 40 | 4 | key length |
/// | 44 | n | key, UTF-8 |
/// | 44 + n | 4 | header checksum: low 32 bits of FNV-1a 64 over bytes 0 ..< 44 + n |
///
/// The data follows. A file whose size is not `headerLength + dataLength`, or whose checksums do
/// not match, is torn or corrupted and is never served.
struct DiskEntryHeader: Sendable, Equatable {
    static let magic: [UInt8] = Array("SKC1".utf8)
    static let fixedLength = 48
    /// Keys longer than this are not stored on disk.
    static let maximumKeyLength = 16 * 1024

    var key: String
    var dataLength: UInt64
    var checksum: UInt64
    var storedAt: Date
    var expiresAt: Date?

    var headerLength: Int { Self.fixedLength + key.utf8.count }
    var fileSize: Int { headerLength + Int(dataLength) }

    /// The encoded header.
    func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerLength)
        bytes += Self.magic
        Self.append(UInt32(headerLength), to: &bytes)
        Self.append(dataLength, to: &bytes)
        Self.append(checksum, to: &bytes)
        Self.append(UInt64(bitPattern: Self.milliseconds(storedAt)), to: &bytes)
        Self.append(UInt64(bitPattern: expiresAt.map(Self.milliseconds) ?? .max), to: &bytes)
        let key = Array(key.utf8)
        Self.append(UInt32(key.count), to: &bytes)
        bytes += key
        Self.append(UInt32(truncatingIfNeeded: FNV1a.hash64(bytes)), to: &bytes)
        return Data(bytes)
    }

    /// The header length announced by the first 8 bytes of a file, if they look like a header.
    static func announcedLength(in prefix: Data) -> Int? {
        guard prefix.count >= 8, Array(prefix.prefix(4)) == magic else { return nil }
        let length = Int(read(UInt32.self, prefix, at: 4))
        guard length >= fixedLength, length <= fixedLength + maximumKeyLength else { return nil }
        return length
    }

    /// Decodes and verifies a header from the start of `bytes`; `nil` when it is malformed.
    static func decode(_ bytes: Data) -> DiskEntryHeader? {
        guard let length = announcedLength(in: bytes), bytes.count >= length else { return nil }
        let keyLength = Int(read(UInt32.self, bytes, at: 40))
        guard keyLength == length - fixedLength else { return nil }
        let headerBody = bytes[bytes.startIndex..<bytes.startIndex + 44 + keyLength]
        let expected = UInt32(truncatingIfNeeded: FNV1a.hash64(headerBody))
        guard read(UInt32.self, bytes, at: 44 + keyLength) == expected else { return nil }
        let keyStart = bytes.startIndex + 44
        guard let key = String(bytes: bytes[keyStart..<keyStart + keyLength], encoding: .utf8) else { return nil }
        let expires = Int64(bitPattern: read(UInt64.self, bytes, at: 32))
        return DiskEntryHeader(
            key: key,
            dataLength: read(UInt64.self, bytes, at: 8),
            checksum: read(UInt64.self, bytes, at: 16),
            storedAt: date(Int64(bitPattern: read(UInt64.self, bytes, at: 24))),
            expiresAt: expires == .max ? nil : date(expires)
        )
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return value > 0 ? .max - 1 : .min }
        return Int64(max(min(value, Double(Int64.max - 1)), Double(Int64.min)))
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ data: Data, at offset: Int) -> T {
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { target in
            let start = data.startIndex + offset
            target.copyBytes(from: data[start..<start + MemoryLayout<T>.size])
        }
        return T(littleEndian: value)
    }
}
