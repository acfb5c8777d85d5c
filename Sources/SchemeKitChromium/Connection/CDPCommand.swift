#if Chromium
    /// A DevTools command with typed parameters and result.
    ///
    /// ```swift
    /// struct GetVersion: CDPCommand {
    ///     static let method = "Browser.getVersion"
    ///     struct Result: Decodable, Sendable { var product: String }
    /// }
    /// let version = try await connection.send(GetVersion())
    /// ```
    package protocol CDPCommand: Encodable, Sendable {
        /// What the command returns.
        associatedtype Result: Decodable & Sendable
        /// The command's name, such as `Fetch.enable`.
        static var method: String { get }
    }

    /// A result with nothing in it.
    package struct CDPEmptyResult: Decodable, Sendable, Hashable {}
#endif
