/// Why a ``DiskStorage/Backend`` could not open its directory or store an entry.
///
/// Reads never throw: an entry that cannot be read or fails verification is a miss.
package struct DiskStorageError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case cannotCreateDirectory(path: String, reason: String)
        case writeFailed(key: String, reason: String)
        case entryTooLarge(key: String, size: Int, limit: Int)
        case keyTooLong(length: Int)
    }

    private let kind: Kind

    static func cannotCreateDirectory(_ path: String, _ error: any Error) -> DiskStorageError {
        DiskStorageError(kind: .cannotCreateDirectory(path: path, reason: String(describing: error)))
    }

    static func writeFailed(_ key: String, _ error: any Error) -> DiskStorageError {
        DiskStorageError(kind: .writeFailed(key: key, reason: String(describing: error)))
    }

    static func entryTooLarge(_ key: String, size: Int, limit: Int) -> DiskStorageError {
        DiskStorageError(kind: .entryTooLarge(key: key, size: size, limit: limit))
    }

    static func keyTooLong(_ length: Int) -> DiskStorageError {
        DiskStorageError(kind: .keyTooLong(length: length))
    }

    /// Whether the error is an entry larger than the size limit (not a problem with the directory).
    package var isEntryTooLarge: Bool {
        if case .entryTooLarge = kind { true } else { false }
    }

    /// A one-line description for logs.
    package var description: String {
        switch kind {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the disk cache directory \(path): \(reason)"
        case .writeFailed(let key, let reason):
            "cannot write the disk cache entry for \(key): \(reason)"
        case .entryTooLarge(let key, let size, let limit):
            "the disk cache entry for \(key) (\(size) bytes) exceeds the size limit (\(limit) bytes)"
        case .keyTooLong(let length):
            "a disk cache key of \(length) bytes exceeds the \(DiskEntryHeader.maximumKeyLength)-byte limit"
        }
    }
}
