// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation

    /// Edits to a zip archive's bytes, for corrupt and lying archives.
    enum ZipSurgery {
        /// Overwrites the 32-bit little-endian field at `fieldOffset` of the central directory record of `entry`
        /// (20: compressed size, 24: uncompressed size, 16: CRC-32).
        static func patchCentralDirectory(of url: URL, entry: String, fieldOffset: Int, value: UInt32) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            let name = Array(entry.utf8)
            var index = 0
            var patched = false
            while index + 46 + name.count <= bytes.count {
                if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x01, bytes[index + 3] == 0x02,
                    Array(bytes[(index + 46)..<(index + 46 + name.count)]) == name
                {
                    for byte in 0..<4 {
                        bytes[index + fieldOffset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte))
                    }
                    patched = true
                    break
                }
                index += 1
            }
            precondition(patched, "no central directory record for \(entry)")
            try Data(bytes).write(to: url)
        }

        /// Overwrites the first 64-bit value of the ZIP64 extra field (id 1) of the central directory
        /// record of `entry`: the uncompressed size when that record saturates it, else the
        /// compressed size when that one is saturated.
        static func patchZip64Field(of url: URL, entry: String, value: UInt64) throws {
            var bytes = [UInt8](try Data(contentsOf: url))
            let name = Array(entry.utf8)
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            var patched = false
            var index = 0
            while !patched, index + 46 + name.count <= bytes.count {
                defer { index += 1 }
                guard bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x01,
                    bytes[index + 3] == 0x02, Array(bytes[(index + 46)..<(index + 46 + name.count)]) == name
                else { continue }
                var extra = index + 46 + name.count
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
