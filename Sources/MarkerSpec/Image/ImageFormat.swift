/// The file formats a marker is written in: PNG pixels, or the same drawing as SVG or PDF.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png, svg, pdf

    /// `.png`, `.svg`, `.pdf`.
    public var fileExtension: String { "." + rawValue }
}
