// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// A step of an install, reported to the observer passed to ``PackageStore/install(_:observer:)``.
    ///
    /// Events arrive in this order, synchronously on the installing task. Use them for progress; tests use
    /// them as fault-injection points. Until ``activated(version:)`` the previous version stays active.
    public enum PackageInstallEvent: Hashable, Sendable {
        /// The store lock is held and leftovers of interrupted installs were removed.
        case locked
        /// `bytes` of the archive have been written to the staging file so far.
        case transferring(bytes: Int64)
        /// The whole archive is in the staging file; size and SHA-256 are about to be compared.
        case transferred(bytes: Int64)
        /// Size and SHA-256 match (or none was expected).
        case verified
        /// `completed` of `total` entries have been extracted into the staging directory.
        case extracting(completed: Int, total: Int)
        /// Every entry is extracted; the entry point is about to be checked and the files synced.
        case extracted
        /// The entry point exists and the files are on disk; the directory is about to move into `versions/`.
        case validated(version: String)
        /// The directory is in `versions/`; the metadata is about to record it.
        case stored(version: String)
        /// The metadata records the version; the active pointer is about to be switched.
        case recorded(version: String)
        /// The replacement pointer exists under a temporary name; the `rename(2)` that switches is next.
        case switching(version: String)
        /// The pointer names the new version: new requests see it. The metadata is updated next.
        case activated(version: String)
        /// The install is complete.
        case finished(version: String)
    }
#endif
