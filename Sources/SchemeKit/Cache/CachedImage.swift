package import Foundation

/// An image as the cache tiers hold it: bytes and MIME type.
///
/// In memory it is kept as is; on disk it is serialised as a 2-byte little-endian MIME type
/// length, the MIME type in UTF-8 (at most 65,535 bytes), then the bytes.
package struct CachedImage: CacheCostCalculable, Equatable {
    /// The image bytes.
    package var data: Data
    /// The MIME type (`image/png`).
    package var mimeType: String

    /// The bytes and the MIME type's length.
    package var cacheCost: Int { data.count + mimeType.utf8.count }

    func serialized() -> Data {
        let mime = Array(mimeType.utf8.prefix(Int(UInt16.max)))
        var result = Data(capacity: 2 + mime.count + data.count)
        result.append(UInt8(mime.count & 0xff))
        result.append(UInt8(mime.count >> 8))
        result.append(contentsOf: mime)
        result.append(data)
        return result
    }

    /// Creates an image value.
    package init(data: Data, mimeType: String) {
        self.data = data
        self.mimeType = mimeType
    }

    init?(serialized bytes: Data) {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let length = Int(bytes[start]) | Int(bytes[start + 1]) << 8
        guard bytes.count >= 2 + length,
            let mime = String(bytes: bytes[start + 2..<start + 2 + length], encoding: .utf8)
        else { return nil }
        self.mimeType = mime
        self.data = bytes.subdata(in: start + 2 + length..<bytes.endIndex)
    }
}
