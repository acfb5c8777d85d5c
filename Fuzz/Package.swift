// swift-tools-version: 6.1
// The fuzz targets: a package of its own, so the root package's default build never sees them.
// Build and run them with `bash Scripts/fuzz.sh` (libFuzzer + AddressSanitizer); see Fuzz/README.md.
import PackageDescription

/// The root package, reached through the symbolic link `Fuzz/SchemeKit -> ..`: a path dependency's
/// identity is its directory's name, and the clone's own directory may be called anything
/// (even `fuzz`, which would collide with this package's identity).
let root = "SchemeKit"

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One executable per parser: (name, the SchemeKit products it needs).
let fuzzers: [(String, [String])] = [
    ("FuzzURL", ["SchemeKit"]),
    ("FuzzRequestParts", ["SchemeKit"]),
    ("FuzzRange", ["SchemeKit"]),
    ("FuzzConditional", ["SchemeKit"]),
    ("FuzzMediaType", ["SchemeKit"]),
    ("FuzzSniffer", ["SchemeKit"]),
    ("FuzzSafePath", ["SchemeKit"]),
    ("FuzzZip", ["SchemeKit", "SchemeKitPackages"]),
    ("FuzzCDP", ["SchemeKitChromium"]),
    ("FuzzBiDi", ["SchemeKitFirefox"]),
    ("FuzzHAR", ["SchemeKit", "SchemeKitTesting"]),
]

let package = Package(
    name: "SchemeKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `Chromium` and `Firefox` for the DevTools and WebDriver BiDi decoders (FuzzCDP, FuzzBiDi);
        // the defaults for the package store.
        .package(path: "SchemeKit", traits: [.defaults, "Chromium", "Firefox"])
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], swiftSettings: swiftSettings),
    ]
        + fuzzers.map { name, products in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: root) },
                swiftSettings: swiftSettings,
                // Debian's default linker (gold) fails on the instrumented objects; lld ships with Swift.
                linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
            )
        },
    swiftLanguageModes: [.v6]
)
