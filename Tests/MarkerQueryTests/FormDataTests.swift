import MarkerQuery
import Testing

/// The progress endpoint's form, read as curl and browsers write it, and refused with a sentence otherwise.
@Suite("multipart/form-data")
struct FormDataTests {
    static func read(_ contentType: String?, _ body: String) throws(QueryError) -> FormData {
        try FormData(Array(body.utf8), contentType: contentType, names: ["route", "fixes"])
    }

    @Test("curl's form: parts by name with their file names, bytes exactly as sent, CRLF inside kept")
    func curl() throws {
        let form = try Self.read(
            "multipart/form-data; boundary=------------------------d74496d66958873e",
            "--------------------------d74496d66958873e\r\nContent-Disposition: form-data; name=\"route\"; filename=\"ride.gpx\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n<gpx>\r\n</gpx>\r\n"
                + "--------------------------d74496d66958873e\r\nContent-Disposition: form-data; name=\"fixes\"\r\n\r\nlat,lon\n1,2\n\r\n"
                + "--------------------------d74496d66958873e--\r\n")
        #expect(form.parts.map(\.name) == ["route", "fixes"])
        #expect(form["route"]?.fileName == "ride.gpx" && form["fixes"]?.fileName == nil)
        #expect(form["route"]?.bytes == Array("<gpx>\r\n</gpx>".utf8))
        #expect(form["fixes"]?.bytes == Array("lat,lon\n1,2\n".utf8))
    }

    @Test("a quoted boundary, a preamble, padding after a boundary, unquoted names and escaped file names")
    func quirks() throws {
        let form = try Self.read(
            "Multipart/Form-Data; charset=utf-8; boundary=\"x y\"",
            "ignored\r\n--x y  \r\ncontent-disposition: form-data; name=fixes; filename=\"a\\\"b;c.csv\"\r\n\r\nlat,lon\r\n--x y--")
        #expect(form.parts.map(\.name) == ["fixes"])
        #expect(form["fixes"]?.fileName == "a\"b;c.csv")
        #expect(form["fixes"]?.bytes == Array("lat,lon".utf8))
    }

    @Test("an escape is a byte's business: a backslash before a combining accent escapes the accent, not a character")
    func escapesAreBytes() throws {
        let form = try Self.read(
            "multipart/form-data; boundary=b",
            "--b\r\nContent-Disposition: form-data; name=\"route\"; filename=\"a\\\u{301}\\\"b\"\r\n\r\nx\r\n--b--")
        #expect(form["route"]?.fileName == "a\u{301}\"b")
    }

    @Test(
        "what is not such a form is refused, naming the problem",
        arguments: [
            (nil, "", "send the route and fixes as multipart/form-data"),
            ("application/json", "{}", "not multipart/form-data"),
            ("multipart/form-data; boundary=", "", "1 to 70"),
            ("multipart/form-data; boundary=" + String(repeating: "b", count: 71), "", "1 to 70"),
            ("multipart/form-data; boundary=b", "no boundary here", "holds no boundary"),
            ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--", "no Content-Disposition name"),
            ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: attachment; name=\"route\"\r\n\r\nx\r\n--b--", "not form-data"),
            ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"route\"\r\n\r\nx", "no closing boundary"),
            ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"route\"", "headers do not end"),
            ("multipart/form-data; boundary=b", "--bx\r\n", "followed by more than spaces"),
        ] as [(String?, String, String)])
    func refused(contentType: String?, body: String, problem: String) {
        #expect {
            try Self.read(contentType, body)
        } throws: { error in
            guard let error = error as? QueryError else { return false }
            return error.parameter == "body" && error.message.contains(problem)
        }
    }
}
