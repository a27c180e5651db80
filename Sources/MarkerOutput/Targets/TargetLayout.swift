import MarkerSpec

/// What a target image shows: a marker, or a pin or callout.
enum TargetRequest: Sendable, Hashable {
    case marker(MarkerRequest)
    case picture(PictureRequest)

    /// `end-123km-night@2x`: the name before its hash.
    var baseName: String {
        switch self {
        case .marker(let request): request.baseName
        case .picture(let request): request.baseName
        }
    }
}

/// The images a target drew, by what each shows, for documents that describe them.
struct DrawnImages: Sendable {
    var markers: [MarkerRequest: MarkerImage] = [:]
    var pictures: [PictureRequest: PictureImage] = [:]
}

/// One image file a target writes: the picture, and where it goes inside the target's folder.
struct TargetImage: Sendable {
    let request: TargetRequest
    /// The subfolder, `/`-separated (`end-123km.imageset`, `drawable-night-hdpi`); empty for the root.
    let folder: String
    /// The file's name, or nil for the image's content-hashed name (`end-123km-night@2x-<hash>.svg`).
    let name: String?

    /// `marker` in `theme` at `scale`, written in `folder` as `name` (nil: its content-hashed name).
    init(_ marker: Marker, theme: Theme, scale: MarkerScale, folder: String, name: String?) throws(OutputError) {
        do { request = .marker(try MarkerRequest(marker: marker, theme: theme, scale: scale)) } catch { throw OutputError(error.description) }
        self.folder = folder
        self.name = name
    }

    /// `picture` in `theme` at `scale`, written in `folder` as `name` (nil: its content-hashed name).
    init(_ picture: MapPicture, theme: Theme, scale: MarkerScale, folder: String, name: String?) throws(OutputError) {
        do { request = .picture(try PictureRequest(picture, theme: theme, scale: scale)) } catch { throw OutputError(error.description) }
        self.folder = folder
        self.name = name
    }

    /// The path the drawn image named `fileName` is written at, relative to the root.
    func path(of fileName: String) -> String {
        let file = name ?? fileName
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
    let documents: @Sendable (DrawnImages) throws(OutputError) -> [String: [UInt8]]

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
