import Foundation
import MarkerFiles
import SystemPackage

/// The six colours of a marker, as in MARKER.md's theme table.
public struct Palette: Sendable, Hashable {
    public var pillFill: Colour
    public var pillBorder: Colour
    public var label: Colour
    public var dotFill: Colour
    public var dotBorder: Colour
    public var shadow: Colour

    public init(pillFill: Colour, pillBorder: Colour, label: Colour, dotFill: Colour, dotBorder: Colour, shadow: Colour) {
        self.pillFill = pillFill
        self.pillBorder = pillBorder
        self.label = label
        self.dotFill = dotFill
        self.dotBorder = dotBorder
        self.shadow = shadow
    }

    /// Night: the original app's palette.
    public static let night = Palette(
        pillFill: Colour(rgb: 35, 35, 35, alpha: 0.85),
        pillBorder: Colour(rgb: 255, 255, 255, alpha: 0.30),
        label: Colour(rgb: 255, 255, 255),
        dotFill: Colour(rgb: 35, 35, 35, alpha: 0.90),
        dotBorder: Colour(rgb: 255, 255, 255, alpha: 0.30),
        shadow: Colour(rgb: 0, 0, 0, alpha: 0.30)
    )

    /// Day: the inverse of night, for light base maps.
    public static let day = Palette(
        pillFill: Colour(rgb: 255, 255, 255, alpha: 0.92),
        pillBorder: Colour(rgb: 0, 0, 0, alpha: 0.18),
        label: Colour(rgb: 35, 35, 35),
        dotFill: Colour(rgb: 255, 255, 255, alpha: 0.95),
        dotBorder: Colour(rgb: 0, 0, 0, alpha: 0.18),
        shadow: Colour(rgb: 0, 0, 0, alpha: 0.25)
    )
}

/// A named palette: `day`, `night`, or one a user supplied in a file.
public struct Theme: Sendable, Hashable {
    /// The name that goes into image file names; lowercase letters, digits and `-` only.
    public let name: String
    public let palette: Palette

    public static let day = Theme(uncheckedName: "day", palette: .day)
    public static let night = Theme(uncheckedName: "night", palette: .night)

    private init(uncheckedName: String, palette: Palette) {
        self.name = uncheckedName
        self.palette = palette
    }

    /// A user theme; its name must be safe in a file name and not shadow a built-in theme.
    public init(name: String, palette: Palette) throws(RenderError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard !name.isEmpty, name.count <= 32, name.allSatisfy(allowed.contains), name.first != "-" else {
            throw RenderError("palette name \"\(name)\" must be 1 to 32 lowercase letters, digits or '-'")
        }
        guard name != Theme.day.name, name != Theme.night.name else {
            throw RenderError("palette name \"\(name)\" is taken by a built-in theme; choose another")
        }
        self.name = name
        self.palette = palette
    }

    /// A built-in theme by name.
    public static func named(_ name: String) -> Theme? {
        switch name {
        case "day": .day
        case "night": .night
        default: nil
        }
    }

    /// Reads a palette file: a JSON object with the six colours (CSS strings) and an optional
    /// `name` (default `custom`) and `base` (`day` or `night`, whose colours fill any left out).
    public static func load(paletteFile path: FilePath) throws(RenderError) -> Theme {
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            defer { try? file.close() }
            bytes = try file.readAll(limit: maximumPaletteBytes)
        } catch let failure as FileDescriptor.ReadFailure {
            switch failure {
            case .tooLarge: throw RenderError("palette file \(path) is larger than \(maximumPaletteBytes) bytes; a palette is a few lines of JSON")
            case .isFolder: throw RenderError("palette file \(path) is a folder")
            case .system(let reason): throw RenderError("cannot read palette file \(path): \(reason)")
            }
        } catch {
            throw RenderError("cannot read palette file \(path): \(error)")
        }
        return try parse(paletteJSON: Data(bytes), source: path.string)
    }

    /// Palette files are tiny; anything larger is not one.
    static let maximumPaletteBytes = 1 << 16

    /// Parses palette JSON; `source` names it in error messages.
    public static func parse(paletteJSON data: Data, source: String) throws(RenderError) -> Theme {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw RenderError("palette file \(source) must hold one JSON object")
            }
            object = parsed
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError("palette file \(source) is not valid JSON")
        }
        let colourKeys = ["pillFill", "pillBorder", "label", "dotFill", "dotBorder", "shadow"]
        let known = Set(colourKeys + ["name", "base"])
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw RenderError("palette file \(source): unknown field \"\(unknown)\" (fields: \(colourKeys.joined(separator: ", ")), name, base)")
        }
        var base: Palette?
        if let baseValue = object["base"] {
            guard let baseName = baseValue as? String, let theme = Theme.named(baseName) else {
                throw RenderError("palette file \(source): \"base\" must be \"day\" or \"night\"")
            }
            base = theme.palette
        }
        func colour(_ key: String, _ fallback: Colour?) throws(RenderError) -> Colour {
            guard let value = object[key] else {
                if let fallback { return fallback }
                throw RenderError("palette file \(source): missing \"\(key)\" (or give \"base\": \"day\" or \"night\")")
            }
            guard let text = value as? String else {
                throw RenderError("palette file \(source): \"\(key)\" must be a CSS colour string such as \"rgba(35,35,35,0.85)\"")
            }
            do {
                return try Colour(css: text)
            } catch {
                throw RenderError("palette file \(source): \"\(key)\": \(error.message)")
            }
        }
        let palette = Palette(
            pillFill: try colour("pillFill", base?.pillFill),
            pillBorder: try colour("pillBorder", base?.pillBorder),
            label: try colour("label", base?.label),
            dotFill: try colour("dotFill", base?.dotFill),
            dotBorder: try colour("dotBorder", base?.dotBorder),
            shadow: try colour("shadow", base?.shadow)
        )
        let name: String
        switch object["name"] {
        case nil: name = "custom"
        case let value as String: name = value
        default: throw RenderError("palette file \(source): \"name\" must be a string")
        }
        do {
            return try Theme(name: name, palette: palette)
        } catch {
            throw RenderError("palette file \(source): \(error.message)")
        }
    }
}
