// swift-tools-version: 6.0
import PackageDescription

/// Language modes Hummingbird builds with: imports stay internal unless API needs them, members
/// resolve only through imports this file makes, and existentials are spelled `any`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "markerpaint",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "markerpaint", targets: ["markerpaint"]),
        .executable(name: "markerpaint-serve", targets: ["markerpaint-serve"]),
        .executable(name: "markerpaint-pack", targets: ["markerpaint-pack"]),
        .executable(name: "markerpaint-bench", targets: ["markerpaint-bench"]),
        .executable(name: "naive-marker", targets: ["naive-marker"]),
        .library(name: "MarkerSpec", targets: ["MarkerSpec"]),
        .library(name: "MarkerRender", targets: ["MarkerRender"]),
        .library(name: "RouteModel", targets: ["RouteModel"]),
        .library(name: "RouteFormats", targets: ["RouteFormats"]),
        .library(name: "RoutePlacement", targets: ["RoutePlacement"]),
        .library(name: "RideTracking", targets: ["RideTracking"]),
        .library(name: "OfflineCorridor", targets: ["OfflineCorridor"]),
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
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // C libraries, each behind its own system-library target and Swift wrapper.
        // Cairo and Pango: only MarkerRender imports them.
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // libspng and libdeflate: PNG decoding, and the zlib and gzip streams the PNG encoder frames.
        .systemLibrary(name: "CPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev", "libdeflate-dev"])]),
        // expat, the streaming XML parser GPX is read with.
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        // GEOS (Debian's libgeos-dev), which joins the buffers of a route into its offline corridor:
        // opened when a corridor is first made, so a run that makes none never loads it.
        .target(name: "CGEOS", linkerSettings: [.linkedLibrary("dl")]),
        // GeographicLib's geodesics (Debian's libgeographiclib-dev, C++) behind three C functions,
        // linked from its static archive: its shared library's symbols cost every run binding.
        .target(name: "CGeodesic", linkerSettings: [.linkedLibrary(":libGeographicLib.a")]),

        // librsvg, for a user's SVG icon on a pin: only MarkerPins imports it.
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // libjpeg-turbo, for callouts' photos: a C shim turns its exits into errors and its warnings (a file that ends early) into refusals.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),

        // zlib, for the gzip of PMTiles directories and metadata.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // SQLite, which MBTiles files are.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Folders and files by FilePath: atomic replacement, descriptor-relative operations, read limits.
        .target(name: "MarkerFiles", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // The route: its model and geodesy (one Web Mercator), the only user of GeographicLib.
        .target(name: "RouteModel", dependencies: ["CGeodesic"]),
        // Route files and GPS fixes read: GeoJSON, GPX (the only user of expat), encoded polylines, CSV and NDJSON fixes.
        .target(
            name: "RouteFormats",
            dependencies: ["RouteModel", "CExpat", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // Markers along the route, bounded by arithmetic, and their placement on the map (minzoom, north up and turned).
        .target(name: "RoutePlacement", dependencies: ["RouteModel", "MarkerSpec"]),
        // The tracker: GPS fixes followed along a route.
        .target(name: "RideTracking", dependencies: ["RouteModel", "RoutePlacement", "MarkerSpec"]),
        // The offline pack: the corridor and the tiles it touches (the only user of GEOS), its files
        // (corridor.geojson, tiles.json) and the job that fetches the tiles into one archive.
        .target(
            name: "OfflineCorridor",
            dependencies: ["RouteModel", "CGEOS", "MarkerSpec", "MarkerArchive", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),

        // 2. The vocabulary every stage shares: marker, unit, theme, request, the image record, naming.
        .target(
            name: "MarkerSpec",
            dependencies: [
                "MarkerFiles",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // PMTiles v3 archives, pure but for zlib: tile IDs, directories, header, writer, range reader (fuzzed without the network).
        .target(
            name: "MarkerArchive",
            dependencies: ["CZlib", .product(name: "Crypto", package: "swift-crypto"), .product(name: "SystemPackage", package: "swift-system")]
        ),
        // The offline pack: map tiles fetched from a source (PMTiles, MBTiles, XYZ) into one archive.
        .target(
            name: "MarkerPack",
            dependencies: [
                "MarkerArchive", "CSQLite", "MarkerFiles", "MarkerSpec",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // Straight-alpha RGBA pixels and their perceptual comparison: pure Swift, no C.
        .target(name: "MarkerPixels"),

        // PNG encoding and decoding (libspng, libdeflate and a scanline deflater of its own), and gzip.
        .target(name: "MarkerPNG", dependencies: ["CPNG", "MarkerPixels"]),
        // 3. Drawing: Cairo and Pango, and the pool of one renderer per thread.
        .target(
            name: "MarkerRender",
            dependencies: ["CPangoCairo", "MarkerPNG", "MarkerPixels", "MarkerSpec", "MarkerFiles", .product(name: "DequeModule", package: "swift-collections")]
        ),
        // Pins and callouts, drawn with MarkerRender's Cairo and Pango wrappers.
        .target(name: "MarkerPins", dependencies: ["MarkerSpec", "MarkerRender", "MarkerPNG", "MarkerPixels", "CJPEG", "CRSVG"]),

        // 4. Map data, pure: a route's image set, sprite sheets, markers.geojson, the style layer.
        .target(name: "MarkerMap", dependencies: ["MarkerSpec", "RouteModel", "RouteFormats", "RoutePlacement", "OfflineCorridor", "MarkerRender", "MarkerPins", "MarkerPNG", "MarkerPixels"]),

        // 5a. Output folder: the batch drawn on the pool, published atomically with its manifest.
        .target(
            name: "MarkerOutput",
            dependencies: [
                "MarkerSpec", "RouteModel", "RoutePlacement", "OfflineCorridor", "MarkerRender", "MarkerPins", "MarkerPNG", "MarkerMap", "MarkerArchive", "MarkerFiles",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // 5b. The HTTP service: queries read purely (fuzzed without a server), then served.
        .target(name: "MarkerQuery", dependencies: ["MarkerSpec", "RouteModel", "RoutePlacement", "RideTracking", "MarkerFiles", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "MarkerService",
            dependencies: [
                "MarkerSpec", "MarkerRender", "MarkerPins", "MarkerPNG", "RouteModel", "RouteFormats", "RoutePlacement", "RideTracking", "OfflineCorridor", "MarkerMap", "MarkerQuery", "MarkerFiles",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // Golden-image cases, verification, reports and the contact sheet.
        .target(
            name: "MarkerGolden",
            dependencies: ["MarkerSpec", "MarkerRender", "MarkerPins", "MarkerPNG", "MarkerPixels", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]
        ),

        // The command line: flags in, library calls, one line out.
        .target(
            name: "CommandSupport",
            dependencies: ["MarkerFiles", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "markerpaint",
            dependencies: [
                "MarkerSpec", "MarkerRender", "MarkerPins", "MarkerPNG", "RouteModel", "RouteFormats", "RoutePlacement", "RideTracking", "OfflineCorridor", "MarkerMap", "MarkerOutput", "MarkerGolden", "MarkerFiles", "CommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // Release builds (made with --static-swift-stdlib) are position-dependent: a
            // position-independent executable has some 85,000 pointers for the dynamic loader to
            // relocate at every start, whose pages fault in, a tenth of one marker's run
            // (docs/speed.md). Debug builds link the Swift runtime's shared libraries, against which
            // a position-dependent executable makes the loader warn. The service stays PIE.
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))]
        ),
        // `markerpaint route --offline --tiles-from` runs it: the HTTP stack, again kept out of drawing.
        .executableTarget(
            name: "markerpaint-pack",
            dependencies: [
                "MarkerPack", "MarkerArchive", "CommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // `markerpaint serve`, an executable of its own so that drawing never loads the HTTP stack.
        .executableTarget(
            name: "markerpaint-serve",
            dependencies: ["MarkerService", "CommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Benchmarks: each prints numbers and a ratio against a baseline measured in the same run.
        // The floor: what the same drawing, encoding and write cost made from C alone.
        .target(name: "CMarkerFloor", dependencies: ["CPangoCairo", "CPNG"], path: "Benchmarks/CMarkerFloor"),
        // The naive single-marker program in C that markerpaint's start-to-exit time is compared with.
        .executableTarget(
            name: "naive-marker", dependencies: ["CPangoCairo"], path: "Benchmarks/naive-marker", linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(
            name: "markerpaint-bench",
            dependencies: [
                "MarkerSpec", "MarkerRender", "MarkerPins", "RouteModel", "RouteFormats", "RoutePlacement", "RideTracking", "OfflineCorridor", "MarkerMap", "MarkerOutput", "MarkerFiles", "MarkerPack", "MarkerArchive", "CMarkerFloor", "MarkerPNG", "MarkerPixels", "CPNG",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Benchmarks/markerpaint-bench"
        ),

        // libFuzzer targets, one per route format, one for HTTP queries, one for CLI values and one for the deflater (Fuzz/run builds them
        // with -sanitize=fuzzer); a plain build replays files through them.
        .executableTarget(
            name: "FuzzMarkerpaint", dependencies: ["RouteModel", "RouteFormats", "RoutePlacement", "RideTracking", "OfflineCorridor", "MarkerQuery", "MarkerSpec", "MarkerMap", "MarkerRender", "MarkerPins", "MarkerPixels", "MarkerPNG", "MarkerArchive"],
            path: "Fuzz/Targets"),

        // What several test targets share: fixture paths from #filePath, raw loopback connections.
        .target(
            name: "TestSupport",
            dependencies: [
                "RouteModel", "MarkerSpec", .product(name: "SystemPackage", package: "swift-system"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "MarkerSpecTests", dependencies: ["MarkerSpec", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "RouteModelTests", dependencies: ["RouteModel", "MarkerSpec", "TestSupport"]),
        .testTarget(name: "RouteFormatsTests", dependencies: ["RouteFormats", "RouteModel", "MarkerSpec", "TestSupport"]),
        .testTarget(name: "RoutePlacementTests", dependencies: ["RoutePlacement", "RouteFormats", "RouteModel", "MarkerSpec", "TestSupport"]),
        .testTarget(name: "RideTrackingTests", dependencies: ["RideTracking", "RoutePlacement", "RouteFormats", "RouteModel", "TestSupport"]),
        .testTarget(name: "OfflineCorridorTests", dependencies: ["OfflineCorridor", "RouteFormats", "RouteModel", "MarkerSpec", "TestSupport", .product(name: "SystemPackage", package: "swift-system")], exclude: ["offline_oracle.py"]),
        .testTarget(name: "MarkerPixelsTests", dependencies: ["MarkerPixels"]),
        .testTarget(name: "MarkerPNGTests", dependencies: ["MarkerPNG", "MarkerPixels", "TestSupport"]),
        .testTarget(
            name: "MarkerArchiveTests",
            dependencies: [
                "MarkerArchive", "TestSupport", .product(name: "SystemPackage", package: "swift-system"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "MarkerPackTests", dependencies: ["MarkerPack"]),
        .testTarget(
            name: "MarkerFilesTests", dependencies: ["MarkerFiles", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "MarkerMapTests", dependencies: ["MarkerMap", "MarkerSpec", "MarkerFiles", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "MarkerQueryTests", dependencies: ["MarkerQuery", "MarkerSpec", "RoutePlacement", "RouteModel"]),
        .testTarget(
            name: "MarkerPinsTests",
            dependencies: ["MarkerPins", "MarkerRender", "MarkerSpec", "MarkerPNG", "MarkerPixels", "TestSupport"]
        ),
        .testTarget(
            name: "MarkerRenderTests",
            dependencies: [
                "MarkerRender", "MarkerPNG", "CPangoCairo", "MarkerSpec", "MarkerPixels", "MarkerFiles", "MarkerGolden", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "MarkerGoldenTests",
            dependencies: [
                "MarkerGolden", "MarkerSpec", "MarkerRender", "MarkerPNG", "MarkerPixels", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "MarkerOutputTests",
            dependencies: [
                "MarkerOutput", "MarkerMap", "MarkerSpec", "MarkerRender", "MarkerPNG", "RouteModel", "RouteFormats", "RoutePlacement", "OfflineCorridor", "MarkerPixels", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "MarkerServiceTests",
            dependencies: [
                "MarkerService", "MarkerPins", "MarkerSpec", "MarkerRender", "MarkerPNG", "RouteModel", "RouteFormats", "RoutePlacement", "RideTracking", "OfflineCorridor", "MarkerMap", "MarkerQuery", "MarkerPixels", "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["markerpaint", "markerpaint-serve", "markerpaint-pack", "MarkerRender", "MarkerPNG", "MarkerPixels", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
