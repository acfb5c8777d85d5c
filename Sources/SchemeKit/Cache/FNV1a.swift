import Foundation

/// FNV-1a hashing (http://www.isthe.com/chongo/tech/comp/fnv/), used by ``DiskStorage`` for
/// entry file names and checksums, and by SchemeKitTesting's HAR recorder for the names of body
/// files. Not cryptographic: it detects torn and corrupted files, it does not resist an attacker
/// who can write the cache directory; callers that name files by it compare bytes on a collision.
package enum FNV1a {
    /// The 64-bit FNV offset basis.
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 64-bit FNV prime.
    package static let prime: UInt64 = 0x0000_0100_0000_01b3
    /// A second, arbitrary offset basis for the high half of ``hash128(_:)``.
    static let secondBasis: UInt64 = 0x6c62_272e_07bb_0142

    /// Standard FNV-1a 64 over `bytes`, starting from `basis`.
    static func hash64(_ bytes: some Sequence<UInt8>, basis: UInt64 = offsetBasis) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// Standard FNV-1a 64 over raw bytes, starting from `basis`. Incremental: hashing a stream
    /// chunk by chunk, each chunk's result the next one's basis, gives the hash of the whole.
    package static func hash64(_ bytes: UnsafeRawBufferPointer, basis: UInt64 = offsetBasis) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// A 128-bit hash of `string`'s UTF-8 bytes as 32 lowercase hex digits: two FNV-1a 64
    /// hashes with different offset bases. Collisions are possible; callers store the key and
    /// check it.
    static func hash128Hex(_ string: String) -> String {
        let low = hash64(string.utf8)
        let high = hash64(string.utf8, basis: secondBasis)
        return hex(high) + hex(low)
    }

    /// A checksum of `data`: FNV-1a applied to 64-bit little-endian words (then to the trailing
    /// bytes), eight times faster than the byte-wise hash. Each step is a bijection of the state,
    /// so changing any one word always changes the result; the length is checked separately.
    static func checksum(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { raw in
            var hash = offsetBasis
            let count = raw.count
            var offset = 0
            while offset + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ word) &* prime
                offset += 8
            }
            while offset < count {
                hash = (hash ^ UInt64(raw[offset])) &* prime
                offset += 1
            }
            return hash
        }
    }

    /// `value` as 16 lowercase hexadecimal digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
