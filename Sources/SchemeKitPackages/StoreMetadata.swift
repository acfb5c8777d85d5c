// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation

    /// The store's bookkeeping, `store.json`: installed versions, the active and the previous one.
    ///
    /// Written only under the store lock, always atomically (temporary file + `rename(2)`). The `current`
    /// symbolic link, not this file, decides which version is active: ``reconcile(pointer:)`` repairs the
    /// file after a crash between a switch and the metadata write that follows it.
    struct StoreMetadata: Codable, Equatable {
        /// One installed version.
        struct Record: Codable, Equatable {
            var version: String
            var sha256: String
            var archiveSize: Int64
            var entryPoint: String
            var installedAt: Date
            /// When it first became active; `nil` while an install is between storing and switching.
            var activatedAt: Date?
        }

        var formatVersion = 1
        var active: String?
        var previous: String?
        var versions: [Record] = []

        func record(_ version: String) -> Record? { versions.first { $0.version == version } }

        /// Reads `path`; a missing file is an empty store.
        static func load(_ path: String) throws -> StoreMetadata {
            guard let data = FileManager.default.contents(atPath: path) else {
                if FileSystem.exists(path) { throw PackageStoreError(.corruptStore("\(path) cannot be read")) }
                return StoreMetadata()
            }
            do {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                return try decoder.decode(StoreMetadata.self, from: data)
            } catch {
                throw PackageStoreError(.corruptStore("\(path): \(error)"))
            }
        }

        /// Writes `path` atomically.
        func save(_ path: String, durable: Bool) throws {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileSystem.writeAtomically(try encoder.encode(self), to: path, durable: durable)
        }

        /// Makes the metadata agree with the active pointer, which is the source of truth.
        ///
        /// A pointer naming another version than ``active`` means a switch (install or rollback) finished
        /// but the metadata write after it did not: the version the metadata called active is the previous one.
        mutating func reconcile(pointer: String?, now: Date) {
            guard let pointer else {
                active = nil
                return
            }
            if pointer != active {
                if let active { previous = active }
                active = pointer
            }
            if let index = versions.firstIndex(where: { $0.version == pointer }), versions[index].activatedAt == nil {
                versions[index].activatedAt = now
            }
            if previous == active { previous = nil }
        }
    }
#endif
