/// The file formats a marker is written in: PNG pixels, or the same drawing as SVG or PDF.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png, svg, pdf

    /// `.png`, `.svg`, `.pdf`.
    public var fileExtension: String { "." + rawValue }

    /// The media type a server sends it as.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        }
    }

    /// The format whose extension ends `fileName`, if any.
    public init?(endingFileName fileName: some StringProtocol) {
        guard let format = Self.allCases.first(where: { fileName.hasSuffix($0.fileExtension) }) else { return nil }
        self = format
    }
}
