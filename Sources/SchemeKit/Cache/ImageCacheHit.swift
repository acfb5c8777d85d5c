public import Foundation

/// An image found in an ``ImageCache``: the bytes, their MIME type, and the tier that answered.
public struct ImageCacheHit: Sendable, Equatable {
    /// The image bytes.
    public var data: Data
    /// The MIME type stored with the image (`image/png`).
    public var mimeType: String
    /// The tier that answered: ``CacheTier/memory``, or ``CacheTier/disk`` (the image is then
    /// promoted to memory for the next lookup).
    public var tier: CacheTier

    /// Creates a hit.
    package init(data: Data, mimeType: String, tier: CacheTier) {
        self.data = data
        self.mimeType = mimeType
        self.tier = tier
    }
}

/// The bytes an ``ImageCache`` holds, per tier.
public struct ImageCacheSize: Sendable, Hashable {
    /// Bytes in the memory tier.
    public var memory: Int
    /// Bytes in the disk tier (entry files, headers included); 0 when there is no disk tier.
    public var disk: Int

    /// Creates a size.
    package init(memory: Int, disk: Int) {
        self.memory = memory
        self.disk = disk
    }

    /// Memory plus disk.
    package var total: Int { memory + disk }
}
