import MarkerSpec

/// Android resources, `res/`: each marker as a drawable at every density, mdpi (1) to xxxhdpi (4),
/// the day theme in `drawable-<density>/` and the night theme under the same name in
/// `drawable-night-<density>/`, so `R.drawable.marker_end_123km` follows the system's dark theme.
enum AndroidResources {
    /// The density qualifiers for each scale: the scales `PlatformTarget.android` draws.
    static let densities: [(scale: MarkerScale, qualifier: String)] = [
        (1, "mdpi"), (.oneAndAHalf, "hdpi"), (2, "xhdpi"), (3, "xxhdpi"), (4, "xxxhdpi"),
    ]

    /// The resource name of `marker`: `marker_end_123km`, `marker_distance_7_5km`. Resource names
    /// must be lowercase letters, digits and underscores, starting with a letter (the `marker_`
    /// prefix also keeps them clear of Java's keywords); a label's decimal mark becomes `_`.
    static func name(of marker: Marker) -> String {
        "marker_" + spelled("\(marker.kind.rawValue)_\(marker.label)")
    }

    /// The resource name of a pin or callout the target names `name`: `pin_water`, `callout_spring_2`.
    static func name(ofPicture name: String) -> String { spelled(name) }

    /// `text` with all but lowercase letters, digits and underscores as `_`.
    private static func spelled(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "a"..."z", "0"..."9", "_": String(scalar)
            default: "_"
            }
        }.joined()
    }

    /// Whether `name` is a legal Android resource file name stem.
    static func isLegal(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The resource folders: every marker at every density, in day and night.
    static func layout(_ contents: TargetContents) throws(OutputError) -> TargetLayout {
        var images: [TargetImage] = []
        var names: [String: Marker] = [:]
        for marker in contents.markers {
            let name = Self.name(of: marker)
            // Two labels that differ only in what becomes `_` would share a resource.
            if let other = names.updateValue(marker, forKey: name), other != marker {
                throw OutputError("\(other.label) and \(marker.label) would both be the Android resource \(name)")
            }
            for theme in PlatformTarget.android.themes {
                for (scale, qualifier) in Self.densities {
                    let folder = theme == .night ? "drawable-night-\(qualifier)" : "drawable-\(qualifier)"
                    images.append(try TargetImage(marker, theme: theme, scale: scale, folder: folder, name: name + ".png"))
                }
            }
        }
        for (picture, pictureName) in contents.pictures {
            let name = Self.name(ofPicture: pictureName)
            for theme in PlatformTarget.android.themes {
                for (scale, qualifier) in Self.densities {
                    let folder = theme == .night ? "drawable-night-\(qualifier)" : "drawable-\(qualifier)"
                    images.append(try TargetImage(picture, theme: theme, scale: scale, folder: folder, name: name + ".png"))
                }
            }
        }
        return TargetLayout(root: PlatformTarget.android.rootName, images: images) { _ throws(OutputError) in [:] }
    }
}
