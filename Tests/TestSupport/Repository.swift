public import Foundation

/// Places in the repository and beside it, found from this file's location so tests run from
/// any working directory.
public enum Repository {
    /// The root: this file is <root>/Tests/TestSupport/Repository.swift. Symlinks are resolved so a
    /// package that links these folders in still finds the real repository.
    public static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The real GPS recordings shared by the project (read-only), beside the repository.
    public static let sharedRoutes = root.appendingPathComponent("../shared/routes").standardizedFileURL

    /// The golden images.
    public static let goldens = root.appendingPathComponent("Goldens")

    /// A path in the repository given relative to its root, as reference.json gives them.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).standardizedFileURL.path
    }

    /// The path of one of the shared routes, e.g. `sharedRoute("route.gpx")`.
    public static func sharedRoute(_ name: String) -> String {
        sharedRoutes.appendingPathComponent(name).path
    }
}
