import SchemeKit
import Testing

struct SchemeNameTests {
    @Test(arguments: ["app", "APP", "My-App", "x", "a1", "com.example.app", "web+app", "a-b.c+d9"])
    func validNamesAreAcceptedAndLowercased(name: String) throws {
        let scheme = try SchemeName(validating: name)
        #expect(scheme.rawValue == name.lowercased())
        #expect(SchemeName(rawValue: name) == scheme)
        #expect(scheme.description == name.lowercased())
    }

    @Test(arguments: [
        "", "1app", "-app", "+app", ".app", "ap p", "app:", "app/", "äpp", "app_", "app://",
        String(repeating: "a", count: 65),
    ])
    func invalidSyntaxIsRefusedWithAClearError(name: String) {
        #expect(throws: SchemeRegistryError.invalidSchemeName(name)) { try SchemeName(validating: name) }
        #expect(SchemeName(rawValue: name) == nil)
        #expect(SchemeRegistryError.invalidSchemeName(name).description.contains("RFC 3986"))
    }

    @Test(arguments: [
        "http", "https", "file", "about", "data", "blob", "javascript", "ws", "wss", "HTTP", "Https", "JavaScript",
    ])
    func schemesTheEngineOwnsAreRefused(name: String) {
        #expect(throws: SchemeRegistryError.reservedScheme(name.lowercased())) { try SchemeName(validating: name) }
        #expect(SchemeName(rawValue: name) == nil)
        #expect(SchemeRegistryError.reservedScheme(name.lowercased()).description.contains("web engine"))
    }

    @Test func literalsAreValidated() {
        let scheme: SchemeName = "App"
        #expect(scheme.rawValue == "app")
    }
}
