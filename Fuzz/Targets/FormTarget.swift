import MarkerQuery

/// libFuzzer target: `POST /v1/progress`'s form. The bytes are split at the first newline into a
/// `Content-Type` and a body; what reads is a form of the names asked for, each once, whose parts
/// are pieces of the body holding no boundary line, and which reads back the same when written again.
enum FormTarget: FuzzTarget {
    static let name = "form"

    static func fuzz(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let contentType = String(decoding: bytes[..<split], as: UTF8.self)
        let body = Array(bytes[split...].dropFirst())
        guard let form = try? FormData(body, contentType: contentType, names: ["route", "fixes"]) else { return }
        FuzzHarness.require(form.parts.count <= 2, "\(form.parts.count) parts")
        FuzzHarness.require(Set(form.parts.map(\.name)).count == form.parts.count, "a name read twice")
        FuzzHarness.require(form.parts.allSatisfy { ["route", "fixes"].contains($0.name) }, "a name not asked for")
        FuzzHarness.require(form.parts.map(\.bytes.count).reduce(0, +) <= body.count, "parts longer than the body")
        // Written again with a boundary of its own, the form reads back as the same parts (where its
        // headers still fit: bytes that are not UTF-8 come back as three bytes of U+FFFD each).
        let boundary = "fuzz-boundary-0f3c"
        guard form.parts.allSatisfy({ !contains($0.bytes, Array("\r\n--\(boundary)".utf8)) && plain($0.fileName ?? "") && ($0.fileName?.utf8.count ?? 0) < 4096 }) else { return }
        var again: [UInt8] = []
        for part in form.parts {
            let file = part.fileName.map { "; filename=\"\(escaped($0))\"" } ?? ""
            again += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(file)\r\n\r\n".utf8) + part.bytes + [0x0D, 0x0A]
        }
        again += Array("--\(boundary)--\r\n".utf8)
        let read = try? FormData(again, contentType: "multipart/form-data; boundary=\(boundary)", names: ["route", "fixes"])
        FuzzHarness.require(read?.parts == form.parts, "a form written again reads differently: \(form.parts.map { ($0.name, $0.fileName.debugDescription, $0.bytes.count) }) against \(read?.parts.map { ($0.name, $0.fileName.debugDescription, $0.bytes.count) } ?? [])")
    }

    /// A file name that a header line can carry: no control characters.
    static func plain(_ name: String) -> Bool { name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }

    static func escaped(_ name: String) -> String {
        name.replacingBackslashesAndQuotes()
    }

    static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}

extension String {
    /// With `\` and `"` escaped by a backslash, as in a quoted header parameter.
    fileprivate func replacingBackslashesAndQuotes() -> String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == "\\" || scalar == "\"" { result.append("\\") }
            result.append(scalar)
        }
        return String(result)
    }
}
