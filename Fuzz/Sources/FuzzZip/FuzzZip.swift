import Foundation
import FuzzSupport

@testable import SchemeKitPackages

/// The package store's zip reader and extractor, on hostile archives.
///
/// Each input is written to a file and extracted into an empty directory with the store's
/// extractor, under limits scaled for fuzzing. Properties: a typed `PackageStoreError` or a
/// result, never a trap; every extracted file lies inside the directory and the bytes written
/// stay within the limits. Hangs and allocations beyond the limits are caught by libFuzzer
/// (`-timeout`, `-rss_limit_mb`, `-malloc_limit_mb`, set by Scripts/fuzz.sh).
@main
struct FuzzZip {
    /// The store's defaults, but 64 MiB in all so a run stays on a small disk budget.
    static let limits = PackageLimits(maxUncompressedSize: 64 << 20, maxEntryCount: 10_000)
    static let base: String = {
        let directory = FileManager.default.temporaryDirectory.path + "/schemekit-fuzzzip-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }()

    static func main() {
        Fuzzer.run { buffer in
            check(Data(buffer))
        }
    }

    static func check(_ data: Data) {
        let archive = base + "/archive.zip"
        let root = base + "/out"
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard FileManager.default.createFile(atPath: archive, contents: data) else {
            Fuzzer.fail("cannot write \(archive)")
        }

        // The reader alone, as the store's inspection does.
        if let reader = try? ZipReader(path: archive),
            let entries = try? reader.entries(maxEntries: limits.maxEntryCount)
        {
            require(entries.count <= limits.maxEntryCount, "more entries than the limit")
            for entry in entries.prefix(64) { _ = try? reader.dataOffset(of: entry) }
        }

        let result: ArchiveExtractor.Result
        do {
            result = try ArchiveExtractor(limits: limits, observer: nil).extract(archive: archive, into: root)
        } catch let error as PackageStoreError {
            _ = error.description
            return
        } catch {
            Fuzzer.fail("untyped error \(error)")
        }
        require(result.bytes <= limits.maxUncompressedSize, "extracted more than the limit")
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: base).sorted()) ?? []
        require(beside == ["archive.zip", "out"], "extracted outside the directory: \(beside)")
        // Walked with contentsOfDirectory: FileManager.enumerator(atPath:) on Linux mangles a name
        // that starts with a combining mark (it strips the prefix by characters, and the mark joins
        // the "/" before it), so the file went uncounted: a FuzzZip input named one "\u{059C}v.eoi.txt".
        var written: Int64 = 0
        func walk(_ directory: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                let path = directory + "/" + name
                let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
                require(type != .typeSymbolicLink, "symbolic link extracted: \(path)")
                if type == .typeDirectory { walk(path) }
                if type == .typeRegular {
                    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
                    written += size?.int64Value ?? 0
                }
            }
        }
        walk(root)
        require(written == result.bytes, "wrote \(written) bytes, reported \(result.bytes)")
        require(Set(result.files).count == result.files.count, "files")
    }
}
