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
        .library(name: "SchemeServe", targets: ["SchemeServe"]),
        .executable(name: "schemeserve", targets: ["schemeserve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
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
            name: "SchemeServe",
            dependencies: [
                "SchemeKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "schemeserve",
            dependencies: [
                "SchemeServe",
                "SchemeKit",
                "SchemeKitPackages",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeServeTests",
            dependencies: [
                "SchemeServe",
                "SchemeKitTesting",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
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
