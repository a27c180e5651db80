extension PixelComparison {
    /// Anti-aliasing detection after Vysniauskas, "Anti-aliased Pixel and Intensity Slope Detector" (2009), as pixelmatch applies it.
    enum AntiAliasing {
        /// Whether the pixel at (`x`, `y`) of `image` looks like anti-aliasing of an edge that `other` shares.
        ///
        /// That is: it lies on a brightness slope, with both a darker and a lighter neighbour, and
        /// the darkest or the lightest neighbour sits inside a flat area in both images, so the two
        /// images agree on the edge and differ only in how it was smoothed.
        static func isAntiAliased(x: Int, y: Int, in image: PixelView, other: PixelView) -> Bool {
            let x0 = max(x - 1, 0)
            let y0 = max(y - 1, 0)
            let x2 = min(x + 1, image.width - 1)
            let y2 = min(y + 1, image.height - 1)
            let center = y * image.width + x
            let centerWord = image.word(at: center)
            let centerPixel = image.pixel(at: center)
            // Each neighbour is composited onto the centre's backdrop, as in pixelmatch.
            let backdrop = YIQ.Backdrop(byteOffset: center * 4)
            // pixelmatch counts an image border as one equal neighbour.
            var equalNeighbours = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
            var mostLighter = 0.0
            var mostDarker = 0.0
            var lightest = (x: 0, y: 0)
            var darkest = (x: 0, y: 0)

            // Columns outside, rows inside: the visiting order decides ties, and this is pixelmatch's.
            // `while` rather than `for … in` over ranges: unoptimised builds, where the golden tests
            // run, iterate ranges through generic calls that dominate this inner loop.
            var nx = x0
            while nx <= x2 {
                var ny = y0
                while ny <= y2 {
                    if nx != x || ny != y {
                        let neighbour = ny * image.width + nx
                        let delta =
                            image.word(at: neighbour) == centerWord
                            ? 0
                            : YIQ.brightnessDelta(centerPixel, image.pixel(at: neighbour), backdrop: backdrop)
                        if delta == 0 {
                            equalNeighbours += 1
                            // Three equal neighbours make a flat area, not an edge.
                            if equalNeighbours > 2 { return false }
                        } else if delta < mostLighter {
                            mostLighter = delta
                            lightest = (nx, ny)
                        } else if delta > mostDarker {
                            mostDarker = delta
                            darkest = (nx, ny)
                        }
                    }
                    ny += 1
                }
                nx += 1
            }

            guard mostLighter != 0, mostDarker != 0 else { return false }
            return
                (hasManySiblings(x: darkest.x, y: darkest.y, in: image)
                && hasManySiblings(x: darkest.x, y: darkest.y, in: other))
                || (hasManySiblings(x: lightest.x, y: lightest.y, in: image)
                    && hasManySiblings(x: lightest.x, y: lightest.y, in: other))
        }

        /// Whether the pixel at (`x`, `y`) has three or more neighbours of exactly its value, i.e. lies in a flat area.
        static func hasManySiblings(x: Int, y: Int, in image: PixelView) -> Bool {
            let x0 = max(x - 1, 0)
            let y0 = max(y - 1, 0)
            let x2 = min(x + 1, image.width - 1)
            let y2 = min(y + 1, image.height - 1)
            let word = image.word(at: y * image.width + x)
            var equalNeighbours = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0

            var nx = x0
            while nx <= x2 {
                var ny = y0
                while ny <= y2 {
                    if (nx != x || ny != y) && image.word(at: ny * image.width + nx) == word {
                        equalNeighbours += 1
                        if equalNeighbours > 2 { return true }
                    }
                    ny += 1
                }
                nx += 1
            }
            return false
        }
    }
}
