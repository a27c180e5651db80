import MarkerMap
import MarkerQuery
import MarkerSpec

/// The paths the service hands out for content it draws by name: named images, icons by id and
/// sprite sheets. With a signer each carries a signature of what it names; without one (a
/// service on a private network), they are the plain paths.
struct ServiceURLs: Sendable {
    let signer: URLSigner?

    /// `/v1/images/[<signature>/]<file>`: a marker image by its content-hashed file name.
    func image(_ fileName: String) -> String { path(.images, name: fileName, file: fileName) }

    /// `/v1/icons/[<signature>/]<id>[@2x|@3x].png`: the signature covers the id, whatever the ratio.
    func icon(_ id: SpriteID, ratio: Int) -> String {
        path(.icons, name: id.value, file: SpriteSheet.fileName(id.value, pixelRatio: ratio, extension: "png"))
    }

    /// `/v1/pictures/[<signature>/]<file>?<query>`: a route's pin or callout by its content-hashed
    /// file name and the query that draws it; the signature covers both.
    func picture(_ fileName: String, query: String) -> String {
        path(.pictures, name: fileName + "?" + query, file: fileName) + "?" + query
    }

    /// `/v1/sprites/[<signature>/]<name>`: a sheet's base URL, which map SDKs complete with
    /// `[@2x].png` and `.json`; the signature covers the name.
    func sprite(_ name: String) -> String { path(.sprites, name: name, file: name) }

    private func path(_ kind: URLSigner.Kind, name: String, file: String) -> String {
        signer?.path(kind, name: name, file: file) ?? "/v1/\(kind.rawValue)/\(file)"
    }
}
