// swift-tools-version: 6.1
import PackageDescription

/// Settings shared by every target: Swift 6 mode plus the upcoming features the style guide asks for.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SchemeKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "SchemeKit", targets: ["SchemeKit"]),
        .library(name: "SchemeKitTesting", targets: ["SchemeKitTesting"]),
        .library(name: "SchemeKitPackages", targets: ["SchemeKitPackages"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .target(
            name: "SchemeKit",
            dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SchemeKitTesting",
            dependencies: ["SchemeKit"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SchemeKitPackages",
            dependencies: [
                "SchemeKit",
                "CSchemeKitPackagesShims",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(name: "CSchemeKitPackagesShims"),
        .executableTarget(
            name: "PackageInstallHelper",
            dependencies: ["SchemeKitPackages"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitPackagesTests",
            dependencies: [
                "SchemeKitPackages", "SchemeKit", "PackageInstallHelper",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // Not a product: a process the tests start and kill mid-write (crash-safety tests).
        .executableTarget(
            name: "SchemeKitFaultHelper",
            dependencies: ["SchemeKit"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitTests",
            dependencies: ["SchemeKit", "SchemeKitTesting", "SchemeKitFaultHelper"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitTestingTests",
            dependencies: ["SchemeKit", "SchemeKitTesting"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
