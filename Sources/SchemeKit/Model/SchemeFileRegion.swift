public import Foundation

/// A byte range of an open file, as a response body (``SchemeBody/init(fileRegion:)``).
///
/// Engines that declare ``SchemeTaskSink/acceptsFileRegions`` get the bodies of large files this
/// way from ``LocalFileHandler`` and send them with the operating system's own file-to-socket copy
/// (`sendfile`); every other engine gets bytes. The region keeps its ``file`` open.
public struct SchemeFileRegion: Sendable {
    /// The open file.
    public let file: SchemeFileHandle
    /// The first byte, from the start of the file.
    public let offset: Int64
    /// The number of bytes.
    public let count: Int

    /// A region of `count` bytes of `file` from `offset`.
    ///
    /// - Precondition: `offset` and `count` are not negative.
    public init(_ file: SchemeFileHandle, offset: Int64, count: Int64) {
        precondition(offset >= 0 && count >= 0, "a file region needs a non-negative offset and count")
        self.file = file
        self.offset = offset
        self.count = Int(count)
    }

    /// Reads the region's bytes now (fewer when the file was truncated since).
    ///
    /// - Throws: ``LocalFileHandlerError/readFailed(errno:)`` on an I/O error.
    public func read() throws -> Data {
        try file.read(offset: offset, count: count)
    }

    /// The sub-region `range` (offsets from the region's start).
    func slice(_ range: Range<Int>) -> SchemeFileRegion {
        SchemeFileRegion(file, offset: offset + Int64(range.lowerBound), count: Int64(range.count))
    }
}
