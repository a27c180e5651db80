import ArgumentParser
import Foundation
import MarkerFiles
import RouteModel
import SystemPackage

extension MarkerBench {
    /// The whole `markerpaint route` command on one route with and without its waypoints.
    struct RoutePinsRun: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route-pins",
            abstract: "Time `markerpaint route` on a route with N waypoints against the same route without, a new process per run, interleaved.",
            discussion: "Both as a user runs them: both themes, 1x and @2x, sprites. Each waypoint is a pin and a callout of its own."
        )

        @Option(help: "The markerpaint executable to run (default: the one beside this benchmark).") var markerpaint: String?
        @Option(help: "Length of the route, in km (a marker a km).") var kilometres = 200
        @Option(help: "Waypoints along it.") var waypoints = 200
        @Option(help: "Runs of each; the median is compared.") var runs = 5
        @Option(help: ArgumentHelp("Folder to work in (a new subfolder, removed afterwards).", valueName: "dir")) var scratch = "/tmp"

        func validate() throws {
            guard (10...10_000).contains(kilometres) else { throw ValidationError("--kilometres must be 10 to 10000") }
            guard (1...10_000).contains(waypoints) else { throw ValidationError("--waypoints must be 1 to 10000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() throws {
            let executable = markerpaint ?? FilePath(CommandLine.arguments[0]).removingLastComponent().appending("markerpaint").string
            let folder = try Folder.open(FilePath(scratch)).makeSubfolder(".markerpaint-bench-pins-\(getpid())")
            defer { try? FileManager.default.removeItem(atPath: folder.path.string) }
            let line = Self.winding(kilometres: kilometres)
            let without = try folder.write(Self.gpx(line, waypoints: []), as: "without.gpx")
            let with = try folder.write(Self.gpx(line, waypoints: Self.waypoints(waypoints, along: line)), as: "with.gpx")
            var times: [String: [Double]] = [:]
            for run in 0..<runs {
                for (name, route) in [("without", without), ("with", with)] {
                    let out = folder.path(of: "\(name)-\(run)")
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = ["route", route.string, "--out", out.string]
                    process.standardOutput = FileHandle.nullDevice
                    let clock = ContinuousClock()
                    let cpuBefore = Self.childrenCPUSeconds()
                    let start = clock.now
                    try process.run()
                    process.waitUntilExit()
                    times[name, default: []].append(RenderBenchmark.seconds(clock.now - start))
                    times[name + " cpu", default: []].append(Self.childrenCPUSeconds() - cpuBefore)
                    guard process.terminationStatus == 0 else { throw CommandFailure("\(executable) route exited \(process.terminationStatus)") }
                }
            }
            let median = { (name: String) in (times[name] ?? []).sorted()[runs / 2] }
            // Recent deletions on this file system slow every file created: both sides' figures then mean little.
            let creation = try RouteBenchmark.creationCost(in: folder, name: "creation-probe")
            if creation > RouteBenchmark.quietCreationMicroseconds {
                print(String(format: "warning: creating a file costs %.0f µs here now (quiet: under %.0f); recent deletions slow both sides", creation, RouteBenchmark.quietCreationMicroseconds))
            }
            print("markerpaint route, a \(kilometres) km ride, day and night at 1x and @2x with sprites; median of \(runs) interleaved runs")
            // The wall time is the claim; the CPU time (user and system, both threads) shows what waiting on the disk hides.
            print(String(format: "without waypoints      %7.3f s         %7.3f s CPU", median("without"), median("without cpu")))
            print(
                String(
                    format: "with %5d waypoints   %7.3f s %5.2fx  %7.3f s CPU %5.2fx", waypoints, median("with"), median("with") / median("without"),
                    median("with cpu"), median("with cpu") / median("without cpu")))
        }

        /// User and system seconds of every child this process has waited for.
        static func childrenCPUSeconds() -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }

        /// A winding road `kilometres` long, a point every 100 m.
        static func winding(kilometres: Int) -> [Coordinate] {
            (0...(kilometres * 10)).map { index in
                let north = 3000 * sin(Double(index) / 150)
                let latitude = 46 + north / 111_320
                return Coordinate(latitude: latitude, longitude: 14 + Double(index) * 100 / (111_320 * cos(46 * Double.pi / 180)))
            }
        }

        /// `count` waypoints beside `line`, evenly spread, with Garmin's symbols in turn and a name and description each.
        static func waypoints(_ count: Int, along line: [Coordinate]) -> [(Coordinate, String, String, String)] {
            let symbols = ["Drinking Water", "Restaurant", "Cafe", "Summit", "Scenic Area", "Campground", "Shelter", "Danger Area", "Information", "Parking Area", "Restroom", "Bike Shop", "Flag, Blue"]
            return (0..<count).map { index in
                let point = line[(index * 7919) % line.count]
                let beside = Coordinate(latitude: point.latitude + 0.0004 * Double(index % 5 - 2), longitude: point.longitude + 0.0004 * Double(index % 3 - 1))
                return (beside, "Point \(index + 1)", index % 3 == 0 ? "Open daily, water and food" : "Stop \(index + 1)", symbols[index % symbols.count])
            }
        }

        static func gpx(_ line: [Coordinate], waypoints: [(Coordinate, String, String, String)]) -> [UInt8] {
            var text = #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="markerpaint-bench" xmlns="http://www.topografix.com/GPX/1/1">"#
            for (point, name, description, symbol) in waypoints {
                text += #"<wpt lat="\#(point.latitude)" lon="\#(point.longitude)"><name>\#(name)</name><desc>\#(description)</desc><sym>\#(symbol)</sym></wpt>"#
            }
            text += "<trk><name>ride</name><trkseg>"
            for point in line { text += #"<trkpt lat="\#(point.latitude)" lon="\#(point.longitude)"/>"# }
            return Array((text + "</trkseg></trk></gpx>").utf8)
        }
    }
}
