#if Chromium
    /// The DevTools-protocol commands and events SchemeKit uses, as `Codable` Swift types.
    ///
    /// Only the fields SchemeKit reads or writes are declared; Chromium ignores missing optional
    /// parameters and the decoders ignore fields they do not declare. Names follow the protocol
    /// (<https://chromedevtools.github.io/devtools-protocol/>).
    package enum CDP {
        /// A header as the Fetch domain carries it.
        package struct HeaderEntry: Codable, Sendable, Hashable {
            /// The header's name.
            package var name: String
            /// The header's value.
            package var value: String
            /// Creates an entry.
            package init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }
    }
#endif
