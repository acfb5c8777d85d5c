// swift-tools-version: 6.1
import PackageDescription

/// The same settings as the main package: Swift 6 mode plus the upcoming features the style guide asks for.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SchemeKitWebKitGTK",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SchemeKitWebKitGTK", targets: ["SchemeKitWebKitGTK"]),
        .executable(name: "headless-render", targets: ["headless-render"]),
    ],
    dependencies: [
        .package(name: "SchemeKit", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]
        ),
        .target(
            name: "SchemeKitWebKitGTK",
            dependencies: ["CWebKitGTK", .product(name: "SchemeKit", package: "SchemeKit")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "headless-render",
            dependencies: [
                "SchemeKitWebKitGTK",
                .product(name: "SchemeKit", package: "SchemeKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitWebKitGTKTests",
            dependencies: [
                "SchemeKitWebKitGTK",
                .product(name: "SchemeKit", package: "SchemeKit"),
                .product(name: "SchemeKitTesting", package: "SchemeKit"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
