/// Why a registration was refused.
public struct SchemeRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case invalidSchemeName(String)
        case reservedScheme(String)
        case invalidPathPrefix(String)
        case duplicateRoute(String)
    }

    let code: Code

    /// The name is not an RFC 3986 scheme name.
    public static func invalidSchemeName(_ name: String) -> SchemeRegistryError {
        .init(code: .invalidSchemeName(name))
    }
    /// The engine handles this scheme itself (`http`, `file`, …).
    public static func reservedScheme(_ name: String) -> SchemeRegistryError { .init(code: .reservedScheme(name)) }
    /// A path prefix must start with `/`.
    public static func invalidPathPrefix(_ prefix: String) -> SchemeRegistryError {
        .init(code: .invalidPathPrefix(prefix))
    }
    /// A handler is already registered for this scheme, host and path prefix.
    public static func duplicateRoute(_ route: String) -> SchemeRegistryError { .init(code: .duplicateRoute(route)) }

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .invalidSchemeName(let name):
            "invalid scheme name \"\(name.prefix(80))\": expected a letter followed by letters, digits, '+', '-' or '.' (RFC 3986)"
        case .reservedScheme(let name):
            "the scheme \"\(name)\" is handled by the web engine itself and cannot be registered"
        case .invalidPathPrefix(let prefix):
            "invalid path prefix \"\(prefix.prefix(80))\": it must start with '/'"
        case .duplicateRoute(let route):
            "a handler is already registered for \(route)"
        }
    }
}
