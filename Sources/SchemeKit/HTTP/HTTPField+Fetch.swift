package import HTTPTypes

extension HTTPField.Name {
    /// `Sec-Fetch-Site` ([Fetch Metadata](https://www.w3.org/TR/fetch-metadata/)).
    package static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    /// `Sec-Fetch-Mode` ([Fetch Metadata](https://www.w3.org/TR/fetch-metadata/)).
    package static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode")!
}
