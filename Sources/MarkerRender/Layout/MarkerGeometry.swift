/// Facts about every marker image that map styles rely on.
public enum MarkerGeometry {
    /// Points from an image's bottom edge up to its anchor (the dot's centre), the same at every
    /// scale; horizontally the anchor is always the image's centre.
    public static let anchorAboveBottom = MarkerMetrics.anchorAboveBottom
}
