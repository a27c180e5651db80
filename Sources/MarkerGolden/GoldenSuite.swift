import MarkerFiles
public import MarkerPixels
import MarkerRender
import MarkerPins
public import MarkerSpec
import MarkerPNG
public import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The golden cases of a folder, drawn by the current renderer and held against their images.
public struct GoldenSuite: Sendable {
    public static let caseFileName = "cases.json"
    /// Written beside the goldens by `record`, so the picture in the README never goes stale.
    public static let contactSheetFileName = "contact-sheet.png"

    /// How close a rendering must be to its golden. The renderer is bit-exact on one machine, so the
    /// tolerance only has to absorb anti-aliasing drift between library versions: a strict perceptual
    /// threshold (0.02 catches a 25-step blue shift of the night pill and a shadow cut 1px under the
    /// dot, which 0.05 lets through) and at most 0.1% of pixels.
    public static let defaultOptions = PixelComparison.Options(
        threshold: 0.02, includeAntiAliasing: false, maximumDifferingShare: 0.001
    )

    public let directory: FilePath
    /// Each case with its name: the image's readable name, `distance-123km-night@2x`.
    public let cases: [(name: String, request: MarkerRequest)]
    /// Each pin case with its name: `pin-water-night@2x`.
    public let pins: [(name: String, request: PinRequest)]
    /// Each callout case with its name: `callout-water-at-ko-a-na-gozdu-day@2x`.
    public let callouts: [(name: String, request: CalloutRequest)]

    /// Reads `cases.json` in `directory` and checks every case.
    public init(directory: FilePath) throws(GoldenError) {
        self.directory = directory
        let listPath = directory.appending(Self.caseFileName)
        let list: GoldenCaseList
        do {
            let folder = try Folder.open(directory)
            guard let bytes = try folder.contents(of: Self.caseFileName, limit: Self.maximumFileBytes) else {
                throw GoldenError("cannot read \(listPath): no such file")
            }
            list = try JSONDecoder().decode(GoldenCaseList.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw GoldenError("\(listPath) is not a valid case list: \(Self.describe(error))")
        } catch let error as GoldenError {
            throw error
        } catch {
            throw GoldenError("cannot read \(listPath): \(error)")
        }
        var named: [(String, MarkerRequest)] = []
        var seen = Set<String>()
        for (index, goldenCase) in list.cases.enumerated() {
            let request: MarkerRequest
            do {
                request = try goldenCase.request(relativeTo: directory)
            } catch {
                throw GoldenError("\(listPath): case \(index + 1): \(error.message)")
            }
            guard seen.insert(request.baseName).inserted else {
                throw GoldenError("\(listPath): case \(index + 1) repeats \(request.baseName)")
            }
            named.append((request.baseName, request))
        }
        cases = named
        var namedPins: [(String, PinRequest)] = []
        for (index, goldenPin) in (list.pins ?? []).enumerated() {
            let request: PinRequest
            do {
                request = try goldenPin.request(relativeTo: directory)
            } catch {
                throw GoldenError("\(listPath): pin \(index + 1): \(error.message)")
            }
            guard seen.insert(request.baseName).inserted else {
                throw GoldenError("\(listPath): pin \(index + 1) repeats \(request.baseName)")
            }
            namedPins.append((request.baseName, request))
        }
        pins = namedPins
        var namedCallouts: [(String, CalloutRequest)] = []
        for (index, goldenCallout) in (list.callouts ?? []).enumerated() {
            let request: CalloutRequest
            do {
                request = try goldenCallout.request(relativeTo: directory)
            } catch {
                throw GoldenError("\(listPath): callout \(index + 1): \(error.message)")
            }
            guard seen.insert(request.baseName).inserted else {
                throw GoldenError("\(listPath): callout \(index + 1) repeats \(request.baseName)")
            }
            namedCallouts.append((request.baseName, request))
        }
        callouts = namedCallouts
    }

    /// Golden images and case lists are small; this bounds what reading one can cost.
    static let maximumFileBytes = 16 << 20

    /// The golden image file of a case.
    public func goldenPath(for name: String) -> FilePath {
        directory.appending(name + ".png")
    }

    /// The bytes of a case's golden image, or nil if it has none.
    private func goldenBytes(for name: String) throws(GoldenError) -> [UInt8]? {
        do {
            return try Folder.open(directory).contents(of: name + ".png", limit: Self.maximumFileBytes)
        } catch {
            throw GoldenError(error.message)
        }
    }

    /// Draws every case and compares it with its golden image.
    public func verify(options: PixelComparison.Options = defaultOptions) throws(GoldenError) -> [GoldenComparison] {
        var comparisons: [GoldenComparison] = []
        for (name, draw, _) in try drawings() {
            let actual = try draw()
            let path = goldenPath(for: name)
            guard let bytes = try goldenBytes(for: name) else {
                comparisons.append(
                    GoldenComparison(
                        name: name, actual: actual, expected: nil, result: nil,
                        problem: "no golden image at \(path); record it with `markerpaint golden record`"))
                continue
            }
            let expected: RGBAImage
            do {
                expected = try PNGDecoder.decode(bytes)
            } catch {
                comparisons.append(
                    GoldenComparison(
                        name: name, actual: actual, expected: nil, result: nil,
                        problem: "golden \(path) is \(error.message)"))
                continue
            }
            let result = PixelComparison.compare(expected: expected, actual: actual, options: options)
            comparisons.append(GoldenComparison(name: name, actual: actual, expected: expected, result: result, problem: nil))
        }
        return comparisons
    }

    /// Re-draws every case (with `onlyMissing`, only the cases without a golden image yet, leaving
    /// every other file as it is), writes its golden image and refreshes the contact sheet; returns
    /// the golden paths written.
    public func record(onlyMissing: Bool = false) throws(GoldenError) -> [FilePath] {
        var written: [FilePath] = []
        func write(_ bytes: [UInt8], as name: String, into folder: Folder) throws(GoldenError) -> FilePath {
            do { return try folder.write(bytes, as: name) } catch { throw GoldenError(error.message) }
        }
        let folder: Folder
        do { folder = try Folder.open(directory) } catch { throw GoldenError(error.message) }
        for (name, _, render) in try drawings() {
            if onlyMissing, try goldenBytes(for: name) != nil { continue }
            written.append(try write(try render(), as: name + ".png", into: folder))
        }
        _ = try write(try contactSheet(), as: Self.contactSheetFileName, into: folder)
        return written
    }

    /// Every case by name, markers then pins then callouts, with how to draw it: as pixels (to
    /// compare) and as its PNG (to record).
    private func drawings() throws(GoldenError) -> [(name: String, draw: () throws(GoldenError) -> RGBAImage, render: () throws(GoldenError) -> [UInt8])] {
        let markers = try GoldenError.drawing { try MarkerRenderer() }
        let pinRenderer = try GoldenError.drawing { try PinRenderer() }
        let calloutRenderer = try GoldenError.drawing { try CalloutRenderer() }
        typealias Drawing = (name: String, draw: () throws(GoldenError) -> RGBAImage, render: () throws(GoldenError) -> [UInt8])
        let drawnMarkers = cases.map { (name, request) -> Drawing in
            (name, { () throws(GoldenError) in try GoldenError.drawing { try markers.draw(request).image } },
             { () throws(GoldenError) in try GoldenError.drawing { try markers.render(request).png } })
        }
        let drawnPins = pins.map { (name, request) -> Drawing in
            (name, { () throws(GoldenError) in try GoldenError.drawing { try pinRenderer.draw(request).image } },
             { () throws(GoldenError) in try GoldenError.drawing { try pinRenderer.render(request).bytes } })
        }
        let drawnCallouts = callouts.map { (name, request) -> Drawing in
            (name, { () throws(GoldenError) in try GoldenError.drawing { try calloutRenderer.draw(request).image } },
             { () throws(GoldenError) in try GoldenError.drawing { try calloutRenderer.render(request).bytes } })
        }
        return drawnMarkers + drawnPins + drawnCallouts
    }

    /// One labelled picture of every golden image: rows by marker, columns by theme and scale.
    public func contactSheet() throws(GoldenError) -> [UInt8] {
        let every = sheetCases
        return try sheet(of: every, title: "markerpaint goldens: \(every.count) cases")
    }

    /// Every case as the sheet lists it: its golden's name, its theme and scale, and its row.
    private var sheetCases: [(name: String, theme: Theme, scale: MarkerScale, row: String)] {
        cases.map { ($0.name, $0.request.theme, $0.request.scale, "\($0.request.marker.kind.rawValue) \($0.request.marker.label)") }
            + pins.map { ($0.name, $0.request.theme, $0.request.scale, "pin \($0.request.pin.nameLabel)") }
            + callouts.map { ($0.name, $0.request.theme, $0.request.scale, "callout \($0.request.callout.nameLabel)") }
    }

    private func sheet(of listed: [(name: String, theme: Theme, scale: MarkerScale, row: String)], title: String) throws(GoldenError) -> [UInt8] {
        var entries: [ContactSheet.Entry] = []
        var themeOrder: [String: Int] = [:]
        var columnKeys: [String: [Int]] = [:]
        for (name, theme, scale, row) in listed {
            guard let bytes = try goldenBytes(for: name) else {
                throw GoldenError("no golden image for \(name); record the goldens first")
            }
            let image = try GoldenError.drawing { try PNGDecoder.decode(bytes) }
            let column = "\(theme.name) @\(scale)x"
            // Each theme's scales side by side, themes in the order cases.json first names them.
            let order = themeOrder[theme.name] ?? themeOrder.count
            themeOrder[theme.name] = order
            columnKeys[column] = [order, scale.halves]
            entries.append(ContactSheet.Entry(row: row, column: column, image: image, backdrop: theme == .night ? .dark : .light))
        }
        return try GoldenError.drawing { try ContactSheet.render(entries, title: title) { columnKeys[$0.column] ?? [] } }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0 + 1)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing \"\(key.stringValue)\""
        @unknown default:
            return "\(error)"
        }
    }
}

/// How one golden case came out.
public struct GoldenComparison: Sendable {
    public let name: String
    public let actual: RGBAImage
    public let expected: RGBAImage?
    public let result: PixelComparison.Result?
    /// Why the case could not be compared at all (missing or unreadable golden).
    public let problem: String?

    public var passed: Bool { problem == nil && result?.passed == true }
}
