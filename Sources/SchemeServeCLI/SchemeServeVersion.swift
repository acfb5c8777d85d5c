// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    /// The version of SchemeKit this `schemeserve` was built from, as `schemeserve --version` prints it.
    ///
    /// Kept equal to the newest heading of `CHANGELOG.md` and the version in the README.
    enum SchemeServeVersion {
        /// The version string (semantic versioning; 0.x while the API may still change).
        static let current = "0.1.0"
    }
#endif
