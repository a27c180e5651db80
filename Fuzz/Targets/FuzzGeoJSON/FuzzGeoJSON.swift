import FuzzSupport
import MarkerRoute

/// libFuzzer target: any bytes read as GeoJSON, and the markers of what reads.
func fuzzOne(_ bytes: [UInt8]) {
    FuzzHarness.route(bytes, format: .geoJSON)
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
struct Replay {
    static func main() { FuzzHarness.replay(fuzzOne) }
}
#endif
