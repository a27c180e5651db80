import MarkerSpec
import Testing

@Suite("Label lists")
struct LabelListTests {
    @Test(
        "numbers and ranges list their readings in order, each once, ranges stepping by the interval",
        arguments: [
            ("0-3", "1", [0.0, 1, 2, 3]), ("5", "1", [5]), ("0-10,15,20-22", "1", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 21, 22]),
            ("0-2", "0.5", [0, 0.5, 1, 1.5, 2]), ("0-10", "5", [0, 5, 10]), ("1-12", "5", [1, 6, 11]), ("7.5", "1", [7.5]),
            ("3,1-3", "1", [3, 1, 2]), ("100000", "1", [100_000]), ("0-0.3", "0.1", [0, 0.1, 0.2, 0.3]),
        ])
    func readings(text: String, interval: String, expected: [Double]) throws {
        #expect(try LabelList(text, interval: MarkerInterval(interval)).readings == expected)
    }

    @Test(
        "anything else is refused in one line naming the item",
        arguments: [
            ("", "numbers and ranges"), ("a-b", "'a-b'"), ("5-2", "runs backwards"), ("1,,2", "''"), ("-5", "'-5'"),
            ("7.25", "one decimal"), ("1e3", "'1e3'"), ("0-100001", "more than 100000"), ("NaN", "'NaN'"), ("0-5-9", "'0-5-9'"),
            ("0-10000", "more than 10000 labels"), ("1234567", "'1234567'"), ("0-5000,0-5000", "more than 10000 labels"),
        ])
    func refused(text: String, reason: String) {
        #expect {
            try LabelList(text)
        } throws: { error in
            guard let error = error as? SpecError else { return false }
            return error.field == .labels && error.description.contains(reason) && !error.description.contains("\n")
        }
    }
}
