package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file that response bodies refer to (``SchemeFileRegion``): the descriptor stays open
/// as long as one body refers to it, and is closed when the last one goes away.
///
/// A handler hands an engine a region of a file instead of its bytes, so an engine that can send
/// a file by itself (`sendfile`, as `schemeserve` does) moves it with no copy through user
/// space; the handler's own descriptor may be closed meanwhile, because this handle owns one of
/// its own.
///
/// ```swift
/// let file = try SchemeFileHandle(duplicating: fd)
/// try await writer.write(SchemeBody(fileRegion: SchemeFileRegion(file, offset: 0, count: size)))
/// ```
public final class SchemeFileHandle: Sendable {
    /// The descriptor, open for reading until this handle is released. Do not close it.
    public let descriptor: CInt

    /// Takes ownership of `descriptor`, which the handle closes when it is released.
    public init(adopting descriptor: CInt) {
        self.descriptor = descriptor
    }

    /// Opens a descriptor of its own on the file `descriptor` is open on (`dup`), so the caller
    /// may close `descriptor` at any time.
    ///
    /// - Throws: ``LocalFileHandlerError/readFailed(errno:)`` when `dup` fails (out of descriptors).
    public convenience init(duplicating descriptor: CInt) throws {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw LocalFileHandlerError.readFailed(errno: errno) }
        self.init(adopting: copy)
    }

    deinit {
        POSIX.close(descriptor)
    }

    /// Reads `count` bytes at `offset`; fewer when the file ends first (it was truncated).
    ///
    /// - Throws: ``LocalFileHandlerError/readFailed(errno:)`` on an I/O error.
    package func read(offset: Int64, count: Int) throws -> Data {
        guard count > 0 else { return Data() }
        guard let memory = malloc(count) else { fatalError("out of memory allocating \(count) bytes") }
        switch POSIX.readFully(descriptor, into: memory, count: count, offset: offset) {
        case .success(let read):
            return Data(bytesNoCopy: memory, count: read, deallocator: .free)
        case .failure(let error):
            free(memory)
            throw LocalFileHandlerError.readFailed(errno: error.code)
        }
    }
}
