extension PixelComparison {
    /// Perceived colour distance in YIQ space, after Kotsarenko and Ramos, "Measuring perceived color difference using YIQ NTSC transmission color space in mobile applications".
    enum YIQ {
        /// The largest squared distance two colours can have; `threshold` scales it quadratically, as in pixelmatch.
        static let maximumDelta = 35215.0

        /// Squared YIQ distance between two pixels, translucent ones composited onto `backdrop`.
        static func delta(_ first: RGBA, _ second: RGBA, backdrop: Backdrop) -> Double {
            let (r, g, b) = channelDifferences(first, second, backdrop: backdrop)
            let y = brightness(r: r, g: g, b: b)
            let i = r * 0.59597799 - g * 0.27417610 - b * 0.32180189
            let q = r * 0.21147017 - g * 0.52261711 + b * 0.31114694
            return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        }

        /// Brightness of `first` minus that of `second`, composited like ``delta(_:_:backdrop:)``.
        static func brightnessDelta(_ first: RGBA, _ second: RGBA, backdrop: Backdrop) -> Double {
            let (r, g, b) = channelDifferences(first, second, backdrop: backdrop)
            return brightness(r: r, g: g, b: b)
        }

        /// The Y (luma) component of a colour or of a colour difference.
        static func brightness(r: Double, g: Double, b: Double) -> Double {
            r * 0.29889531 + g * 0.58662247 + b * 0.11448223
        }

        /// Per-channel difference of the two pixels after compositing both onto `backdrop`.
        ///
        /// Compositing `c` with alpha `a` onto backdrop `k` gives `(c·a + k·(255 − a)) / 255`; in the
        /// difference of two such values the `k·255` terms cancel, leaving the form below. Two fully
        /// transparent pixels thus compare equal whatever their colour channels hold.
        static func channelDifferences(_ first: RGBA, _ second: RGBA, backdrop: Backdrop) -> (Double, Double, Double) {
            // Through `Int`: `Double(UInt8)` is a generic conversion, which unoptimised builds,
            // where the golden tests run, call unspecialised for every channel of every pixel.
            let r1 = Double(Int(first.r))
            let g1 = Double(Int(first.g))
            let b1 = Double(Int(first.b))
            let r2 = Double(Int(second.r))
            let g2 = Double(Int(second.g))
            let b2 = Double(Int(second.b))
            guard first.a < 255 || second.a < 255 else { return (r1 - r2, g1 - g2, b1 - b2) }
            let a1 = Double(Int(first.a))
            let a2 = Double(Int(second.a))
            let da = a1 - a2
            return (
                (r1 * a1 - r2 * a2 - backdrop.r * da) / 255,
                (g1 * a1 - g2 * a2 - backdrop.g * da) / 255,
                (b1 * a1 - b2 * a2 - backdrop.b * da) / 255
            )
        }

        /// The colour translucent pixels are composited onto before comparing: each channel dark (48) or light (207) depending on position.
        ///
        /// Blending onto plain white, as pixelmatch did before version 7, makes a transparent pixel
        /// indistinguishable from an opaque white one. With this pattern no opaque colour matches
        /// transparency at every position.
        struct Backdrop {
            let r: Double
            let g: Double
            let b: Double

            /// The backdrop of the pixel whose red channel is at `byteOffset` of the pixel buffer.
            ///
            /// The pattern is pixelmatch 7's, keyed on that byte offset. The offset is always even,
            /// so red stays dark throughout: a quirk kept so that results agree with pixelmatch.
            init(byteOffset: Int) {
                let offset = Double(byteOffset)
                r = 48 + 159 * Double(byteOffset % 2)
                g = 48 + 159 * Double(Int(offset / 1.618033988749895) % 2)
                b = 48 + 159 * Double(Int(offset / 2.618033988749895) % 2)
            }
        }
    }
}
