// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// What ``PackageStore/checkForUpdate(manifestURL:)`` did.
    public enum PackageUpdateResult: Hashable, Sendable {
        /// The offered version was newer than every installed version; it is installed and active.
        case installed(PackageVersion)
        /// The offered version is the newest installed version; nothing was done.
        case upToDate(version: String)
        /// A newer version than the one offered is installed; nothing was done.
        case offeredVersionIsOlder(offered: String, installed: String)
    }
#endif
