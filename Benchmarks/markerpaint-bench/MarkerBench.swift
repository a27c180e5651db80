public import ArgumentParser
import Foundation
import MarkerFiles
import MarkerMap
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
public import MarkerPNG
import SystemPackage

/// Benchmarks that print numbers and a ratio against a baseline measured in the same run.
@main
struct MarkerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markerpaint-bench",
        abstract: "Measure rendering against the naive Cairo path, or marker placement on a huge route.",
        discussion: "Build with -c release: swift run -c release markerpaint-bench render",
        subcommands: [Render.self, Start.self, Deflate.self, RouteRun.self, Placement.self, Zooms.self, ProgressRun.self, OfflineRun.self, PackRun.self, PinsRun.self, RoutePinsRun.self]
    )

    /// The middle one of `values` ordered by `key` (the upper middle of an even count).
    static func median<Value>(_ values: [Value], by key: (Value) -> Double) -> Value {
        values.sorted { key($0) < key($1) }[values.count / 2]
    }

    struct Deflate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The zlib step alone, on real markers' scanlines: libdeflate against markerpaint's ScanlineDeflater (a diagnosis)."
        )

        @Option(help: "How many distinct markers.") var markers = 2000
        @Option(help: "Pixel scale.") var scale = 2
        @Option(help: "Interleaved runs; each figure is the median run.") var runs = 5
        @Option(help: "libdeflate level to compare with, 1 to 12.") var level = 1

        func validate() throws {
            guard (1...100_000).contains(markers) else { throw ValidationError("--markers must be 1 to 100000") }
            guard MarkerRequest.scales.contains(MarkerScale(integerLiteral: scale)) else { throw ValidationError("--scale must be 1, 2, 3 or 4") }
            guard (1...12).contains(level) else { throw ValidationError("--level must be 1 to 12") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() throws {
            let requests = try RenderBenchmark(count: markers, scale: scale, workers: 1).requests
            let benchmark = try DeflateBenchmark(requests: requests)
            let raw = benchmark.scanlines.reduce(0) { $0 + $1.bytes.count }
            print("\(markers) markers @\(scale)x, \(raw) bytes of scanlines, one thread")
            var libdeflateRuns: [(microseconds: Double, bytes: Int)] = []
            var scanlineRuns: [(microseconds: Double, bytes: Int)] = []
            for _ in 1...runs {
                libdeflateRuns.append(try benchmark.libdeflate(level: level))
                scanlineRuns.append(try benchmark.scanline())
            }
            let reference = MarkerBench.median(libdeflateRuns, by: \.microseconds)
            let mine = MarkerBench.median(scanlineRuns, by: \.microseconds)
            func line(_ name: String, _ figures: (microseconds: Double, bytes: Int), _ all: [(microseconds: Double, bytes: Int)]) -> String {
                "\(name): \(String(format: "%.1f", figures.microseconds)) µs an image, \(figures.bytes) bytes (runs: "
                    + all.map { String(format: "%.1f", $0.microseconds) }.joined(separator: ", ") + ")"
            }
            print(line("libdeflate level \(level)", reference, libdeflateRuns))
            print(line("ScanlineDeflater (every stream inflated and compared)", mine, scanlineRuns))
            print(
                "ratio: \(String(format: "%.2f", mine.microseconds / reference.microseconds))× the time, "
                    + "\(String(format: "%.2f", Double(mine.bytes) / Double(reference.bytes)))× the bytes")
        }
    }

    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render, encode, hash and write a set of distinct markers: naive path vs markerpaint's batch path."
        )

        @Option(help: "How many distinct markers.") var markers = 2000
        @Option(help: "Pixel scale.") var scale = 2
        @Option(help: "Workers for markerpaint's path.") var workers = ProcessInfo.processInfo.activeProcessorCount
        @Flag(help: "Skip the naive baseline (e.g. for a memory run with many markers).") var noBaseline = false
        @Option(help: "Runs of markerpaint's path and of the floor; each figure is the median run.") var runs = 5
        @Option(
            help: ArgumentHelp(
                "Folder to write the images into (a new subfolder, removed afterwards); file creation costs differ a lot between filesystems.",
                valueName: "dir"))
        var scratch = "."
        @Option(
            help: ArgumentHelp(
                "markerpaint's zlib compression: fast (its own deflater, the default) or a libdeflate level, 1 to 12; the C floor uses that level, or 1.",
                valueName: "fast|level"))
        var compression = PNGEncoder.defaultCompression
        @Option(help: "PNG row filter for markerpaint's path: none, sub, up, average, paeth, adaptive.") var pngFilter = PNGEncoder.defaultFilter

        func validate() throws {
            guard (1...1_000_000).contains(markers) else { throw ValidationError("--markers must be 1 to 1000000") }
            guard MarkerRequest.scales.contains(MarkerScale(integerLiteral: scale)) else { throw ValidationError("--scale must be 1, 2, 3 or 4") }
            guard (1...256).contains(workers) else { throw ValidationError("--workers must be 1 to 256") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() async throws {
            var benchmark = try RenderBenchmark(count: markers, scale: scale, workers: workers)
            benchmark.compression = compression
            benchmark.pngFilter = pngFilter
            let parent = try Folder.create(FilePath(self.scratch))
            let scratchName = ".markerpaint-bench-\(getpid())"
            let scratch = try parent.makeSubfolder(scratchName)
            defer { try? parent.removeSubfolder(scratchName) }
            print("\(markers) distinct markers @\(scale)x, \(ProcessInfo.processInfo.activeProcessorCount) cores, writing under \(self.scratch)")
            let naive = noBaseline ? nil : try benchmark.naive(into: scratch.makeSubfolder("naive"))
            let floorLevel = if case .libdeflate(let level) = compression { level } else { 1 }
            // Runs interleaved, so that a slow spell of the machine falls on both sides.
            var batchRuns: [RenderBenchmark.Figures] = []
            var floors: [[(step: String, microseconds: Double)]] = []
            var parallelFloors: [[(step: String, microseconds: Double)]] = []
            var paintingFloors: [[(step: String, microseconds: Double)]] = []
            for run in 1...runs {
                batchRuns.append(try await benchmark.batch(into: scratch.makeSubfolder("markerpaint-\(run)")))
                floors.append(try FloorBenchmark(requests: benchmark.requests, pngLevel: floorLevel).run(into: scratch.makeSubfolder("floor-\(run)")))
                if workers > 1 {
                    let parallel = FloorBenchmark(requests: benchmark.requests, pngLevel: floorLevel, threads: workers)
                    parallelFloors.append(try parallel.run(into: scratch.makeSubfolder("floor-parallel-\(run)")))
                }
                let painting = FloorBenchmark(requests: benchmark.requests, pngLevel: floorLevel, paintsBackground: true)
                paintingFloors.append(try painting.run(into: scratch.makeSubfolder("floor-painting-\(run)")))
            }
            let fast = MarkerBench.median(batchRuns, by: \.seconds)
            for figures in [naive, fast].compactMap({ $0 }) {
                let steps = figures.steps.map { "\($0.step) \(String(format: "%.0f", $0.microseconds)) µs" }.joined(separator: ", ")
                print(
                    "\(figures.name): \(String(format: "%.0f", figures.markersPerSecond)) markers/s "
                        + "(\(String(format: "%.2f", figures.seconds)) s), \(figures.bytes) bytes; per marker on one thread: \(steps)")
            }
            func total(_ steps: [(step: String, microseconds: Double)]) -> Double { steps.last?.microseconds ?? 0 }
            func spelled(_ steps: [(step: String, microseconds: Double)]) -> String {
                steps.map { "\($0.step) \(String(format: "%.0f", $0.microseconds)) µs" }.joined(separator: ", ")
            }
            func listed(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
            let floor = MarkerBench.median(floors, by: total)
            let paintingFloor = MarkerBench.median(paintingFloors, by: total)
            print(
                "floor (the same Cairo calls over the kept background, unpremultiply, libdeflate and write, from C, 1 thread), per marker: \(spelled(floor))"
            )
            print("floor painting every background instead (the drawing before backgrounds were kept), per marker: \(spelled(paintingFloor))")
            let perCore = fast.seconds * Double(workers) / Double(markers) * 1e6
            let batchTimes = batchRuns.map { $0.seconds * Double(workers) / Double(markers) * 1e6 }
            print("markerpaint's \(runs) runs: \(listed(batchTimes)) µs a marker per core; the floor's on 1 thread: \(listed(floors.map(total))) µs")
            print(
                String(
                    format: "markerpaint per core: %.0f µs a marker, %.2f× the floor on 1 thread (%.2f× the floor painting every background)",
                    perCore, perCore / total(floor), perCore / total(paintingFloor)))
            if workers > 1 {
                let parallel = MarkerBench.median(parallelFloors, by: total)
                print("floor on \(workers) threads at once, each its share with its own fonts and backgrounds: \(spelled(parallel))")
                print("its \(runs) runs: \(listed(parallelFloors.map(total))) µs a marker per core")
                print(String(format: "markerpaint per core against the floor on %d threads: %.2f×", workers, perCore / total(parallel)))
            }
            if let naive {
                print(
                    String(
                        format: "ratio: %.1f× the markers per second, %.2f× the bytes",
                        fast.markersPerSecond / naive.markersPerSecond, Double(fast.bytes) / Double(naive.bytes)))
            }
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            print("peak resident memory: \(usage.ru_maxrss / 1024) MB")
        }
    }

    struct RouteRun: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "Time the whole `markerpaint route` command, a new process per run, against the naive baseline drawing the same images.",
            discussion: "Measures the command a user types: reading the route, placing, drawing, encoding, writing the folder and its map data."
        )

        @Option(help: "The markerpaint executable to run (default: the one beside this benchmark).") var markerpaint: String?
        @Option(help: "Length of the synthetic route, in km: about one image per km.") var kilometres = 2000
        @Option(help: "Runs of the command; the median is compared.") var runs = 5
        @Option(help: ArgumentHelp("Folder to work in (a new subfolder, removed afterwards).", valueName: "dir")) var scratch = "."

        func validate() throws {
            guard (10...100_000).contains(kilometres) else { throw ValidationError("--kilometres must be 10 to 100000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() throws {
            let executable = markerpaint ?? FilePath(CommandLine.arguments[0]).removingLastComponent().appending("markerpaint").string
            let benchmark = RouteBenchmark(markerpaint: executable, kilometres: kilometres, runs: runs)
            let parent = try Folder.create(FilePath(self.scratch))
            let scratchName = ".markerpaint-bench-route-\(getpid())"
            let scratch = try parent.makeSubfolder(scratchName)
            defer { try? parent.removeSubfolder(scratchName) }
            let route = try benchmark.writeRoute(into: scratch)
            let requests = try benchmark.requests(of: route)
            print(
                "markerpaint route (\(kilometres) km line, --themes day --scales 2 --no-sprites), \(requests.count) images, \(ProcessInfo.processInfo.activeProcessorCount) cores, under \(self.scratch)"
            )
            let createdBefore = try RouteBenchmark.creationCost(in: scratch, name: "probe-before")
            let naive = try RenderBenchmark(requests: requests).naive(into: scratch.makeSubfolder("naive"))
            let timed = try benchmark.timeCommand(route: route, in: scratch)
            let createdAfter = try RouteBenchmark.creationCost(in: scratch, name: "probe-after")
            let median = MarkerBench.median(timed.seconds) { $0 }
            print(String(format: "creating an empty file here: %.0f µs before the runs, %.0f µs after", createdBefore, createdAfter))
            if max(createdBefore, createdAfter) > RouteBenchmark.quietCreationMicroseconds {
                print(
                    "warning: creating files here is slowed by recent deletions (ext4 without a journal passes over inodes deleted "
                        + "in the last 60-360 s); these figures compare nothing: wait 6 minutes without deleting files and run again")
            }
            print(
                String(format: "naive (Pango layout per label, cairo_surface_write_to_png, 1 thread): %.3f s, %d bytes", naive.seconds, naive.bytes))
            print(
                "markerpaint route, whole process: "
                    + timed.seconds.map { String(format: "%.3f", $0) }.joined(separator: ", ")
                    + String(format: " s (median %.3f s), %d images, %d bytes", median, timed.images, timed.bytes))
            print(
                String(
                    format: "ratio: %.1f× faster than naive end to end, %.2f× the bytes", naive.seconds / median,
                    Double(timed.bytes) / Double(naive.bytes)))
        }
    }

    struct Placement: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read, measure and place every marker of a synthetic route with many points, from GPX, GeoJSON and an encoded polyline.",
            discussion: "Baseline: measuring alone. Each format is written to a file first, then read back as `markerpaint route` reads it."
        )

        @Option(help: "Points in the route.") var points = 1_000_000
        @Option(help: ArgumentHelp("Folder for the route files (a new subfolder, removed afterwards).", valueName: "dir")) var scratch = "."

        func validate() throws {
            guard (2...50_000_000).contains(points) else { throw ValidationError("--points must be 2 to 50000000") }
        }

        func run() throws {
            let coordinates = SyntheticRoute.winding(points: points)
            let route = RouteModel.Route(stages: [Stage(name: "bench", coordinates: coordinates)])
            // A renderer measures the pictures placed on the map, as `markerpaint route` has one of its pool's do.
            let renderer = try MarkerRenderer()
            let (measured, measureTime) = timed { MeasuredStage(route.stages[0]) }
            let (table, tableTime) = try timed { try MarkerPlan(route: route, unit: .km, cumulative: false) }
            let (plan, planTime) = try timed { try MarkerPlan(route: route, options: MarkerPlan.Options(), renderer: renderer) }
            print("\(points) points, \(String(format: "%.1f", measured.length / 1000)) km, \(plan.markers.count) markers")
            print("measure (geodesic length of every segment): \(text(measureTime))")
            print("measure + place every marker by the app's zoom table: \(text(tableTime)) (\(table.markers.count) markers)")
            print("measure + place every marker on the map (MarkerPlan, the default): \(text(planTime))")
            print(String(format: "ratio: placing on the map costs %.2f× measuring alone", planTime / measureTime))

            let parent = try Folder.create(FilePath(self.scratch))
            let scratchName = ".markerpaint-bench-placement-\(getpid())"
            let folder = try parent.makeSubfolder(scratchName)
            defer { try? parent.removeSubfolder(scratchName) }
            for (name, format, bytes) in [
                ("route.gpx", RouteFormat.gpx, SyntheticRoute.gpx(coordinates)),
                ("route.geojson", .geoJSON, SyntheticRoute.geoJSON(coordinates)),
                ("route.polyline6", .polyline(precision: 6), SyntheticRoute.polyline6(coordinates)),
            ] {
                let path = try folder.write(bytes, as: name).string
                let (route, readTime) = try timed { try RouteModel.Route.load(path: path, format: format) }
                let (plan, placeTime) = try timed { try MarkerPlan(route: route, options: MarkerPlan.Options(), renderer: renderer) }
                print(
                    "\(name) (\(String(format: "%.1f", Double(bytes.count) / 1_000_000)) MB): read + measure + place \(text(readTime + placeTime)) "
                        + "(read \(text(readTime))), \(plan.markers.count) markers")
            }
        }


        private func text(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }
    }
}

extension PNGEncoder.Filter: ExpressibleByArgument {}

extension PNGEncoder.Compression: ExpressibleByArgument {
    /// `fast`, or a libdeflate level 1 to 12.
    public init?(argument: String) {
        if argument == "fast" {
            self = .fast
        } else if let level = Int(argument), (1...12).contains(level) {
            self = .libdeflate(level: level)
        } else {
            return nil
        }
    }

    public var defaultValueDescription: String { self == .fast ? "fast" : description }
}

/// The value `body` makes and the seconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, RenderBenchmark.seconds(clock.now - start))
}
