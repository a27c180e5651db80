import MarkerFiles
import MarkerPins
import MarkerPNG
import MarkerRender
public import MarkerSpec

/// A pin or callout of a batch: what was asked and what was drawn.
public struct DrawnPicture: Sendable {
    public let request: PictureRequest
    public let image: PictureImage
}

/// Draws a route's pins and callouts on a pool of their own and writes each PNG into a folder.
enum PictureBatch {
    /// Draws `requests` with `threads` threads into `folder` as new files, in request order;
    /// `progress` hears how many are done.
    static func draw(
        _ requests: [PictureRequest], into folder: Folder, threads: Int, compression: PNGEncoder.Compression,
        progress: @Sendable (Int) -> Void = { _ in }
    ) async throws(OutputError) -> [DrawnPicture] {
        guard !requests.isEmpty else { return [] }
        let pool: CPUPool<PictureRenderers>
        do { pool = try await PictureRenderers.pool(name: "batch-pictures", threads: threads, compression: compression) } catch {
            throw OutputError(carrying: error)
        }
        defer { pool.shutdown() }
        // A callout costs some ten markers: small jobs keep both threads busy to the end.
        let chunk = max(1, min(8, requests.count / (4 * pool.threadCount)))
        let pictures: [DrawnPicture]
        do {
            pictures = try await pool.map(requests, chunk: chunk, progress: progress) { (renderers, request) throws(OutputError) in
                let image: PictureImage
                let bytes: [UInt8]
                do throws(RenderError) { (image, bytes) = try renderers.render(request) } catch {
                    throw OutputError("cannot draw \(request.baseName): \(error.message)")
                }
                do throws(FileError) { try folder.writeNew(bytes, as: image.fileName) } catch { throw OutputError(error.message) }
                return DrawnPicture(request: request, image: image)
            }
        } catch {
            throw OutputError(carrying: error)
        }
        guard pictures.count == requests.count else { throw OutputError("\(requests.count - pictures.count) pictures were neither drawn nor failed") }
        return pictures
    }
}
