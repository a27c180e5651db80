// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "markerpaint",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "markerpaint", targets: ["markerpaint"]),
        .library(name: "MarkerRender", targets: ["MarkerRender"]),
        .library(name: "MarkerRoute", targets: ["MarkerRoute"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // C: Cairo, Pango and the PNG codecs. Only MarkerRender imports it.
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libspng-dev", "libdeflate-dev"])]
        ),

        // expat, the streaming XML parser GPX is read with.
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),

        // Folders and files by FilePath: atomic replacement, descriptor-relative operations, read limits.
        .target(name: "MarkerFiles", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // GeographicLib's geodesics in C, as PROJ ships them.
        .systemLibrary(name: "CGeodesic", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),

        // Geodesy, route formats and marker placement; C only behind the XML and geodesic wrappers.
        .target(
            name: "MarkerRoute",
            dependencies: ["CExpat", "CGeodesic", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),

        // Straight-alpha RGBA pixels and their perceptual comparison: pure Swift, no C.
        .target(name: "MarkerPixels"),

        // Marker look, layout, drawing, PNG encoding and content-hashed names.
        .target(
            name: "MarkerRender",
            dependencies: [
                "CPangoCairo",
                "MarkerPixels",
                "MarkerFiles",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // HTTP queries read into marker and route requests: pure, so it is fuzzed without a server.
        .target(name: "MarkerQuery", dependencies: ["MarkerRender", "MarkerRoute"]),

        // Golden-image cases, verification, reports and the contact sheet.
        .target(
            name: "MarkerGolden",
            dependencies: ["MarkerRender", "MarkerPixels", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),

        // A route's markers as images and map data: parallel rendering, sprites, GeoJSON, style layer.
        .target(
            name: "MarkerBatch",
            dependencies: ["MarkerRender", "MarkerRoute", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),

        // The HTTP service: markers by query or by content-hashed name, and route marker data.
        .target(
            name: "MarkerService",
            dependencies: [
                "MarkerRender", "MarkerRoute", "MarkerBatch", "MarkerQuery",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        .executableTarget(
            name: "markerpaint",
            dependencies: [
                "MarkerRender", "MarkerRoute", "MarkerGolden", "MarkerBatch", "MarkerService", "MarkerFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // libFuzzer targets, one per route format and one for HTTP queries (Fuzz/run builds them
        // with -sanitize=fuzzer); a plain build replays files through them.
        .executableTarget(name: "FuzzMarkerpaint", dependencies: ["MarkerRoute", "MarkerQuery", "MarkerRender"], path: "Fuzz/Targets"),

        .testTarget(name: "MarkerRouteTests", dependencies: ["MarkerRoute"], exclude: ["Fixtures"]),
        .testTarget(name: "MarkerPixelsTests", dependencies: ["MarkerPixels"]),
        .testTarget(
            name: "MarkerRenderTests",
            dependencies: ["MarkerRender", "MarkerPixels", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(
            name: "MarkerGoldenTests",
            dependencies: ["MarkerGolden", "MarkerRender", "MarkerPixels", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(
            name: "MarkerBatchTests",
            dependencies: [
                "MarkerBatch", "MarkerRender", "MarkerRoute", "MarkerPixels", "MarkerFiles",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // What several test targets share: raw loopback connections.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "MarkerServiceTests",
            dependencies: [
                "MarkerService", "MarkerRender", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "CLITests", dependencies: ["markerpaint", "TestSupport"]),
    ]
)
