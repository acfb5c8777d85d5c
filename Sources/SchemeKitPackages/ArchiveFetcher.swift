// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Crypto
    internal import Foundation
    internal import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Brings an archive into the staging directory, hashing it on the way (one pass, bounded memory).
    ///
    /// The copy protects the install from changes to the source while it runs: the bytes verified are the
    /// bytes extracted.
    struct ArchiveFetcher {
        /// What was written.
        struct Result {
            var size: Int64
            var sha256: String
        }

        var limits: PackageLimits
        var expectedSize: Int64?
        var observer: (@Sendable (PackageInstallEvent) -> Void)?

        /// The largest number of bytes accepted: the expected size when known (one byte more to detect
        /// a longer archive), else the archive size limit.
        private var ceiling: Int64 {
            if let expectedSize { return min(expectedSize + 1, limits.maxArchiveSize + 1) }
            return limits.maxArchiveSize + 1
        }

        /// Copies a local file into `destination`.
        func copy(from source: URL, to destination: String) throws -> Result {
            let input = open(source.path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw FileSystem.failure("open", source.path) }
            defer { close(input) }
            return try withOutput(destination) { sink in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let count = read(input, buffer.baseAddress, buffer.count)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw FileSystem.failure("read", source.path)
                    }
                    if count == 0 { break }
                    try sink.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
            }
        }

        /// Downloads `url` through `client` into `destination`.
        func download(_ url: URL, client: any SchemeHTTPClient, timeout: Duration, to destination: String) async throws
            -> Result
        {
            let response: SchemeHTTPClientResponse
            do {
                response = try await client.send(SchemeHTTPClientRequest(url: url, timeout: timeout))
            } catch let error as CancellationError {
                throw error
            } catch {
                throw PackageStoreError(.transferFailed(url: url.absoluteString, reason: "\(error)"))
            }
            guard response.head.status.code == 200 else {
                throw PackageStoreError(.httpStatus(url: url.absoluteString, status: response.head.status.code))
            }
            let sink = try Sink(path: destination, ceiling: ceiling, limits: limits, observer: observer)
            defer { sink.close() }
            do {
                for try await chunk in response.body {
                    try chunk.withUnsafeBytes { try sink.append($0) }
                }
            } catch let error as PackageStoreError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                throw PackageStoreError(.transferFailed(url: url.absoluteString, reason: "\(error)"))
            }
            return try sink.finish()
        }

        private func withOutput(_ destination: String, _ body: (Sink) throws -> Void) throws -> Result {
            let sink = try Sink(path: destination, ceiling: ceiling, limits: limits, observer: observer)
            defer { sink.close() }
            try body(sink)
            return try sink.finish()
        }

        /// The staging file being written, with its running hash and size.
        private final class Sink {
            let fd: Int32
            let path: String
            let ceiling: Int64
            let limits: PackageLimits
            let observer: (@Sendable (PackageInstallEvent) -> Void)?
            var hasher = SHA256()
            var size: Int64 = 0
            var closed = false

            init(
                path: String, ceiling: Int64, limits: PackageLimits,
                observer: (@Sendable (PackageInstallEvent) -> Void)?
            )
                throws
            {
                fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw FileSystem.failure("create", path) }
                self.path = path
                self.ceiling = ceiling
                self.limits = limits
                self.observer = observer
            }

            func append(_ bytes: UnsafeRawBufferPointer) throws {
                guard let base = bytes.baseAddress, bytes.count > 0 else { return }
                size += Int64(bytes.count)
                if size >= ceiling {
                    if size > limits.maxArchiveSize {
                        throw PackageStoreError(
                            .limitExceeded("the archive is larger than \(limits.maxArchiveSize) bytes"))
                    }
                    throw PackageStoreError(.sizeMismatch(expected: ceiling - 1, actual: size))
                }
                hasher.update(bufferPointer: bytes)
                try FileSystem.writeAll(fd, base, bytes.count, path: path)
                observer?(.transferring(bytes: size))
            }

            func finish() throws -> Result {
                if fsync(fd) != 0 { throw FileSystem.failure("fsync", path) }
                let digest = hasher.finalize()
                let hex = digest.map { byte in
                    let digits: [Character] = Array("0123456789abcdef")
                    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
                }.joined()
                return Result(size: size, sha256: hex)
            }

            func close() {
                guard !closed else { return }
                closed = true
                _ = Glibc.close(fd)
            }
        }
    }
#endif
