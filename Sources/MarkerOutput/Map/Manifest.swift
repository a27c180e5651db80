import MarkerFiles
import MarkerRender
public import MarkerSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `manifest.json`: the stages and every image of a batch, and what a later run may reuse.
public struct Manifest: Codable, Sendable {
    public struct Stage: Codable, Sendable {
        public var stage: Int
        public var name: String?
        /// In the batch's unit.
        public var length: Double
        public var lengthMetres: Double

        enum CodingKeys: String, CodingKey {
            case stage, name, length
            case lengthMetres = "length_m"
        }
    }

    public struct Image: Codable, Sendable {
        public var name: String
        public var file: String
        public var sprite: String
        public var kind: String
        public var label: String
        public var theme: String
        /// Pixels per point: 1, 1.5, 2, 3 or 4.
        public var scale: Double
        public var width: Int
        public var height: Int
        public var anchor: PixelPoint
        public var sha256: String
        /// Identifies what was drawn (including a custom palette's colours), for reuse.
        public var key: String

        /// The manifest's row for `image`, shown in maps as `sprite`.
        init(_ image: MarkerImage, sprite: SpriteID) {
            let request = image.request
            name = image.name.stem
            file = image.fileName
            self.sprite = sprite.value
            kind = request.marker.kind.rawValue
            label = request.marker.label
            theme = request.theme.name
            scale = request.scale.factor
            width = image.width
            height = image.height
            anchor = image.anchor
            sha256 = image.sha256
            key = request.reuseKey
        }

        /// The image this row records, if it records `request` under the name `request` would have.
        func image(of request: MarkerRequest) -> MarkerImage? {
            let image = MarkerImage(request: request, width: width, height: height, anchor: anchor, sha256: sha256)
            return key == request.reuseKey && image.fileName == file ? image : nil
        }
    }

    /// A pin's or a callout's image, drawn for a route's waypoint.
    public struct Picture: Codable, Sendable {
        public var name: String
        public var file: String
        public var sprite: String
        /// `pin` or `callout`.
        public var kind: String
        public var theme: String
        public var scale: Double
        public var width: Int
        public var height: Int
        /// The pin's tip or the callout's tail's tip, in pixels.
        public var anchor: PixelPoint
        public var sha256: String

        init(_ drawn: DrawnPicture, sprite: SpriteID) {
            name = String(drawn.image.fileName.prefix { $0 != "." })
            file = drawn.image.fileName
            self.sprite = sprite.value
            kind = drawn.request.picture.kind
            theme = drawn.request.theme.name
            scale = drawn.request.scale.factor
            width = drawn.image.width
            height = drawn.image.height
            anchor = drawn.image.anchor
            sha256 = drawn.image.sha256
        }

        /// Members in key order, which the writer then need not sort.
        var jsonValue: JSONValue {
            .object([
                .init("anchor", .object([.init("x", .number(anchor.x)), .init("y", .number(anchor.y))])),
                .init("file", .string(file)), .init("height", .integer(height)), .init("kind", .string(kind)), .init("name", .string(name)),
                .init("scale", .number(scale)), .init("sha256", .string(sha256)), .init("sprite", .string(sprite)), .init("theme", .string(theme)),
                .init("width", .integer(width)),
            ])
        }
    }

    /// One sprite sheet at one pixel ratio. The later fields are optional so that manifests of
    /// earlier versions still read (and their folders are still recognised as markerpaint's).
    public struct Sprite: Codable, Sendable {
        public var theme: String
        public var pixelRatio: Int
        public var png: String
        public var json: String
        /// The id a style's sprite array gives the sheet (`markerpaint-night`, `markerpaint-night-2`, …).
        public var id: String?
        /// The sheet's URL base: map SDKs add `.json`, `.png`, `@2x.json` and `@2x.png` to it.
        public var name: String?
        /// How many pictures the sheet holds, and the share of its pixels they cover.
        public var images: Int?
        public var fill: Double?
    }

    public var generator = "markerpaint"
    /// Changes whenever the drawing of any of the batch's themes and scales changes.
    public var renderer: String
    /// The fingerprint of each theme and scale drawn (`day@2x`), which decides reuse image by
    /// image (absent in manifests written before it was recorded: nothing of theirs is reused).
    public var renderers: [String: String]?
    public var unit: String
    /// The locale labels were written in, when one was asked for (`de`).
    public var locale: String?
    /// The spacing of the distance markers in the unit, when it is not 1.
    public var interval: Double?
    /// True when the markers between count down to each stage's end.
    public var countdown: Bool?
    /// `table` when the markers show at the zooms of the original app's table instead of where
    /// they fit on the map (absent: placed on the map).
    public var zooms: String?
    public var cumulative: Bool
    public var stages: [Stage]
    public var images: [Image]
    /// The route's pins and callouts, when its file marks waypoints.
    public var pictures: [Picture]?
    public var sprites: [Sprite]
    /// Every file of the batch but the manifest itself, with its SHA-256: what a later run may
    /// replace or remove (absent in manifests written before it was recorded).
    public var files: [String: String]?
    /// The offline pack's archive of map tiles, when `--tiles-from` wrote one.
    public var offlinePack: OfflinePack?

    /// An offline pack's archive: its file in `offline/`, size, SHA-256 and what it holds.
    public struct OfflinePack: Codable, Sendable, Equatable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var format: String
        public var tileType: String
        public var tiles: Int
        public var absent: Int

        var jsonValue: JSONValue {
            .object([
                .init("file", .string(file)), .init("bytes", .integer(bytes)), .init("sha256", .string(sha256)), .init("format", .string(format)),
                .init("tileType", .string(tileType)), .init("tiles", .integer(tiles)), .init("absent", .integer(absent)),
            ])
        }
    }

    public static let fileName = "manifest.json"

    /// The manifest's bytes: what `JSONEncoder` with `[.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]` writes.
    func encoded() throws(OutputError) -> [UInt8] {
        do { return try jsonValue.bytes(JSONValue.Formatting(prettyPrinted: true, withoutEscapingSlashes: true)) } catch {
            throw OutputError("cannot encode the manifest: \(error)")
        }
    }

    /// What the synthesized `encode(to:)` encodes: optional members only when present.
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init("generator", .string(generator)), .init("renderer", .string(renderer)), .init("unit", .string(unit)),
            .init("cumulative", .bool(cumulative)), .init("stages", .array(stages.map(\.jsonValue))),
            .init("images", .array(images.map(\.jsonValue))), .init("sprites", .array(sprites.map(\.jsonValue))),
        ]
        if let locale { members.append(.init("locale", .string(locale))) }
        if let interval { members.append(.init("interval", .number(interval))) }
        if let countdown { members.append(.init("countdown", .bool(countdown))) }
        if let zooms { members.append(.init("zooms", .string(zooms))) }
        if let renderers { members.append(.init("renderers", .object(renderers.map { .init($0.key, .string($0.value)) }))) }
        if let files { members.append(.init("files", .object(files.map { .init($0.key, .string($0.value)) }))) }
        if let offlinePack { members.append(.init("offlinePack", offlinePack.jsonValue)) }
        if let pictures { members.append(.init("pictures", .array(pictures.map(\.jsonValue)))) }
        return .object(members)
    }

    /// The files this manifest says markerpaint wrote, with their SHA-256 where it recorded one.
    var recordedFiles: [String: String?] {
        if let files { return files.mapValues { $0 } }
        // Manifests before `files`: the images (hashed), sprites and map data they name.
        var recorded: [String: String?] = [:]
        for image in images { recorded[image.file] = image.sha256 }
        for sprite in sprites {
            recorded[sprite.png] = String?.none
            recorded[sprite.json] = String?.none
        }
        recorded["markers.geojson"] = String?.none
        recorded["style-layer.json"] = String?.none
        for image in images { recorded["style-layer-\(image.theme).json"] = String?.none }
        return recorded
    }

    /// The manifest in `folder`, or nil if there is none or it is not one of markerpaint's
    /// (another program's manifest.json is then a file markerpaint did not write).
    static func read(in folder: Folder) throws(FileError) -> Manifest? {
        guard let bytes = try folder.contents(of: fileName, limit: RouteOutput.maximumOwnFileBytes),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(bytes)),
            manifest.generator == "markerpaint"
        else { return nil }
        return manifest
    }
}

extension Manifest.Stage {
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init("stage", .integer(stage)), .init("length", .number(length)), .init("length_m", .number(lengthMetres)),
        ]
        if let name { members.append(.init("name", .string(name))) }
        return .object(members)
    }
}

extension Manifest.Image {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        .object([
            .init("anchor", .object([.init("x", .number(anchor.x)), .init("y", .number(anchor.y))])),
            .init("file", .string(file)), .init("height", .integer(height)), .init("key", .string(key)), .init("kind", .string(kind)),
            .init("label", .string(label)), .init("name", .string(name)), .init("scale", .number(scale)), .init("sha256", .string(sha256)),
            .init("sprite", .string(sprite)), .init("theme", .string(theme)), .init("width", .integer(width)),
        ])
    }
}

extension Manifest.Sprite {
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init("theme", .string(theme)), .init("pixelRatio", .integer(pixelRatio)), .init("png", .string(png)), .init("json", .string(json)),
        ]
        if let id { members.append(.init("id", .string(id))) }
        if let name { members.append(.init("name", .string(name))) }
        if let images { members.append(.init("images", .integer(images))) }
        if let fill { members.append(.init("fill", .number(fill))) }
        return .object(members)
    }
}

/// Fingerprints of the renderer as it draws now, one per theme and scale: the same probe images
/// every run, hashed.
///
/// Any change to drawing, fonts or encoding changes them, so old images are never reused for a
/// new look. Each covers one theme at one scale, and a run probes only the themes and scales it
/// draws: probing every scale cost a cold renderer 12–17 ms, mostly loading fonts for scales the
/// run never used. An image is reused only if its own theme and scale have the same fingerprint
/// now as when it was drawn, so a run with other themes or scales still reuses every image it
/// shares with the last one.
enum RendererFingerprint {
    /// The probes' key for `theme` at `scale`, as `Manifest.renderers` records it.
    static func key(theme: String, scale: MarkerScale) -> String { "\(theme)@\(scale)x" }

    static func current(renderer: MarkerRenderer, themes: [Theme], scales: [MarkerScale]) throws(OutputError) -> [String: String] {
        var fingerprints: [String: String] = [:]
        for theme in themes {
            for scale in scales {
                var hashes: [String] = []
                // Between them every digit, both decimal marks, the minus sign and both icons.
                let probes: [(Marker.Kind, Double, Label.DecimalMark)] = [
                    (.end, 12_345, .point), (.start, 0, .point), (.distance, 6.7, .point), (.countdown, 8.9, .comma),
                ]
                for (kind, distance, mark) in probes {
                    do {
                        let marker = try Marker(kind: kind, distance: distance, mark: mark)
                        let request = try MarkerRequest(marker: marker, theme: theme, scale: scale)
                        hashes.append(try renderer.render(request).image.sha256)
                    } catch {
                        throw OutputError("cannot draw the renderer's probe images: \(error)")
                    }
                }
                fingerprints[key(theme: theme.name, scale: scale)] = String(
                    ContentHash.sha256Hex(Array(hashes.joined(separator: ",").utf8)).prefix(16))
            }
        }
        return fingerprints
    }

    /// One fingerprint for all of `fingerprints`, for `Manifest.renderer`.
    static func combined(_ fingerprints: [String: String]) -> String {
        let entries = fingerprints.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return String(ContentHash.sha256Hex(Array(entries.joined(separator: ",").utf8)).prefix(16))
    }
}
