package import MarkerPNG
import CPangoCairo

extension PNGEncoder {
    /// The PNG of a premultiplied ARGB32 surface in one pass: each pixel unpremultiplied (Cairo's
    /// rounding, by table) straight into the kept scanline buffer, as grey+alpha when every pixel is
    /// grey. Unpremultiplying maps equal channels to equal channels and unequal ones to unequal
    /// ones, so greyness is read from the premultiplied pixels, while the grey rows are written:
    /// every built-in theme is grey, so a separate scan first would read every image twice.
    /// Same bytes as `encode(surface.straightRGBA())`.
    package func encode(_ surface: CairoSurface) throws(RenderError) -> [UInt8] {
        let colourType: ColourType = fillScanlines(surface, as: .greyAlpha) ? .greyAlpha : .rgba
        if colourType == .rgba { _ = fillScanlines(surface, as: .rgba) }
        let count = (surface.width * colourType.bytesPerPixel + 1) * surface.height
        return try scanlines.withUnsafeBytes { raw in
            Result { () throws(RenderError) in
                do throws(PNGError) {
                    return try frame(
                        filteredRows: UnsafeRawBufferPointer(rebasing: raw[..<count]), width: surface.width, height: surface.height,
                        colourType: colourType)
                } catch { throw RenderError(error) }
            }
        }.get()
    }

    /// Fills `scanlines` with the surface's filtered rows in `colourType`; false, part way, if
    /// `colourType` is grey+alpha and a pixel is not grey.
    private func fillScanlines(_ surface: CairoSurface, as colourType: ColourType) -> Bool {
        let (width, height) = (surface.width, surface.height)
        let filter = filter
        let bytesPerPixel = colourType.bytesPerPixel
        let rowBytes = width * bytesPerPixel
        let count = (rowBytes + 1) * height
        if scanlines.count < count { scanlines = [UInt8](repeating: 0, count: count) }
        if filter != .none, rows.count < 2 * rowBytes { rows = [UInt8](repeating: 0, count: 2 * rowBytes) }
        return surface.withPixels { data, stride in
            unpremultiplied.withUnsafeBufferPointer { table in
                scanlines.withUnsafeMutableBufferPointer { scanlines in
                    rows.withUnsafeMutableBufferPointer { rows in
                        guard let table = table.baseAddress, let lines = scanlines.baseAddress else { return false }
                        for y in 0..<height {
                            let source = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                            let line = lines + y * (rowBytes + 1)
                            // Without a filter the row goes straight after its filter byte; with one, into
                            // alternate row buffers so the row above is still there to filter against.
                            guard filter != .none, let rowBase = rows.baseAddress else {
                                line[0] = 0
                                guard Self.unpremultiply(source, width: width, colourType: colourType, table: table, into: line + 1) else {
                                    return false
                                }
                                continue
                            }
                            let row = rowBase + (y % 2) * rowBytes
                            guard Self.unpremultiply(source, width: width, colourType: colourType, table: table, into: row) else {
                                return false
                            }
                            let above = y > 0 ? UnsafePointer(rowBase + ((y + 1) % 2) * rowBytes) : nil
                            Self.filterRow(
                                UnsafePointer(row), above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, filter: filter, into: line)
                        }
                        return true
                    }
                }
            }
        }
    }

    /// One row of native-endian premultiplied ARGB32 as straight grey+alpha or RGBA bytes; false if
    /// the row is to be grey and a pixel in it is not.
    private static func unpremultiply(
        _ source: UnsafePointer<UInt32>, width: Int, colourType: ColourType, table: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        // A transparent pixel's premultiplied channels are 0, and so is the table's row for alpha 0.
        if colourType == .greyAlpha {
            // Blue ^ green in the low byte, green ^ red in the next: all zero when the pixel is grey.
            var differences: UInt32 = 0
            for x in 0..<width {
                let pixel = source[x]
                differences |= (pixel ^ pixel >> 8) & 0xFFFF
                let base = Int(pixel >> 24) << 8
                out[2 * x] = table[base | Int(pixel & 0xFF)]
                out[2 * x + 1] = UInt8(truncatingIfNeeded: pixel >> 24)
            }
            return differences == 0
        } else {
            for x in 0..<width {
                let pixel = source[x]
                let base = Int(pixel >> 24) << 8
                out[4 * x] = table[base | Int(pixel >> 16 & 0xFF)]
                out[4 * x + 1] = table[base | Int(pixel >> 8 & 0xFF)]
                out[4 * x + 2] = table[base | Int(pixel & 0xFF)]
                out[4 * x + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
            }
            return true
        }
    }
}
