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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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
        .testTarget(
            name: "SchemeKitTests",
            dependencies: ["SchemeKit", "SchemeKitTesting"],
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
