extension RGBAImage {
    /// Width and height in pixels.
    public struct Size: Sendable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// `width * height`.
        public var pixelCount: Int { width * height }

        public var description: String { "\(width)×\(height)" }
    }

    /// The image's width and height.
    public var size: Size { Size(width: width, height: height) }

    /// The top-left `size` of the image; `size` must fit inside it.
    func cropped(to size: Size) -> RGBAImage {
        precondition(size.width <= width && size.height <= height, "cannot crop \(self.size) to \(size)")
        if size == self.size { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size.pixelCount * 4)
        for row in 0..<size.height {
            let start = row * width * 4
            bytes.append(contentsOf: pixels[start..<start + size.width * 4])
        }
        return RGBAImage(width: size.width, height: size.height, pixels: bytes)
    }
}
