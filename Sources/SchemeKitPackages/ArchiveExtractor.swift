// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import CSchemeKitZlib
    internal import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Extracts a zip archive into an empty directory, entry by entry, refusing anything unsafe.
    ///
    /// Every entry is checked before the first byte is written (paths, types, duplicates, declared sizes
    /// and ratios); then each is inflated with its input bounded to its compressed size, and the bytes
    /// actually produced are counted against its declared size, its CRC-32 and the ``PackageLimits``.
    /// Files are created with `O_EXCL | O_NOFOLLOW`, mode 0644 (directories 0755): the archive's
    /// permission bits are ignored. Symbolic links are refused outright (see ``PackageStore``).
    package struct ArchiveExtractor {
        /// What was extracted.
        struct Result {
            /// Relative paths of the regular files.
            var files: Set<String>
            /// The total size of the files, in bytes.
            var bytes: Int64
        }

        var limits: PackageLimits
        var observer: (@Sendable (PackageInstallEvent) -> Void)?

        private static let bufferSize = 256 * 1024

        private static func corrupt(_ detail: String) -> PackageStoreError {
            PackageStoreError(.corruptArchive(detail))
        }

        /// Extracts the zip archive at `archive` into the existing, empty directory `directory` with
        /// every check of the store's extraction (paths inside the directory, no links, declared and
        /// produced sizes, CRC-32, `limits`): for this package's tools, which unzip Playwright's
        /// `.har.zip` (`schemeserve --har`, `headless-render --har`).
        ///
        /// - Throws: ``PackageStoreError`` for an unsafe, corrupt or oversized archive, or an I/O error.
        package static func extract(
            zip archive: String, into directory: String, limits: PackageLimits = PackageLimits()
        ) throws {
            _ = try ArchiveExtractor(limits: limits, observer: nil).extract(archive: archive, into: directory)
        }

        /// Extracts the archive at `archive` into the existing, empty directory `root`.
        func extract(archive: String, into root: String) throws -> Result {
            let reader = try ZipReader(path: archive)
            let entries = try reader.entries(maxEntries: limits.maxEntryCount)
            let plan = try self.plan(entries)
            try checkOverlaps(plan.entries, reader: reader)

            for directory in plan.directories.sorted(by: { $0.count < $1.count }) {
                try FileSystem.makeDirectory(root + "/" + directory)
            }
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
            let output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
            defer {
                input.deallocate()
                output.deallocate()
            }
            var total: Int64 = 0
            for (index, item) in plan.entries.enumerated() {
                if item.entry.kind == .file {
                    let start = try reader.dataOffset(of: item.entry)
                    let target = root + "/" + item.path.relative
                    let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                    guard fd >= 0 else {
                        if errno == EEXIST { throw PackageStoreError(.duplicateEntry(item.entry.name)) }
                        throw FileSystem.failure("create", target)
                    }
                    defer { close(fd) }
                    var sink = EntrySink(
                        fd: fd, path: target, name: item.entry.name, declared: item.entry.uncompressedSize,
                        compressed: item.entry.compressedSize, limits: limits, total: total)
                    if item.entry.method == 0 {
                        try copyStored(item.entry, from: reader, at: start, buffer: input, into: &sink)
                    } else {
                        try inflate(item.entry, from: reader, at: start, input: input, output: output, into: &sink)
                    }
                    guard sink.produced == item.entry.uncompressedSize else {
                        throw Self.corrupt("\"\(item.entry.name.prefix(200))\" is shorter than its declared size")
                    }
                    guard sink.crc == item.entry.crc32 else {
                        throw Self.corrupt("\"\(item.entry.name.prefix(200))\" does not match its CRC-32")
                    }
                    total = sink.total
                }
                observer?(.extracting(completed: index + 1, total: plan.entries.count))
            }
            return Result(files: plan.files, bytes: total)
        }

        // MARK: - Planning

        private struct Plan {
            var entries: [(entry: ZipReader.Entry, path: ZipEntryPath)] = []
            var files: Set<String> = []
            var directories: Set<String> = []
        }

        /// Validates every entry and the declared sizes; nothing is written yet.
        private func plan(_ entries: [ZipReader.Entry]) throws -> Plan {
            var plan = Plan()
            var declaredTotal: UInt64 = 0
            for entry in entries {
                switch entry.kind {
                case .symbolicLink:
                    throw PackageStoreError(.symbolicLinkEntry(path: entry.name))
                case .special:
                    throw PackageStoreError(
                        .unsafeEntryPath(path: entry.name, reason: "not a regular file or directory"))
                case .file, .directory:
                    break
                }
                let path = try ZipEntryPath(entry.name, isDirectory: entry.kind == .directory)
                let relative = path.relative
                var ancestor = ""
                for component in path.components.dropLast() {
                    ancestor = ancestor.isEmpty ? String(component) : ancestor + "/" + component
                    if plan.files.contains(ancestor) { throw PackageStoreError(.duplicateEntry(entry.name)) }
                    plan.directories.insert(ancestor)
                }
                if entry.kind == .directory {
                    if plan.files.contains(relative) { throw PackageStoreError(.duplicateEntry(entry.name)) }
                    plan.directories.insert(relative)
                } else {
                    if plan.files.contains(relative) || plan.directories.contains(relative) {
                        throw PackageStoreError(.duplicateEntry(entry.name))
                    }
                    plan.files.insert(relative)
                    // ZIP64 declares sizes in 64 bits: a sum that overflows is over any limit.
                    let (sum, overflow) = declaredTotal.addingReportingOverflow(entry.uncompressedSize)
                    declaredTotal = sum
                    if overflow || declaredTotal > UInt64(limits.maxUncompressedSize) {
                        throw PackageStoreError(
                            .limitExceeded("the files total more than \(limits.maxUncompressedSize) bytes uncompressed")
                        )
                    }
                    try Self.checkRatio(
                        name: entry.name, compressed: entry.compressedSize, produced: entry.uncompressedSize,
                        limits: limits
                    )
                    if entry.method == 0 && entry.compressedSize != entry.uncompressedSize {
                        throw Self.corrupt("stored entry \"\(entry.name.prefix(200))\" has two different sizes")
                    }
                }
                plan.entries.append((entry, path))
            }
            return plan
        }

        /// Throws when `produced` bytes from `compressed` bytes exceed the ratio limit.
        fileprivate static func checkRatio(name: String, compressed: UInt64, produced: UInt64, limits: PackageLimits)
            throws
        {
            guard produced > UInt64(limits.compressionRatioThreshold) else { return }
            let (allowed, overflow) = max(compressed, 1).multipliedReportingOverflow(
                by: UInt64(limits.maxCompressionRatio))
            if !overflow && produced > allowed {
                throw PackageStoreError(
                    .limitExceeded(
                        "\"\(name.prefix(200))\" expands more than \(limits.maxCompressionRatio) times"
                            + " (\(compressed) bytes to at least \(produced))"))
            }
        }

        /// Refuses archives whose entries share bytes (the "overlapping files" zip bomb).
        private func checkOverlaps(_ entries: [(entry: ZipReader.Entry, path: ZipEntryPath)], reader: ZipReader) throws
        {
            let ranges = entries.filter { $0.entry.kind == .file }.map { item in
                (
                    start: item.entry.localHeaderOffset,
                    end: item.entry.localHeaderOffset + 30 + item.entry.compressedSize
                )
            }.sorted { $0.start < $1.start }
            for (previous, next) in zip(ranges, ranges.dropFirst()) where next.start < previous.end {
                throw Self.corrupt("two entries share the same bytes")
            }
        }

        // MARK: - Copying

        /// Where an entry's bytes go: counts them against the declared size and the limits, hashes, writes.
        private struct EntrySink {
            let fd: Int32
            let path: String
            let name: String
            let declared: UInt64
            let compressed: UInt64
            let limits: PackageLimits
            var total: Int64
            var produced: UInt64 = 0
            var crc = UInt32(0)

            init(
                fd: Int32, path: String, name: String, declared: UInt64, compressed: UInt64, limits: PackageLimits,
                total: Int64
            ) {
                self.fd = fd
                self.path = path
                self.name = name
                self.declared = declared
                self.compressed = compressed
                self.limits = limits
                self.total = total
            }

            mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
                guard let base = bytes.baseAddress, bytes.count > 0 else { return }
                produced += UInt64(bytes.count)
                total += Int64(bytes.count)
                guard produced <= declared else {
                    throw ArchiveExtractor.corrupt(
                        "\"\(name.prefix(200))\" inflates to more than its declared \(declared) bytes")
                }
                if total > limits.maxUncompressedSize {
                    throw PackageStoreError(
                        .limitExceeded("the files total more than \(limits.maxUncompressedSize) bytes uncompressed"))
                }
                try ArchiveExtractor.checkRatio(name: name, compressed: compressed, produced: produced, limits: limits)
                crc = UInt32(
                    truncatingIfNeeded: crc32(UInt(crc), base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count)))
                try FileSystem.writeAll(fd, base, bytes.count, path: path)
            }
        }

        /// Reads up to `count` bytes at `offset` into `buffer`; fewer only at the end of the file.
        private func readChunk(
            _ reader: ZipReader, _ buffer: UnsafeMutableRawBufferPointer, _ count: Int, at offset: UInt64
        )
            throws
        {
            var done = 0
            while done < count {
                let result = pread(reader.fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw FileSystem.failure("read", reader.path)
                }
                if result == 0 { throw Self.corrupt("unexpected end of file") }
                done += result
            }
        }

        private func copyStored(
            _ entry: ZipReader.Entry, from reader: ZipReader, at start: UInt64, buffer: UnsafeMutableRawBufferPointer,
            into sink: inout EntrySink
        ) throws {
            var offset = start
            var remaining = entry.compressedSize
            while remaining > 0 {
                let count = Int(min(remaining, UInt64(buffer.count)))
                try readChunk(reader, buffer, count, at: offset)
                try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                offset += UInt64(count)
                remaining -= UInt64(count)
            }
        }

        /// Inflates raw deflate data (RFC 1951) read from exactly `entry.compressedSize` bytes at `start`.
        private func inflate(
            _ entry: ZipReader.Entry, from reader: ZipReader, at start: UInt64, input: UnsafeMutableRawBufferPointer,
            output: UnsafeMutableRawBufferPointer, into sink: inout EntrySink
        ) throws {
            var stream = z_stream()
            guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw Self.corrupt("cannot start inflating \"\(entry.name.prefix(200))\"")
            }
            defer { inflateEnd(&stream) }
            var offset = start
            var remaining = entry.compressedSize
            while true {
                if stream.avail_in == 0 && remaining > 0 {
                    let count = Int(min(remaining, UInt64(input.count)))
                    try readChunk(reader, input, count, at: offset)
                    offset += UInt64(count)
                    remaining -= UInt64(count)
                    stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_in = UInt32(count)
                }
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = UInt32(output.count)
                let status = CSchemeKitZlib.inflate(&stream, Z_NO_FLUSH)
                let produced = output.count - Int(stream.avail_out)
                try sink.write(UnsafeRawBufferPointer(rebasing: output[0..<produced]))
                switch status {
                case Z_STREAM_END:
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    throw Self.corrupt("the compressed data of \"\(entry.name.prefix(200))\" ends early")
                default:
                    throw Self.corrupt("the compressed data of \"\(entry.name.prefix(200))\" is damaged")
                }
            }
        }
    }
#endif
