// swift-tools-version: 6.2
import PackageDescription

/// Settings shared by every target: Swift 6 mode plus the upcoming features the style guide asks for.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The traits whose targets use the browsers' shared support (the loopback origin, the WebSocket client).
let browserTraits: Set<String> = ["Chromium", "Firefox", "WebKitGTK"]

let package = Package(
    name: "SchemeKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "SchemeKit", targets: ["SchemeKit"]),
        .library(name: "SchemeKitTesting", targets: ["SchemeKitTesting"]),
        .library(name: "SchemeKitPackages", targets: ["SchemeKitPackages"]),
        .library(name: "SchemeServe", targets: ["SchemeServe"]),
        .executable(name: "schemeserve", targets: ["SchemeServeCLI"]),
        // Trait `WebKitGTK`: the WebKitGTK engine adapter, its renderer and its media extension.
        .library(name: "SchemeKitWebKitGTK", targets: ["SchemeKitWebKitGTK"]),
        .executable(name: "headless-render", targets: ["headless-render"]),
        // The web process extension that plays <video>/<audio> from the app's schemes: a shared
        // library an app's executable depends on, so that SwiftPM builds it next to the executable.
        .library(name: "SchemeKitWebKitGTKMedia", type: .dynamic, targets: ["SchemeKitWebKitGTKMedia"]),
        // Trait `Chromium`: the headless-Chromium engine adapter.
        .library(name: "SchemeKitChromium", targets: ["SchemeKitChromium"]),
        // Trait `AsyncHTTPClient` (enabled by `Server`): the network fallback's client on AsyncHTTPClient.
        .library(name: "SchemeKitAsyncHTTPClient", targets: ["SchemeKitAsyncHTTPClient"]),
        // Trait `Firefox`: the headless-Firefox engine adapter (WebDriver BiDi).
        .library(name: "SchemeKitFirefox", targets: ["SchemeKitFirefox"]),
        // Apple platforms: the WKWebView engine adapter. On Linux it compiles to an empty module.
        .library(name: "SchemeKitWKWebView", targets: ["SchemeKitWKWebView"]),
    ],
    // A target gated by a trait compiles to an empty module without it (its sources sit inside
    // `#if <trait>`), and a dependency used only under traits that are off is neither fetched nor
    // resolved by a package that depends on this one. `Server` is a default trait so that
    // `swift run schemeserve` works in a clone; a package that wants the core alone depends on
    // SchemeKit with `traits: []` and resolves swift-http-types and nothing else.
    traits: [
        .trait(
            name: "Server",
            description:
                "schemeserve and the SchemeServe library (SwiftNIO, ArgumentParser, swift-log, swift-service-lifecycle); its --fallback goes through AsyncHTTPClient.",
            enabledTraits: ["Packages", "AsyncHTTPClient"]
        ),
        .trait(
            name: "Packages",
            description: "SchemeKitPackages, the offline package store (swift-crypto, zlib)."
        ),
        .trait(
            name: "AsyncHTTPClient",
            description:
                "SchemeKitAsyncHTTPClient: a SchemeHTTPClient on AsyncHTTPClient, with real back-pressure (SwiftNIO, swift-nio-ssl)."
        ),
        .trait(
            name: "WebKitGTK",
            description:
                "The WebKitGTK 6.0 engine adapter (SchemeKitWebKitGTK, headless-render, the media extension SchemeKitWebKitGTKMedia); needs libwebkitgtk-6.0-dev and libgstreamer1.0-dev.",
            // headless-render reads Playwright's .har.zip with the package store's zip reader.
            enabledTraits: ["Packages"]
        ),
        .trait(
            name: "Chromium",
            description:
                "SchemeKitChromium: serve virtual https origins to headless Chromium over the DevTools pipe, or to a remote Chromium over a DevTools WebSocket (SwiftNIO).",
            // headless-render reads Playwright's .har.zip with the package store's zip reader.
            enabledTraits: ["Packages"]
        ),
        .trait(
            name: "Firefox",
            description:
                "SchemeKitFirefox: serve virtual https origins to headless Firefox over WebDriver BiDi (a WebSocket, SwiftNIO).",
            // headless-render reads Playwright's .har.zip with the package store's zip reader.
            enabledTraits: ["Packages"]
        ),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Tests only (SchemeKitPackagesTests): an independent zip writer whose archives are the oracle
        // for the package store's strict reader, so the reader is never tested only against itself.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The browser adapters' loopback https origin: TLS (swift-nio-ssl) with a certificate made at
        // launch (swift-certificates).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
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
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOExtras", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(
                    name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .target(name: "CSchemeKitZlib", condition: .when(traits: ["Server"])),
                .target(name: "SchemeKitAsyncHTTPClient", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
        // The `schemeserve` command. Its folder is not `Sources/schemeserve`: that would differ from
        // `Sources/SchemeServe` only by case, one folder on macOS's and Windows' default file systems.
        .executableTarget(
            name: "SchemeServeCLI",
            dependencies: [
                "SchemeServe",
                "SchemeKit",
                "SchemeKitPackages",
                "SchemeKitTesting",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeServeTests",
            dependencies: [
                "SchemeServe",
                "SchemeKitTesting",
                "LoopbackTestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                // A thread of its own for each test that blocks (`OwnThread`).
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SchemeKitPackages",
            dependencies: [
                "SchemeKit",
                .target(name: "CSchemeKitZlib", condition: .when(traits: ["Packages"])),
                "CSchemeKitPackagesShims",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Packages"])),
            ],
            swiftSettings: swiftSettings
        ),
        // syncfs(2) for the package store.
        .systemLibrary(name: "CSchemeKitPackagesShims"),
        // The package's one zlib binding (system zlib, Debian's zlib1g-dev): the package store's raw
        // inflate and CRC-32, schemeserve's gzip. Measured against compress-nio for schemeserve's gzip
        // (`Benchmarks/Peers/GzipPeers`): as fast or faster, without a second binding.
        .systemLibrary(name: "CSchemeKitZlib"),
        // Not a product: a process the package store's crash tests start and kill mid-install.
        .executableTarget(
            name: "PackageInstallHelper",
            dependencies: ["SchemeKitPackages", "SchemeKit"],
            path: "Tests/PackageInstallHelper",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitPackagesTests",
            dependencies: [
                "SchemeKitPackages", "SchemeKit", "PackageInstallHelper",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Packages"])),
                .product(name: "ZIPFoundation", package: "ZIPFoundation", condition: .when(traits: ["Packages"])),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // Not a product: a process the tests start and kill mid-write (crash-safety tests).
        .executableTarget(
            name: "SchemeKitFaultHelper",
            dependencies: ["SchemeKit", "SchemeKitTesting"],
            path: "Tests/SchemeKitFaultHelper",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitTests",
            dependencies: [
                "SchemeKit", "SchemeKitTesting", "SchemeKitFaultHelper", "LoopbackTestSupport", "GuardTestFixtures",
                // The network tests run against both clients when the trait is on.
                .target(name: "SchemeKitAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: AsyncHTTPClient trait
        // SchemeKit's network fallback client on AsyncHTTPClient: one request per fetch, read as the
        // consumer reads (NIO back-pressure), where URLSession on Linux cannot pause a transfer.
        .target(
            name: "SchemeKitAsyncHTTPClient",
            dependencies: [
                "SchemeKit",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras",
                    condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitTestingTests",
            dependencies: ["SchemeKit", "SchemeKitTesting", "LoopbackTestSupport", "GuardTestFixtures"],
            swiftSettings: swiftSettings
        ),
        // MARK: What the browser adapters share (traits `Chromium`, `Firefox`)
        // Not a product: the WebSocket client (SwiftNIO's), the virtual-origin mapping, the loopback
        // https origin both browsers are served from, and the request half of the interception
        // fallback, all `package`.
        .target(
            name: "SchemeKitBrowserSupport",
            dependencies: [
                "SchemeKit",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: browserTraits)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: browserTraits)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: browserTraits)),
                .product(
                    name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: browserTraits)),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: browserTraits)),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: browserTraits)),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: browserTraits)),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Chromium trait
        // SchemeKit + the shared support; the C shim spawns Chromium with its DevTools pipe on fds 3 and 4.
        .target(name: "CSchemeKitChromiumShims"),
        .target(
            name: "SchemeKitChromium",
            dependencies: [
                "SchemeKit",
                .target(name: "CSchemeKitChromiumShims", condition: .when(traits: ["Chromium"])),
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: ["Chromium"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Chromium"])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitChromiumTests",
            dependencies: [
                "LoopbackTestSupport",
                .target(name: "SchemeKitChromium", condition: .when(traits: ["Chromium"])),
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: ["Chromium"])),
                .target(name: "SchemeKitTesting", condition: .when(traits: ["Chromium"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Chromium"])),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Firefox trait
        // SchemeKit + the shared support (SwiftNIO's WebSocket); Firefox is spawned with posix_spawn.
        .target(
            name: "SchemeKitFirefox",
            dependencies: [
                "SchemeKit",
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: ["Firefox"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Firefox"])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitFirefoxTests",
            dependencies: [
                "LoopbackTestSupport",
                .target(name: "SchemeKitFirefox", condition: .when(traits: ["Firefox"])),
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: ["Firefox"])),
                .target(name: "SchemeKitTesting", condition: .when(traits: ["Firefox"])),
                .target(name: "SchemeKitChromium", condition: .when(traits: ["Chromium"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Firefox"])),
            ],
            swiftSettings: swiftSettings
        ),
        // --- WebKitGTK engine adapter (trait `WebKitGTK`) ---
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]
        ),
        .target(
            name: "SchemeKitWebKitGTK",
            dependencies: [
                "SchemeKit", .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                // The loopback https origin views may be served from (`WebKitSchemeAdapter.httpsNetworkSession`).
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: ["WebKitGTK"])),
            ],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CGStreamerBase",
            pkgConfig: "gstreamer-base-1.0",
            providers: [.apt(["libgstreamer1.0-dev"])]
        ),
        .target(
            name: "SchemeKitWebKitGTKMedia",
            dependencies: [
                .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                .target(name: "CGStreamerBase", condition: .when(traits: ["WebKitGTK"])),
            ],
            // A trait is a Swift compilation condition only: C sources get it as a define.
            cSettings: [.define("SCHEMEKIT_WEBKITGTK", .when(traits: ["WebKitGTK"]))]
        ),
        .executableTarget(
            name: "headless-render",
            dependencies: [
                "SchemeKit",
                // `--har` and `--record-har`; a Playwright `.har.zip` is unzipped with the package
                // store's zip reader (every engine trait enables `Packages`).
                "SchemeKitTesting",
                "SchemeKitPackages",
                .target(name: "SchemeKitWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                .target(name: "SchemeKitChromium", condition: .when(traits: ["Chromium"])),
                .target(name: "SchemeKitFirefox", condition: .when(traits: ["Firefox"])),
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser",
                    condition: .when(traits: ["WebKitGTK", "Chromium", "Firefox"])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SchemeKitWebKitGTKTests",
            dependencies: [
                "SchemeKit", "SchemeKitTesting", "LoopbackTestSupport",
                .target(name: "SchemeKitWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
            ],
            swiftSettings: swiftSettings
        ),
        // The browsers' behaviour through SchemeKit, one suite for every engine the build has.
        .testTarget(
            name: "EngineConformanceTests",
            dependencies: [
                "SchemeKit", "SchemeKitTesting", "LoopbackTestSupport",
                .target(name: "SchemeKitChromium", condition: .when(traits: ["Chromium"])),
                .target(name: "SchemeKitFirefox", condition: .when(traits: ["Firefox"])),
                .target(name: "SchemeKitBrowserSupport", condition: .when(traits: browserTraits)),
                .target(name: "SchemeKitWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
                .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
            ],
            swiftSettings: swiftSettings
        ),
        // `headless-render` run as a user runs it, on every engine the build has.
        .testTarget(
            name: "HeadlessRenderTests",
            dependencies: ["LoopbackTestSupport"],
            swiftSettings: swiftSettings
        ),
        // MARK: WKWebView (Apple platforms)
        // The sources sit inside `#if canImport(WebKit)`: on Linux a plain dependency compiles an
        // empty module. The same files (symlinked, unchanged) are compiled for the tests against a
        // stand-in of WebKit's declared API, in `SchemeKitWKWebViewStandIn`.
        .target(
            name: "SchemeKitWKWebView",
            dependencies: ["SchemeKit"],
            swiftSettings: swiftSettings
        ),
        // Tests only: WebKit's declared WKURLSchemeHandler/WKURLSchemeTask API, behaving as WebKit
        // does (misuses recorded as violations). No product names it, so no dependent builds it.
        .target(
            name: "WebKitStandIn",
            dependencies: ["SchemeKit"],
            path: "Tests/WebKitStandIn",
            swiftSettings: swiftSettings
        ),
        // Tests only: Sources/SchemeKitWKWebView's files (symlinks) compiled against the stand-in.
        .target(
            name: "SchemeKitWKWebViewStandIn",
            dependencies: ["SchemeKit", "WebKitStandIn"],
            path: "Tests/SchemeKitWKWebViewStandIn",
            exclude: ["README.md"],
            swiftSettings: swiftSettings + [.define("SCHEMEKIT_WEBKIT_STANDIN")]
        ),
        .testTarget(
            name: "SchemeKitWKWebViewTests",
            dependencies: [
                "SchemeKit", "SchemeKitTesting", "LoopbackTestSupport", "WebKitStandIn", "SchemeKitWKWebViewStandIn",
            ],
            swiftSettings: swiftSettings
        ),
        // What the process-level tests share: a built tool run to its end, loopback origins.
        .target(
            name: "LoopbackTestSupport", dependencies: ["SchemeKit", "SchemeKitTesting"],
            path: "Tests/LoopbackTestSupport",
            swiftSettings: swiftSettings),
        // What SchemeKit's own lifecycle tests use and users do not need: a lock-free counting sink
        // for the stress tests, and handlers that misuse the task protocol on purpose.
        .target(
            name: "GuardTestFixtures",
            dependencies: ["SchemeKit", "SchemeKitTesting"],
            path: "Tests/GuardTestFixtures",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `swift package generate-documentation` (Scripts/docs.sh) needs swift-docc-plugin; it is added only
// when SCHEMEKIT_DOCC is set, so a package that depends on SchemeKit never resolves it.
if Context.environment["SCHEMEKIT_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
