import RouteModel

/// A 1-based line and column (in bytes) within a text, for pointing at where its problem is.
struct TextPosition: Sendable, Equatable, CustomStringConvertible {
    var line: Int
    var column: Int

    /// The position of byte `offset`, found by counting line breaks; only used on the error path.
    init(of offset: Int, in bytes: [UInt8]) {
        var line = 1
        var lineStart = 0
        for (position, byte) in bytes[..<offset].enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        self.line = line
        column = offset - lineStart + 1
    }

    var description: String { "line \(line), column \(column)" }
}
