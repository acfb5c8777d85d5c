extension MIMESniffer {
    /// The size of the ISO BMFF `ftyp` box at the start of `bytes`, when there is one the header
    /// holds entirely (§6.2.1 steps 3–6).
    private static func fileTypeBoxSize(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 12, matches(bytes, at: 4, "ftyp".utf8) else { return nil }
        let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard size <= bytes.count, size % 4 == 0 else { return nil }
        return size
    }

    /// The signature for MP4 (§6.2.1): an `ftyp` box whose major or a compatible brand starts
    /// with `mp4`.
    static func matchesMP4(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let size = fileTypeBoxSize(bytes) else { return false }
        if matches(bytes, at: 8, "mp4".utf8) { return true }
        // Skip the major brand's version (bytes 12–15); compatible brands follow, 4 bytes each.
        return stride(from: 16, to: size, by: 4).contains { matches(bytes, at: $0, "mp4".utf8) }
    }

    /// HEIF-family still images by `ftyp` brand (an addition to the standard): `image/avif` when
    /// any brand is `avif` or `avis`, `image/heic` for a HEVC major brand, `image/heif` for `mif1`
    /// or `msf1`; else `nil`.
    static func imageFileType(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let size = fileTypeBoxSize(bytes), size >= 16 else { return nil }
        let brandOffsets = [8] + Array(stride(from: 16, to: size, by: 4))
        let isBrand = { (brand: String) in brandOffsets.contains { matches(bytes, at: $0, brand.utf8) } }
        if isBrand("avif") || isBrand("avis") { return "image/avif" }
        for brand in ["heic", "heix", "heim", "heis"] where matches(bytes, at: 8, brand.utf8) { return "image/heic" }
        if matches(bytes, at: 8, "mif1".utf8) || matches(bytes, at: 8, "msf1".utf8) { return "image/heif" }
        return nil
    }

    /// The signature for WebM (§6.2.2): an EBML header whose `DocType` element (ID 0x4282),
    /// within the first 38 bytes, is `webm`. A `matroska` doc type gives `video/x-matroska`.
    static func ebmlType(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard matches(bytes, at: 0, [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        var index = 4
        while index < bytes.count, index < 38 {
            defer { index += 1 }
            guard bytes[index] == 0x42, index + 1 < bytes.count, bytes[index + 1] == 0x82 else { continue }
            index += 2
            // The element size is a variable-length integer; its length is one more than the
            // number of leading zero bits of its first byte.
            guard index < bytes.count, bytes[index] != 0 else { return nil }
            index += bytes[index].leadingZeroBitCount + 1
            guard index < bytes.count - 4 else { return nil }
            // "Matching a padded sequence": the doc type may be preceded by 0x00 bytes.
            while index < bytes.count, bytes[index] == 0 { index += 1 }
            if matches(bytes, at: index, "webm".utf8) { return "video/webm" }
            if matches(bytes, at: index, "matroska".utf8) { return "video/x-matroska" }
            return nil
        }
        return nil
    }

    /// The signature for MP3 without ID3 (§6.2.3): a Layer III frame header at offset 0 and
    /// another one where the first frame ends.
    static func matchesMP3WithoutID3(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let size = mp3FrameSize(bytes, at: 0), size >= 4 else { return false }
        return mp3FrameSize(bytes, at: size) != nil
    }

    /// Bit rates of MPEG-1 Layer III, by the header's bit-rate index.
    private static let mpeg1LayerIIIBitRates = [
        0, 32_000, 40_000, 48_000, 56_000, 64_000, 80_000, 96_000, 112_000, 128_000, 160_000, 192_000, 224_000,
        256_000, 320_000,
    ]
    /// Bit rates of MPEG-2 and MPEG-2.5 Layer III, by the header's bit-rate index.
    private static let mpeg2LayerIIIBitRates = [
        0, 8_000, 16_000, 24_000, 32_000, 40_000, 48_000, 56_000, 64_000, 80_000, 96_000, 112_000, 128_000,
        144_000, 160_000,
    ]

    /// The size in bytes of the MPEG audio Layer III frame whose header is at `offset` ("match an
    /// mp3 header", "parse an mp3 frame", "compute an mp3 frame size"), or `nil` when there is no
    /// valid header there.
    private static func mp3FrameSize(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        let sync = bytes[offset]
        let second = bytes[offset + 1]
        let third = bytes[offset + 2]
        guard sync == 0xFF, second & 0xE0 == 0xE0 else { return nil }
        let version = (second & 0x18) >> 3  // 0: MPEG-2.5, 1: reserved, 2: MPEG-2, 3: MPEG-1
        let layer = (second & 0x06) >> 1  // 1: Layer III
        let bitRateIndex = Int(third >> 4)
        let sampleRateIndex = Int((third & 0x0C) >> 2)
        guard version != 1, layer == 1, bitRateIndex != 15, sampleRateIndex != 3 else { return nil }
        let isMPEG1 = version == 3
        let bitRate = (isMPEG1 ? mpeg1LayerIIIBitRates : mpeg2LayerIIIBitRates)[bitRateIndex]
        let sampleRate = [44_100, 48_000, 32_000][sampleRateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let padding = Int((third & 0x02) >> 1)
        return bitRate * (isMPEG1 ? 144 : 72) / sampleRate + padding
    }
}
