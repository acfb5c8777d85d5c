// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A strict reader of a zip file's central directory (PKWARE APPNOTE 6.3, with ZIP64).
    ///
    /// Why not ZIPFoundation's reader: its entry iterator stops silently at a malformed record (a damaged
    /// central directory would install a partial package) and its Linux inflate loop spins forever when a
    /// deflate stream runs into the end of the file. This reader checks every record and offset and
    /// throws ``PackageStoreError/Kind/corruptArchive``; ``ArchiveExtractor`` inflates each entry with
    /// input bounded to its compressed size.
    final class ZipReader {
        /// One central directory record.
        struct Entry {
            enum Kind { case file, directory, symbolicLink, special }
            var name: String
            var kind: Kind
            var method: UInt16
            var crc32: UInt32
            var compressedSize: UInt64
            var uncompressedSize: UInt64
            var localHeaderOffset: UInt64
        }

        let fd: Int32
        let path: String
        let fileSize: UInt64
        /// Where the central directory starts: every entry's data must end before it.
        private(set) var centralDirectoryOffset: UInt64 = 0

        init(path: String) throws {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileSystem.failure("open", path) }
            self.path = path
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                throw FileSystem.failure("stat", path)
            }
            fileSize = UInt64(info.st_size)
        }

        deinit { close(fd) }

        private static func corrupt(_ detail: String) -> PackageStoreError {
            PackageStoreError(.corruptArchive(detail))
        }

        /// Reads exactly `count` bytes at `offset`.
        func read(_ count: Int, at offset: UInt64) throws -> [UInt8] {
            guard offset <= fileSize, UInt64(count) <= fileSize - offset else {
                throw Self.corrupt("a record at offset \(offset) extends past the end of the file")
            }
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            try bytes.withUnsafeMutableBytes { buffer in
                while done < count {
                    let result = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    if result < 0 {
                        if errno == EINTR { continue }
                        throw FileSystem.failure("read", path)
                    }
                    if result == 0 { throw Self.corrupt("unexpected end of file at offset \(offset + UInt64(done))") }
                    done += result
                }
            }
            return bytes
        }

        /// Parses the end-of-central-directory records and every central directory entry.
        ///
        /// Throws ``PackageStoreError/Kind/limitExceeded`` when the archive declares more than `maxEntries`.
        func entries(maxEntries: Int) throws -> [Entry] {
            let (count, size, offset) = try locateCentralDirectory()
            guard count <= UInt64(maxEntries) else {
                throw PackageStoreError(.limitExceeded("the archive has \(count) entries, more than \(maxEntries)"))
            }
            guard size <= fileSize, offset <= fileSize - size else {
                throw Self.corrupt("the central directory lies outside the file")
            }
            centralDirectoryOffset = offset
            let directory = try read(Int(size), at: offset)
            var entries: [Entry] = []
            entries.reserveCapacity(Int(count))
            var position = 0
            for index in 0..<count {
                guard position + 46 <= directory.count, directory.u32(position) == 0x0201_4b50 else {
                    throw Self.corrupt("central directory record \(index + 1) of \(count) is damaged")
                }
                let entry = try parseRecord(directory, at: &position)
                // An entry's header and data lie before the central directory: past this check, an
                // offset plus a compressed size cannot overflow (ZIP64 declares them in 64 bits).
                guard entry.localHeaderOffset < offset, entry.compressedSize <= offset - entry.localHeaderOffset else {
                    throw Self.corrupt("the data of \"\(entry.name.prefix(200))\" lies past the central directory")
                }
                entries.append(entry)
            }
            guard position == directory.count else {
                throw Self.corrupt("the central directory has \(directory.count - position) unexpected trailing bytes")
            }
            return entries
        }

        /// The offset of an entry's data, read from its local header, checked to lie before the
        /// directory and to name the same file as the entry's central directory record.
        ///
        /// A local header naming another file is refused, as Python's `zipfile` refuses it: a tool
        /// that reads an archive front to back (a streaming unzip, a scanner) would see a different
        /// file than the one installed, a "zip confusion" that hides a path from whoever checked it.
        func dataOffset(of entry: Entry) throws -> UInt64 {
            let header = try read(30, at: entry.localHeaderOffset)
            guard header.u32(0) == 0x0403_4b50 else {
                throw Self.corrupt("the local header of \"\(entry.name.prefix(200))\" is missing")
            }
            let nameLength = Int(header.u16(26))
            let start = entry.localHeaderOffset + 30 + UInt64(nameLength) + UInt64(header.u16(28))
            guard start <= centralDirectoryOffset, entry.compressedSize <= centralDirectoryOffset - start else {
                throw Self.corrupt("the data of \"\(entry.name.prefix(200))\" overlaps the central directory")
            }
            let localName = try read(nameLength, at: entry.localHeaderOffset + 30)
            guard localName.elementsEqual(entry.name.utf8) else {
                throw Self.corrupt(
                    "the local header of \"\(entry.name.prefix(200))\" names another file, "
                        + "\"\(String(decoding: localName.prefix(200), as: UTF8.self))\"")
            }
            return start
        }

        private func locateCentralDirectory() throws -> (count: UInt64, size: UInt64, offset: UInt64) {
            guard fileSize >= 22 else { throw Self.corrupt("the file is too short to be a zip archive") }
            let tailLength = Int(min(fileSize, 22 + 0xFFFF))
            let tailStart = fileSize - UInt64(tailLength)
            let tail = try read(tailLength, at: tailStart)
            var found: Int?
            var index = tailLength - 22
            while index >= 0 {
                if tail.u32(index) == 0x0605_4b50 && index + 22 + Int(tail.u16(index + 20)) == tailLength {
                    found = index
                    break
                }
                index -= 1
            }
            guard let record = found else {
                throw Self.corrupt("no end-of-central-directory record (the file is truncated or not a zip archive)")
            }
            var count = UInt64(tail.u16(record + 10))
            var size = UInt64(tail.u32(record + 12))
            var offset = UInt64(tail.u32(record + 16))
            guard tail.u16(record + 4) == tail.u16(record + 6) || tail.u16(record + 4) == 0xFFFF else {
                throw Self.corrupt("multi-disk archives are not supported")
            }
            if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
                let recordOffset = tailStart + UInt64(record)
                guard recordOffset >= 20 else { throw Self.corrupt("the ZIP64 locator is missing") }
                let locator = try read(20, at: recordOffset - 20)
                guard locator.u32(0) == 0x0706_4b50 else { throw Self.corrupt("the ZIP64 locator is missing") }
                let zip64 = try read(56, at: locator.u64(8))
                guard zip64.u32(0) == 0x0606_4b50 else { throw Self.corrupt("the ZIP64 end record is damaged") }
                count = zip64.u64(32)
                size = zip64.u64(40)
                offset = zip64.u64(48)
            }
            return (count, size, offset)
        }

        private func parseRecord(_ directory: [UInt8], at position: inout Int) throws -> Entry {
            let base = position
            let madeBy = directory.u16(base + 4)
            let flags = directory.u16(base + 8)
            let method = directory.u16(base + 10)
            let crc = directory.u32(base + 16)
            var compressed = UInt64(directory.u32(base + 20))
            var uncompressed = UInt64(directory.u32(base + 24))
            let nameLength = Int(directory.u16(base + 28))
            let extraLength = Int(directory.u16(base + 30))
            let commentLength = Int(directory.u16(base + 32))
            let external = directory.u32(base + 38)
            var localOffset = UInt64(directory.u32(base + 42))
            let end = base + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw Self.corrupt("a central directory record is truncated") }
            let nameBytes = directory[(base + 46)..<(base + 46 + nameLength)]
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw PackageStoreError(
                    .unsafeEntryPath(
                        path: String(decoding: nameBytes, as: UTF8.self),
                        reason: "the name is not valid UTF-8"))
            }
            // ZIP64 extended information: the 64-bit values, present for each field saturated above.
            var extra = base + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.u16(extra)
                let length = Int(directory.u16(extra + 2))
                guard extra + 4 + length <= extraEnd else {
                    throw Self.corrupt("an extra field of \"\(name)\" is damaged")
                }
                if id == 0x0001 {
                    var field = extra + 4
                    func next() throws -> UInt64 {
                        guard field + 8 <= extra + 4 + length else {
                            throw Self.corrupt("the ZIP64 field of \"\(name.prefix(200))\" is short")
                        }
                        defer { field += 8 }
                        return directory.u64(field)
                    }
                    if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                    if compressed == 0xFFFF_FFFF { compressed = try next() }
                    if localOffset == 0xFFFF_FFFF { localOffset = try next() }
                }
                extra += 4 + length
            }
            guard flags & 0x1 == 0 else { throw Self.corrupt("\"\(name.prefix(200))\" is encrypted") }
            guard method == 0 || method == 8 else {
                throw Self.corrupt(
                    "\"\(name.prefix(200))\" uses compression method \(method) (only stored and deflate)")
            }
            position = end
            return Entry(
                name: name, kind: Self.kind(name: name, madeBy: madeBy, external: external), method: method, crc32: crc,
                compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: localOffset)
        }

        /// The entry's type: Unix mode bits when the archive was made on Unix or macOS, else the DOS
        /// directory bit or a trailing `/`.
        private static func kind(name: String, madeBy: UInt16, external: UInt32) -> Entry.Kind {
            let host = madeBy >> 8
            let mode = external >> 16
            if (host == 3 || host == 19) && mode != 0 {
                switch mode & 0o170000 {
                case 0o120000: return .symbolicLink
                case 0o040000: return .directory
                case 0o100000, 0: return name.hasSuffix("/") ? .directory : .file
                default: return .special
                }
            }
            return name.hasSuffix("/") || external & 0x10 != 0 ? .directory : .file
        }
    }

    extension [UInt8] {
        /// The little-endian 16-bit value at `offset`.
        fileprivate func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
        /// The little-endian 32-bit value at `offset`.
        fileprivate func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }
        /// The little-endian 64-bit value at `offset`.
        fileprivate func u64(_ offset: Int) -> UInt64 { UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32 }
    }
#endif
