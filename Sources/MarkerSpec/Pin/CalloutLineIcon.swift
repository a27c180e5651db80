/// The small icons a callout's detail line may begin with (MARKER.md: location, date, mail, phone,
/// distance, time), written `[phone] +386 1 234 567` at the line's start.
public enum CalloutLineIcon: String, Sendable, Hashable, CaseIterable {
    case location, date, mail, phone, distance, time

    /// A line's icon and its text: `[name] ` at its start names one of the icons; anything else is
    /// all text (`[note] x` stays as written).
    public static func split(_ line: String) -> (icon: CalloutLineIcon?, text: String) {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
            let icon = CalloutLineIcon(rawValue: String(line[line.index(after: line.startIndex)..<close])),
            line[line.index(after: close)...].first == " "
        else { return (nil, line) }
        let text = line[line.index(after: close)...].drop(while: { $0 == " " })
        return (icon, text.isEmpty ? " " : String(text))
    }
}
