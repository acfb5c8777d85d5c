import HTTPTypes

/// The registry's routes: scheme → host → path prefix → handler. A plain value, swapped whole.
struct RouteTable: Sendable {
    struct Route: Sendable {
        let host: String?
        let pathPrefix: String
        let handler: any SchemeHandler
        /// The handler's trace name, read once at registration: the default `name` reflects on
        /// the type, far too slow to do per request.
        let name: String
        /// The handler's methods, read once at registration (the default builds a new set).
        let methods: Set<HTTPRequest.Method>

        init(host: String?, pathPrefix: String, handler: any SchemeHandler) {
            self.host = host
            self.pathPrefix = pathPrefix
            self.handler = handler
            self.name = handler.name
            self.methods = handler.supportedMethods
        }
    }

    private(set) var routes: [String: [Route]] = [:]

    var schemes: [SchemeName] {
        routes.keys.sorted().compactMap(SchemeName.init(rawValue:))
    }

    mutating func add(_ route: Route, scheme: SchemeName) throws(SchemeRegistryError) {
        var list = routes[scheme.rawValue, default: []]
        if list.contains(where: { $0.host == route.host && $0.pathPrefix == route.pathPrefix }) {
            throw .duplicateRoute("\(scheme)://\(route.host ?? "*")\(route.pathPrefix)")
        }
        list.append(route)
        // Most specific first: a named host before any host, then the longest prefix.
        list.sort { lhs, rhs in
            if (lhs.host != nil) != (rhs.host != nil) { return lhs.host != nil }
            return lhs.pathPrefix.utf8.count > rhs.pathPrefix.utf8.count
        }
        routes[scheme.rawValue] = list
    }

    @discardableResult
    mutating func remove(scheme: SchemeName, host: String?, pathPrefix: String?) -> Bool {
        guard var list = routes[scheme.rawValue] else { return false }
        let before = list.count
        list.removeAll { route in
            (pathPrefix == nil && host == nil) || (route.host == host && (pathPrefix == nil || route.pathPrefix == pathPrefix))
        }
        routes[scheme.rawValue] = list.isEmpty ? nil : list
        return list.count != before
    }

    func handler(scheme: String, host: String, path: String) -> (any SchemeHandler)? {
        route(scheme: scheme, host: host, path: path)?.handler
    }

    /// The most specific route for a request: its host's routes first, then the longest prefix.
    func route(scheme: String, host: String, path: String) -> Route? {
        guard let list = routes[scheme] else { return nil }
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
