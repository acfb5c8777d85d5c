// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import NIOCore
    import SchemeKit

    /// gzip for the file handler's on-the-fly encodings (`LocalFileHandler.Configuration.encoders`):
    /// a cached file is compressed once per file identity, so it is worth zlib's default level (6),
    /// smaller than the fastest at a cost paid once.
    struct GzipContentEncoder: SchemeContentEncoder {
        let contentCoding = "gzip"

        func encode(_ body: Data) throws -> Data {
            Data(try GzipStream.compressWhole(body, level: GzipStream.zlibDefault).readableBytesView)
        }
    }
#endif
