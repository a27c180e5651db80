import Foundation
import TestSupport
import Testing

/// `markerpaint set` and `route --target`: a platform's folder from the command line.
@Suite("markerpaint set")
struct SetCommandTests {
    @Test(
        "set writes the target's folder and its record beside it, and says where",
        arguments: [
            (["--labels", "0-20", "--target", "ios"], "Markers.xcassets", "distance-7km.imageset/distance-7km-dark@3x.png", 21),
            (["--labels", "0-5,7.5", "--target", "android", "--locale", "de"], "res", "drawable-night-hdpi/marker_distance_7_5km.png", 7),
            (["--labels", "0-2", "--interval", "0.5", "--kind", "countdown", "--target", "web"], "web", "markers.json", 5),
            (
                ["--labels", "100-300", "--interval", "100", "--kind", "end", "--target", "ios", "--format", "pdf"], "Markers.xcassets",
                "end-200km.imageset/end-200km-dark.pdf", 3
            ),
        ])
    func writesTarget(arguments: [String], root: String, sample: String, markers: Int) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["set", "--out", "out"] + arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("out/\(root): \(markers) markers"), "\(run.stdout)")
        let out = folder.appendingPathComponent("out")
        let target = arguments[(arguments.firstIndex(of: "--target") ?? 0) + 1]
        #expect(try CLI.files(in: out) == [root, "markerpaint-\(target).json"].sorted())
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(root).appendingPathComponent(sample).path))
    }

    @Test("route --target ios writes the route's markers as a catalog")
    func routeTarget() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(
            ["route", Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, "--target", "ios", "--out", "App"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let catalog = folder.appendingPathComponent("App/Markers.xcassets")
        let sets = try CLI.files(in: catalog).filter { $0.hasSuffix(".imageset") }
        // A loop: its start and end meet in one combined marker.
        #expect(sets == ["combined-start0km_end2.7km.imageset", "distance-1km.imageset", "distance-2km.imageset"])
    }

    @Test(
        "bad options are refused in one line before anything is written",
        arguments: [
            (["--labels", "0-200", "--target", "maplibre"], "use markerpaint route"), (["--labels", "x", "--target", "ios"], "--labels"),
            (["--labels", "0-99999", "--target", "ios"], "more than 10000 labels"),
            (["--labels", "1", "--target", "ios", "--kind", "combined"], "combined"),
            (["--labels", "1", "--target", "ios", "--locale", "fa"], "--locale fa"), (["--labels", "1"], "--target"),
            (["--labels", "1", "--target", "ios", "--interval", "0.25"], "--interval"),
            (["--labels", "1", "--target", "android", "--format", "svg"], "--format svg: --target android takes png"),
            (["--labels", "1", "--target", "web", "--format", "pdf"], "--format pdf: --target web takes svg"),
        ])
    func badOptions(arguments: [String], fragment: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["set", "--out", "out"] + arguments, in: folder)
        #expect(run.status == 64)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(fragment), "\(run.stderr)")
        #expect(try CLI.files(in: folder).isEmpty)
    }

    @Test("a folder of the same name that markerpaint did not write is refused, exit 1, and left as it was")
    func foreignRoot() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let values = folder.appendingPathComponent("out/res/values")
        try FileManager.default.createDirectory(at: values, withIntermediateDirectories: true)
        try Data("<resources/>".utf8).write(to: values.appendingPathComponent("strings.xml"))
        let run = try CLI.run(["set", "--labels", "0-3", "--target", "android", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("has no markerpaint-android.json beside it"), "\(run.stderr)")
        #expect(try CLI.files(in: folder.appendingPathComponent("out")) == ["res"])
        #expect(try CLI.files(in: folder.appendingPathComponent("out/res")) == ["values"])
    }
}
