import Foundation
import MarkerFiles
import MarkerMap
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import SystemPackage

/// The whole `markerpaint route` command as a user runs it, a new process each time, against the
/// naive baseline drawing the same images one by one in the same run.
struct RouteBenchmark {
    let markerpaint: String
    let kilometres: Int
    let runs: Int

    /// A straight GeoJSON line along the equator, a point every kilometre or so.
    func writeRoute(into folder: Folder) throws -> FilePath {
        try folder.write(SyntheticRoute.geoJSON(SyntheticRoute.equator(kilometres: kilometres)), as: "route.geojson")
    }

    /// The images `markerpaint route … --themes day --scales 2` draws for `route`.
    func requests(of route: FilePath) throws -> [MarkerRequest] {
        let plan = try MarkerPlan(route: try Route.load(path: route.string, format: nil), unit: .km, cumulative: false)
        return try RouteImageSet(plan: plan, themes: [.day], scales: [2]).requests
    }

    /// Seconds of each run of the command, each into a new folder under `folder`.
    func timeCommand(route: FilePath, in folder: Folder) throws -> (seconds: [Double], images: Int, bytes: Int) {
        var seconds: [Double] = []
        var images = 0
        var bytes = 0
        for run in 0..<runs {
            let out = folder.path(of: "out-\(run)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: markerpaint)
            process.arguments = ["route", route.string, "--out", out.string, "--themes", "day", "--scales", "2", "--no-sprites"]
            process.standardOutput = FileHandle.nullDevice
            let clock = ContinuousClock()
            let start = clock.now
            try process.run()
            process.waitUntilExit()
            seconds.append(RenderBenchmark.seconds(clock.now - start))
            guard process.terminationStatus == 0 else { throw CommandFailure("\(markerpaint) route exited \(process.terminationStatus)") }
            let written = try Folder.open(out)
            let names = try written.entries().map(\.name).filter { $0.hasSuffix(".png") }
            images = names.count
            bytes = names.reduce(0) { $0 + (written.size(of: $1) ?? 0) }
        }
        return (seconds, images, bytes)
    }
}

extension RouteBenchmark {
    /// Microseconds to create one empty file in a new subfolder `name` of `folder`, over 1,000 files.
    ///
    /// On an ext4 without a journal the kernel skips, for every new file, each free inode of the
    /// folder's group deleted in the last 60 s (360 s while its table is unwritten): after a large
    /// deletion a create costs milliseconds instead of microseconds, and both sides' figures mean
    /// nothing. The files stay until the scratch folder goes, so the probe itself deletes nothing.
    static func creationCost(in folder: Folder, name: String) throws -> Double {
        let probe = try folder.makeSubfolder(name)
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<1_000 { try probe.writeNew([], as: "\(index)") }
        return RenderBenchmark.seconds(clock.now - start) * 1_000
    }

    /// Above this, creating files is slowed by recent deletions, not by what is measured.
    static let quietCreationMicroseconds = 60.0
}

/// A command the benchmark ran did not succeed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
