import MarkerFiles
public import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Theme {
    /// Palette files are tiny; anything larger is not one.
    static let maximumPaletteBytes = 1 << 16

    /// Reads a palette file: a JSON object with the six colours (CSS strings) and an optional
    /// `name` (default `custom`) and `base` (`day` or `night`, whose colours fill any left out).
    public static func load(paletteFile path: FilePath) throws(SpecError) -> Theme {
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            defer { try? file.close() }
            bytes = try file.readAll(limit: maximumPaletteBytes)
        } catch let failure as FileDescriptor.ReadFailure {
            switch failure {
            case .tooLarge: throw SpecError(.palette, "file \(path) is larger than \(maximumPaletteBytes) bytes; a palette is a few lines of JSON")
            case .isFolder: throw SpecError(.palette, "file \(path) is a folder")
            case .system(let reason): throw SpecError(.palette, "file \(path) cannot be read: \(reason)")
            }
        } catch {
            throw SpecError(.palette, "file \(path) cannot be read: \(error)")
        }
        return try parse(paletteJSON: bytes, source: path.string)
    }

    /// Parses palette JSON; `source` names it in error messages.
    public static func parse(paletteJSON bytes: [UInt8], source: String) throws(SpecError) -> Theme {
        func problem(_ text: String) -> SpecError { SpecError(.palette, "file \(source): \(text)") }
        let colourKeys = ["pillFill", "pillBorder", "label", "dotFill", "dotBorder", "shadow"]
        let object: [String: String]
        do {
            object = try JSONDecoder().decode([String: String].self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let context) {
            // Every value is a string; the path says which one is not.
            switch context.codingPath.last?.stringValue {
            case nil: throw problem("must hold one JSON object")
            case "base": throw problem("\"base\" must be \"day\" or \"night\"")
            case "name": throw problem("\"name\" must be a string")
            case let key?: throw problem("\"\(key)\" must be a CSS colour string such as \"rgba(35,35,35,0.85)\"")
            }
        } catch {
            throw problem("is not valid JSON")
        }
        let known = Set(colourKeys + ["name", "base"])
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem("unknown field \"\(unknown)\" (fields: \(colourKeys.joined(separator: ", ")), name, base)")
        }
        var base: Palette?
        if let baseName = object["base"] {
            guard let theme = Theme.named(baseName) else { throw problem("\"base\" must be \"day\" or \"night\"") }
            base = theme.palette
        }
        func colour(_ key: String, _ fallback: Colour?) throws(SpecError) -> Colour {
            guard let text = object[key] else {
                if let fallback { return fallback }
                throw problem("missing \"\(key)\" (or give \"base\": \"day\" or \"night\")")
            }
            do {
                return try Colour(css: text)
            } catch {
                throw problem("\"\(key)\": \(error)")
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
        do {
            return try Theme(name: object["name"] ?? "custom", palette: palette)
        } catch {
            throw problem(error.description)
        }
    }
}
