// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import SchemeKitPackages

    extension PackageStoreError {
        /// The exit status for this failure: 64 (EX_USAGE) when the command line itself is wrong
        /// (malformed SHA-256 or version, an http URL without `--allow-http`), 1 otherwise.
        var exitStatus: Int32 {
            switch kind {
            case .invalidChecksum, .invalidVersion, .insecureURL: 64
            default: 1
            }
        }

        /// What to change on the command line, appended to the error line; empty when nothing applies.
        var commandLineHint: String {
            switch kind {
            case .insecureURL: " (pass --allow-http for a local development server)"
            default: ""
            }
        }
    }
#endif
