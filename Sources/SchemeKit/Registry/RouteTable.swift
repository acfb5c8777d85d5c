import HTTPTypes

/// The registry's routes: scheme → host → path prefix → handler. A plain value, swapped whole.
struct RouteTable: Sendable {
    /// A class: a lookup hands out one reference, not eight fields to copy.
    final class Route: Sendable {
        let host: String?
        let pathPrefix: String
        let handler: any SchemeHandler
        /// The handler's trace name, read once at registration: the default `name` reflects on
        /// the type, far too slow to do per request.
        let name: String
        /// The handler's methods, read once at registration (the default builds a new set).
        let methods: Set<HTTPRequest.Method>
        /// Whether ``methods`` holds GET / HEAD: the common check without hashing.
        let allowsGet: Bool
        let allowsHead: Bool

        init(host: String?, pathPrefix: String, handler: any SchemeHandler) {
            self.host = host
            self.pathPrefix = pathPrefix
            self.handler = handler
            self.name = handler.name
            self.methods = handler.supportedMethods
            self.allowsGet = methods.contains(.get)
            self.allowsHead = methods.contains(.head)
        }

        /// The route answering 405 (`Allow`: ``methods``) for the methods the handler does not take.
        var methodNotAllowed: Route {
            Route(
                host: host, pathPrefix: pathPrefix, handler: MethodNotAllowedHandler(allowed: methods))
        }

        /// Whether the handler takes `method`.
        func allows(_ method: HTTPRequest.Method) -> Bool {
            if method == .get { return allowsGet }
            if method == .head { return allowsHead }
            return methods.contains(method)
        }
    }

    /// Routes by scheme. An array, not a dictionary: apps register one to three schemes, and
    /// comparing a few short strings is cheaper than hashing one on every request.
    private(set) var schemeRoutes: [(scheme: String, routes: [Route])] = []

    var schemes: [SchemeName] {
        schemeRoutes.map(\.scheme).sorted().compactMap(SchemeName.init(rawValue:))
    }

    private func index(of scheme: String) -> Int? {
        schemeRoutes.firstIndex { $0.scheme == scheme }
    }

    mutating func add(_ route: Route, scheme: SchemeName) throws(SchemeRegistryError) {
        let index = index(of: scheme.rawValue)
        var list = index.map { schemeRoutes[$0].routes } ?? []
        if list.contains(where: { $0.host == route.host && $0.pathPrefix == route.pathPrefix }) {
            throw .duplicateRoute("\(scheme)://\(route.host ?? "*")\(route.pathPrefix)")
        }
        list.append(route)
        // Most specific first: a named host before any host, then the longest prefix.
        list.sort { lhs, rhs in
            if (lhs.host != nil) != (rhs.host != nil) { return lhs.host != nil }
            return lhs.pathPrefix.utf8.count > rhs.pathPrefix.utf8.count
        }
        if let index {
            schemeRoutes[index].routes = list
        } else {
            schemeRoutes.append((scheme.rawValue, list))
        }
    }

    @discardableResult
    mutating func remove(scheme: SchemeName, host: String?, pathPrefix: String?) -> Bool {
        guard let index = index(of: scheme.rawValue) else { return false }
        var list = schemeRoutes[index].routes
        let before = list.count
        list.removeAll { route in
            (pathPrefix == nil && host == nil)
                || (route.host == host && (pathPrefix == nil || route.pathPrefix == pathPrefix))
        }
        if list.isEmpty {
            schemeRoutes.remove(at: index)
        } else {
            schemeRoutes[index].routes = list
        }
        return list.count != before
    }

    func handler(scheme: String, host: String, path: String) -> (any SchemeHandler)? {
        route(scheme: scheme, host: host, path: path)?.handler
    }

    /// The most specific route for a request: its host's routes first, then the longest prefix.
    func route(scheme: String, host: String, path: String) -> Route? {
        guard let index = index(of: scheme) else { return nil }
        let list = schemeRoutes[index].routes
        for route in list {
            if let routeHost = route.host, routeHost != host { continue }
            if Self.path(path, hasPrefix: route.pathPrefix) { return route }
        }
        return nil
    }

    /// Whether `path` is under `prefix`, by whole segments: `/api` covers `/api` and `/api/x`, not `/apix`.
    static func path(_ path: String, hasPrefix prefix: String) -> Bool {
        if prefix == "/" { return true }
        guard path.hasPrefix(prefix) else { return false }
        if prefix.hasSuffix("/") { return true }
        let rest = path.utf8.dropFirst(prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}
