// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Why a package store operation failed.
    ///
    /// Every failure of an install leaves the store as it was: the same active version, the same files.
    /// Match on ``kind`` to react to a class of failure; print ``description`` for a one-line explanation.
    public struct PackageStoreError: Error, Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case sizeMismatch(expected: Int64, actual: Int64)
            case checksumMismatch(expected: String, actual: String)
            case invalidChecksum(String)
            case corruptArchive(String)
            case unsafeEntryPath(path: String, reason: String)
            case symbolicLinkEntry(path: String)
            case duplicateEntry(String)
            case limitExceeded(String)
            case missingEntryPoint(String, folder: String?)
            case invalidEntryPoint(String)
            case missingVersion(folder: String?)
            case invalidVersion(String)
            case versionConflict(version: String, installed: String, offered: String)
            case noActiveVersion
            case noPreviousVersion
            case notInstalled(String)
            case insecureURL(String)
            case noHTTPClient
            case httpStatus(url: String, status: Int)
            case transferFailed(url: String, reason: String)
            case invalidManifest(String)
            case fileSystem(operation: String, path: String, errno: Int32)
            case corruptStore(String)
        }

        let code: Code

        init(_ code: Code) { self.code = code }

        /// A class of failure, for matching: `catch let error as PackageStoreError where error.kind == .checksumMismatch`.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            /// The name of the kind, e.g. `checksumMismatch`.
            public let description: String
            init(_ name: String) { self.description = name }

            /// The archive's size differs from the expected size.
            public static let sizeMismatch = Kind("sizeMismatch")
            /// The archive's SHA-256 differs from the expected digest.
            public static let checksumMismatch = Kind("checksumMismatch")
            /// The expected SHA-256 is not 64 hexadecimal digits.
            public static let invalidChecksum = Kind("invalidChecksum")
            /// The archive is truncated or malformed, or an entry's content does not match its CRC-32 or size.
            public static let corruptArchive = Kind("corruptArchive")
            /// An entry's path is absolute, contains `..`, `.`, empty components, backslashes or NUL ("zip slip").
            public static let unsafeEntryPath = Kind("unsafeEntryPath")
            /// The archive contains a symbolic link; packages may not contain any.
            public static let symbolicLinkEntry = Kind("symbolicLinkEntry")
            /// Two entries name the same file, or a file and a directory share a path.
            public static let duplicateEntry = Kind("duplicateEntry")
            /// A ``PackageLimits`` limit was exceeded (archive size, total size, file count, compression ratio).
            public static let limitExceeded = Kind("limitExceeded")
            /// The package has no file at its entry point.
            public static let missingEntryPoint = Kind("missingEntryPoint")
            /// The entry point is not a safe relative path.
            public static let invalidEntryPoint = Kind("invalidEntryPoint")
            /// No version was given and the package has no manifest naming one.
            public static let missingVersion = Kind("missingVersion")
            /// The version is not usable as a directory name.
            public static let invalidVersion = Kind("invalidVersion")
            /// The version is already installed with different content.
            public static let versionConflict = Kind("versionConflict")
            /// The store has no active version.
            public static let noActiveVersion = Kind("noActiveVersion")
            /// There is no previous version to roll back to.
            public static let noPreviousVersion = Kind("noPreviousVersion")
            /// The named version is not installed.
            public static let notInstalled = Kind("notInstalled")
            /// The URL is not `https` (plain `http` needs ``PackageStore/Configuration/allowsPlainHTTP``).
            public static let insecureURL = Kind("insecureURL")
            /// A URL was given but the store has no HTTP client.
            public static let noHTTPClient = Kind("noHTTPClient")
            /// The server answered with a status other than 200.
            public static let httpStatus = Kind("httpStatus")
            /// The transfer failed (connection, timeout, read error).
            public static let transferFailed = Kind("transferFailed")
            /// The update manifest or the package manifest is not valid.
            public static let invalidManifest = Kind("invalidManifest")
            /// A file system call failed.
            public static let fileSystem = Kind("fileSystem")
            /// The store's metadata cannot be read.
            public static let corruptStore = Kind("corruptStore")
        }

        /// The class of this failure.
        public var kind: Kind {
            switch code {
            case .sizeMismatch: .sizeMismatch
            case .checksumMismatch: .checksumMismatch
            case .invalidChecksum: .invalidChecksum
            case .corruptArchive: .corruptArchive
            case .unsafeEntryPath: .unsafeEntryPath
            case .symbolicLinkEntry: .symbolicLinkEntry
            case .duplicateEntry: .duplicateEntry
            case .limitExceeded: .limitExceeded
            case .missingEntryPoint: .missingEntryPoint
            case .invalidEntryPoint: .invalidEntryPoint
            case .missingVersion: .missingVersion
            case .invalidVersion: .invalidVersion
            case .versionConflict: .versionConflict
            case .noActiveVersion: .noActiveVersion
            case .noPreviousVersion: .noPreviousVersion
            case .notInstalled: .notInstalled
            case .insecureURL: .insecureURL
            case .noHTTPClient: .noHTTPClient
            case .httpStatus: .httpStatus
            case .transferFailed: .transferFailed
            case .invalidManifest: .invalidManifest
            case .fileSystem: .fileSystem
            case .corruptStore: .corruptStore
            }
        }

        /// A one-line explanation, suitable for a command line tool's error output.
        public var description: String {
            switch code {
            case .sizeMismatch(let expected, let actual):
                "package size mismatch: expected \(expected) bytes, got \(actual)"
            case .checksumMismatch(let expected, let actual):
                "package checksum mismatch: expected SHA-256 \(expected), got \(actual)"
            case .invalidChecksum(let value):
                "invalid SHA-256 \"\(value.prefix(80))\": expected 64 hexadecimal digits"
            case .corruptArchive(let detail):
                "corrupt or truncated zip archive: \(detail)"
            case .unsafeEntryPath(let path, let reason):
                "unsafe entry path \"\(path.prefix(200))\" in package: \(reason)"
            case .symbolicLinkEntry(let path):
                "package entry \"\(path.prefix(200))\" is a symbolic link; packages may not contain symbolic links"
            case .duplicateEntry(let path):
                "package contains \"\(path.prefix(200))\" twice (or as both a file and a directory)"
            case .limitExceeded(let detail):
                "package exceeds a limit: \(detail)"
            case .missingEntryPoint(let path, let folder):
                "package has no entry point: \"\(path.prefix(200))\" is not a file in the package"
                    + Self.folderHint(folder)
            case .invalidEntryPoint(let path):
                "invalid entry point \"\(path.prefix(200))\": expected a relative path without '..'"
            case .missingVersion(let folder):
                "no version given and the package has no schemekit-package.json naming one" + Self.folderHint(folder)
            case .invalidVersion(let version):
                "invalid version \"\(version.prefix(80))\": use 1-128 letters, digits, '.', '_', '+' or '-', starting with a letter or digit"
            case .versionConflict(let version, let installed, let offered):
                "version \(version) is already installed with SHA-256 \(installed), not \(offered)"
            case .noActiveVersion:
                "the package store has no active version"
            case .noPreviousVersion:
                "the package store has no previous version to roll back to"
            case .notInstalled(let version):
                "version \(version) is not installed"
            case .insecureURL(let url):
                "refusing to download from \(url): only https URLs are allowed"
            case .noHTTPClient:
                "cannot download: the package store was created without an HTTP client"
            case .httpStatus(let url, let status):
                "download of \(url) failed with HTTP status \(status)"
            case .transferFailed(let url, let reason):
                "download of \(url) failed: \(reason)"
            case .invalidManifest(let detail):
                "invalid manifest: \(detail)"
            case .fileSystem(let operation, let path, let errno):
                "\(operation) \(path) failed: \(String(cString: strerror(errno))) (errno \(errno))"
            case .corruptStore(let detail):
                "the package store's metadata is unreadable: \(detail)"
            }
        }

        /// What to do when everything in the archive is inside one folder (a zipped folder rather
        /// than its contents): nothing when `folder` is `nil`.
        private static func folderHint(_ folder: String?) -> String {
            guard let folder else { return "" }
            let name = String(folder.prefix(100))
            let plain = name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0))
            }
            let quoted = name.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
            let shell = plain ? name : "'" + quoted + "'"
            return "; everything in the archive is inside the folder \"\(name)/\": "
                + "zip the folder's contents instead (cd \(shell) && zip -r ../app.zip .)"
        }

        /// The one folder every file in `files` (an archive's relative paths) is inside, if there
        /// is one.
        static func wrappingFolder(of files: Set<String>) -> String? {
            guard let first = files.first, let slash = first.firstIndex(of: "/") else { return nil }
            let prefix = first[...slash]
            return files.allSatisfy { $0.hasPrefix(prefix) } ? String(first[..<slash]) : nil
        }
    }
#endif
