import CPangoCairo

extension PNGEncoder {
    /// The PNG of a premultiplied ARGB32 surface in one pass: each pixel unpremultiplied (Cairo's
    /// rounding, by table) straight into the kept scanline buffer, as grey+alpha when every pixel is
    /// grey. Unpremultiplying maps equal channels to equal channels and unequal ones to unequal
    /// ones, so greyness is read from the premultiplied pixels. Same bytes as `encode(surface.straightRGBA())`.
    func encode(_ surface: CairoSurface) throws(RenderError) -> [UInt8] {
        let (width, height) = (surface.width, surface.height)
        let filter = filter
        let colourType =
            surface.withPixels { data, stride in Self.isGrey(data, stride: stride, width: width, height: height) }
            ? ColourType.greyAlpha : .rgba
        let bytesPerPixel = colourType.bytesPerPixel
        let rowBytes = width * bytesPerPixel
        let count = (rowBytes + 1) * height
        if scanlines.count < count { scanlines = [UInt8](repeating: 0, count: count) }
        if filter != .none, rows.count < 2 * rowBytes { rows = [UInt8](repeating: 0, count: 2 * rowBytes) }
        surface.withPixels { data, stride in
            unpremultiplied.withUnsafeBufferPointer { table in
                scanlines.withUnsafeMutableBufferPointer { scanlines in
                    rows.withUnsafeMutableBufferPointer { rows in
                        guard let table = table.baseAddress, let lines = scanlines.baseAddress else { return }
                        for y in 0..<height {
                            let source = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                            let line = lines + y * (rowBytes + 1)
                            // Without a filter the row goes straight after its filter byte; with one, into
                            // alternate row buffers so the row above is still there to filter against.
                            guard filter != .none, let rowBase = rows.baseAddress else {
                                line[0] = 0
                                Self.unpremultiply(source, width: width, colourType: colourType, table: table, into: line + 1)
                                continue
                            }
                            let row = rowBase + (y % 2) * rowBytes
                            Self.unpremultiply(source, width: width, colourType: colourType, table: table, into: row)
                            let above = y > 0 ? UnsafePointer(rowBase + ((y + 1) % 2) * rowBytes) : nil
                            Self.filterRow(
                                UnsafePointer(row), above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, filter: filter, into: line)
                        }
                    }
                }
            }
        }
        return try scanlines.withUnsafeBytes { raw in
            Result { () throws(RenderError) in
                try frame(filteredRows: UnsafeRawBufferPointer(rebasing: raw[..<count]), width: width, height: height, colourType: colourType)
            }
        }.get()
    }

    /// Whether every pixel has equal red, green and blue.
    private static func isGrey(_ data: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) -> Bool {
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = row[x]
                let green = pixel >> 8 & 0xFF
                if pixel >> 16 & 0xFF != green || pixel & 0xFF != green { return false }
            }
        }
        return true
    }

    /// One row of native-endian premultiplied ARGB32 as straight grey+alpha or RGBA bytes.
    private static func unpremultiply(
        _ source: UnsafePointer<UInt32>, width: Int, colourType: ColourType, table: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>
    ) {
        // A transparent pixel's premultiplied channels are 0, and so is the table's row for alpha 0.
        if colourType == .greyAlpha {
            for x in 0..<width {
                let pixel = source[x]
                let base = Int(pixel >> 24) << 8
                out[2 * x] = table[base | Int(pixel & 0xFF)]
                out[2 * x + 1] = UInt8(truncatingIfNeeded: pixel >> 24)
            }
        } else {
            for x in 0..<width {
                let pixel = source[x]
                let base = Int(pixel >> 24) << 8
                out[4 * x] = table[base | Int(pixel >> 16 & 0xFF)]
                out[4 * x + 1] = table[base | Int(pixel >> 8 & 0xFF)]
                out[4 * x + 2] = table[base | Int(pixel & 0xFF)]
                out[4 * x + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
            }
        }
    }
}
