// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation

    /// Edits to a zip archive's bytes, for corrupt and lying archives.
    enum ZipSurgery {
        /// Overwrites the 32-bit little-endian field at `fieldOffset` of the central directory record of `entry`
        /// (20: compressed size, 24: uncompressed size, 16: CRC-32).
        static func patchCentralDirectory(of url: URL, entry: String, fieldOffset: Int, value: UInt32) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            guard let index = record(in: bytes, signature: 0x01, naming: entry) else {
                preconditionFailure("no central directory record for \(entry)")
            }
            for byte in 0..<4 { bytes[index + fieldOffset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            try Data(bytes).write(to: url)
        }

        /// Overwrites the first 64-bit value of the ZIP64 extra field (id 1) of the central directory
        /// record of `entry`: the uncompressed size when that record saturates it, else the
        /// compressed size when that one is saturated.
        static func patchZip64Field(of url: URL, entry: String, value: UInt64) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            var patched = false
            if let index = record(in: bytes, signature: 0x01, naming: entry) {
                var extra = index + 46 + entry.utf8.count
                let end = extra + u16(index + 30)
                while extra + 4 <= end, !patched {
                    if u16(extra) == 1 {
                        for byte in 0..<8 { bytes[extra + 4 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
                        patched = true
                    }
                    extra += 4 + u16(extra + 2)
                }
            }
            precondition(patched, "no ZIP64 field in the central directory record of \(entry)")
            try Data(bytes).write(to: url)
        }

        /// Renames `entry` in its local header only, to `name` of the same length in UTF-8: the
        /// central directory still names `entry`.
        static func renameInLocalHeader(of url: URL, entry: String, to name: String) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            let new = Array(name.utf8)
            precondition(entry.utf8.count == new.count, "the names differ in length")
            guard let index = record(in: bytes, signature: 0x03, naming: entry) else {
                preconditionFailure("no local header for \(entry)")
            }
            bytes.replaceSubrange((index + 30)..<(index + 30 + new.count), with: new)
            try Data(bytes).write(to: url)
        }

        /// The offset of the first record naming `entry`: a central directory record (`signature`
        /// 0x01, `PK 01 02`, its name at 46) or a local header (0x03, `PK 03 04`, its name at 30).
        private static func record(in bytes: [UInt8], signature: UInt8, naming entry: String) -> Int? {
            let name = Array(entry.utf8)
            let nameOffset = signature == 0x01 ? 46 : 30
            var index = 0
            while index + nameOffset + name.count <= bytes.count {
                if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == signature,
                    bytes[index + 3] == signature + 1,
                    Array(bytes[(index + nameOffset)..<(index + nameOffset + name.count)]) == name
                {
                    return index
                }
                index += 1
            }
            return nil
        }

        /// Flips the bytes in `range` (relative positions, 0...1) of the file.
        static func flip(_ url: URL, at fraction: Double, count: Int) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            let start = Int(Double(bytes.count) * fraction)
            for index in start..<min(start + count, bytes.count) { bytes[index] ^= 0xFF }
            try Data(bytes).write(to: url)
        }

        /// Damages the signature of the first central directory record.
        static func breakCentralDirectory(_ url: URL) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            for index in 0..<(bytes.count - 4)
            where bytes[index] == 0x50 && bytes[index + 1] == 0x4B && bytes[index + 2] == 0x01
                && bytes[index + 3] == 0x02
            {
                bytes[index + 3] = 0x09
                break
            }
            try Data(bytes).write(to: url)
        }

        /// Keeps only the first `fraction` of the file.
        static func truncate(_ url: URL, to fraction: Double) throws {
            let bytes = try Data(contentsOf: url)
            try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: url)
        }
    }
#endif
