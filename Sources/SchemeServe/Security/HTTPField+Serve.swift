// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import HTTPTypes

    extension HTTPField.Name {
        static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
        static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode")!
        static let crossOriginResourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy")!
        static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    }
#endif
