#if Firefox
    /// A message from the browser that is not what WebDriver BiDi says it must be: bad JSON, or a
    /// value of the wrong shape where SchemeKit needs one.
    package struct BiDiProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
        package let description: String

        package init(_ description: String) { self.description = description }
    }
#endif
