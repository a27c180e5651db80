// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "markerpaint",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "markerpaint", targets: ["markerpaint"]),
        .library(name: "MarkerRender", targets: ["MarkerRender"]),
        .library(name: "MarkerRoute", targets: ["MarkerRoute"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // C: Cairo, Pango and the PNG codecs. Only MarkerRender imports it.
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libspng-dev", "libdeflate-dev"])]
        ),

        // Geodesy, route formats and marker placement: pure Swift, no C.
        .target(name: "MarkerRoute"),

        // Straight-alpha RGBA pixels and their perceptual comparison: pure Swift, no C.
        .target(name: "MarkerPixels"),

        // Marker look, layout, drawing, PNG encoding and content-hashed names.
        .target(
            name: "MarkerRender",
            dependencies: [
                "CPangoCairo",
                "MarkerPixels",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // Golden-image cases, verification, reports and the contact sheet.
        .target(name: "MarkerGolden", dependencies: ["MarkerRender", "MarkerPixels"]),

        // A route's markers as images and map data: parallel rendering, sprites, GeoJSON, style layer.
        .target(name: "MarkerBatch", dependencies: ["MarkerRender", "MarkerRoute"]),

        .executableTarget(
            name: "markerpaint",
            dependencies: [
                "MarkerRender", "MarkerRoute", "MarkerGolden", "MarkerBatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "MarkerRouteTests", dependencies: ["MarkerRoute"], exclude: ["Fixtures"]),
        .testTarget(name: "MarkerPixelsTests", dependencies: ["MarkerPixels"]),
        .testTarget(name: "MarkerRenderTests", dependencies: ["MarkerRender", "MarkerPixels"]),
        .testTarget(name: "MarkerGoldenTests", dependencies: ["MarkerGolden", "MarkerRender", "MarkerPixels"]),
        .testTarget(name: "MarkerBatchTests", dependencies: ["MarkerBatch", "MarkerRender", "MarkerRoute", "MarkerPixels"]),
        .testTarget(name: "CLITests", dependencies: ["markerpaint"]),
    ]
)
