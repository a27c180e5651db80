import FuzzSupport
import MarkerRoute

/// libFuzzer target: any bytes read as an encoded polyline, precision 5 or 6 by the first byte's
/// lowest bit (the rest is the polyline), and the markers of what reads.
func fuzzOne(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    FuzzHarness.route(Array(bytes.dropFirst()), format: .polyline(precision: first & 1 == 0 ? 5 : 6))
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
