#if canImport(Glibc)
import Glibc
#endif

/// One input's worth of fuzzing: what to do with the bytes libFuzzer makes.
protocol FuzzTarget: SendableMetatype {
    /// How `Fuzz/run` and the command line name it.
    static var name: String { get }
    static func fuzz(_ bytes: [UInt8])
}

/// Every target: one per route format, one for the service's query strings and image names, one for
/// the command line's values (label lists, interval, scale, locale), markerpaint's own deflater,
/// one for who a request is and what it may open (addresses, forwarded lists, signatures, keys), one
/// for the fix readers (followed along a course), one for the progress endpoint's form and one for
/// offline packs of any route, one for PMTiles directories, headers and gzip, and one for whole PMTiles
/// archives as the pack reads them, one for callouts' photos and text, and one for PNGs (the direct
/// path against libspng).
let targets: [any FuzzTarget.Type] = [
    GPXTarget.self, GeoJSONTarget.self, PolylineTarget.self, QueryTarget.self, LabelsTarget.self, DeflateTarget.self, AccessTarget.self,
    FixesTarget.self, FormTarget.self, OfflineTarget.self, PMTilesTarget.self, ArchiveTarget.self, CalloutTarget.self, PNGTarget.self,
]

func target(named name: String) -> (any FuzzTarget.Type)? {
    targets.first { $0.name == name }
}

#if FUZZING
// Built with -DFUZZING and -sanitize=fuzzer (as Fuzz/run does), this is a libFuzzer binary that
// fuzzes the target MARKERPAINT_FUZZ_TARGET names.

/// The target chosen at start-up.
nonisolated(unsafe) private var selected: (any FuzzTarget.Type)?

@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?)
    -> Int32
{
    let name = getenv("MARKERPAINT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let chosen = target(named: name) else {
        let names = targets.map { $0.name }.joined(separator: ", ")
        let message = "set MARKERPAINT_FUZZ_TARGET to one of \(names) (not \"\(name)\")\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    selected = chosen
    // The renderer that measures pictures for placement is made now, not inside an input's run.
    _ = FuzzHarness.renderer
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selected?.fuzz(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
// Built plainly (as `swift build` does), it runs a target once on each file it is given, to
// replay a crash or a corpus: FuzzMarkerpaint gpx crash-file...
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let chosen = target(named: name) else {
            print("usage: FuzzMarkerpaint \(targets.map { $0.name }.joined(separator: "|")) FILE...  (Fuzz/run fuzzes)")
            return
        }
        FuzzHarness.replay(Array(arguments.dropFirst())) { chosen.fuzz($0) }
    }
}
#endif
