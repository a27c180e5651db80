/// Renames the ids in Cairo's SVG so the same drawing gives the same bytes.
///
/// Cairo names an embedded image or group by a counter of every surface the process has made
/// (`image5` in one run, `image21` after other markers), so two equal markers' SVGs would differ
/// and so would their names. Each id keeps its letters and is numbered by the order it is defined
/// in (`image1`, `surface1`, `glyph1` …); references to it (`#image5"`, `url(#mask3)`) follow.
enum SVGIdentifiers {
    static func numberedInOrder(_ svg: [UInt8]) -> [UInt8] {
        let marker = Array("id=\"".utf8)
        var renamed: [ArraySlice<UInt8>: [UInt8]] = [:]
        var counts: [ArraySlice<UInt8>: Int] = [:]
        var index = 0
        while let start = find(marker, in: svg, from: index) {
            let valueStart = start + marker.count
            var end = valueStart
            while end < svg.count, isNameByte(svg[end]) { end += 1 }
            index = end
            let name = svg[valueStart..<end]
            guard end < svg.count, svg[end] == UInt8(ascii: "\""), !name.isEmpty, renamed[name] == nil else { continue }
            let letters = name.prefix { !(0x30...0x39).contains($0) && $0 != UInt8(ascii: "-") }
            let count = (counts[letters] ?? 0) + 1
            counts[letters] = count
            renamed[name] = Array(letters) + Array(String(count).utf8)
        }
        guard !renamed.isEmpty else { return svg }

        var result: [UInt8] = []
        result.reserveCapacity(svg.count)
        index = 0
        while index < svg.count {
            let byte = svg[index]
            let isDefinition = byte == UInt8(ascii: "\"") && index >= 3 && svg[(index - 3)..<index].elementsEqual("id=".utf8)
            if byte == UInt8(ascii: "#") || isDefinition {
                var end = index + 1
                while end < svg.count, isNameByte(svg[end]) { end += 1 }
                let closes = end < svg.count && (svg[end] == UInt8(ascii: "\"") || svg[end] == UInt8(ascii: ")"))
                if closes, let new = renamed[svg[(index + 1)..<end]] {
                    result.append(byte)
                    result += new
                    index = end
                    continue
                }
            }
            result.append(byte)
            index += 1
        }
        return result
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
