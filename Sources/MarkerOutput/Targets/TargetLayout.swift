import MarkerSpec

/// One image file a target writes: the picture, and where it goes inside the target's folder.
struct TargetImage: Sendable {
    let request: MarkerRequest
    /// The subfolder, `/`-separated (`end-123km.imageset`, `drawable-night-hdpi`); empty for the root.
    let folder: String
    /// The file's name, or nil for the image's content-hashed name (`end-123km-night@2x-<hash>.svg`).
    let name: String?

    /// `marker` in `theme` at `scale`, written in `folder` as `name` (nil: its content-hashed name).
    init(_ marker: Marker, theme: Theme, scale: MarkerScale, folder: String, name: String?) throws(OutputError) {
        do { request = try MarkerRequest(marker: marker, theme: theme, scale: scale) } catch { throw OutputError(error.description) }
        self.folder = folder
        self.name = name
    }

    /// The path the drawn `image` is written at, relative to the root.
    func path(of image: MarkerImage) -> String {
        let file = name ?? image.fileName
        return folder.isEmpty ? file : folder + "/" + file
    }
}

/// What a platform target is made of: its images, which are drawn in parallel and streamed to
/// disk, and the documents that describe them, made from the drawn images' records.
struct TargetLayout: Sendable {
    /// The root folder's name inside `--out`.
    let root: String
    let images: [TargetImage]
    /// Whether `documents` reads the drawn images' records (the web's index does; a catalog's
    /// Contents.json only names files), so that a large target keeps them only when needed.
    var describesImages = false
    /// Each document by path relative to the root, given every image drawn (by request) if `describesImages`.
    let documents: @Sendable ([MarkerRequest: MarkerImage]) throws(OutputError) -> [String: [UInt8]]

    /// Every folder the images go in, parents first.
    var folders: [String] {
        var result: Set<String> = []
        for image in images where !image.folder.isEmpty {
            var partial = ""
            for component in image.folder.split(separator: "/") {
                partial = partial.isEmpty ? String(component) : partial + "/" + component
                result.insert(partial)
            }
        }
        return result.sorted()
    }
}
