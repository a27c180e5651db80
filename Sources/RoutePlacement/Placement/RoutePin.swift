public import MarkerSpec
public import RouteModel

/// One of a route's points of interest on the map: the pin that marks it, the callout a tap on it
/// opens, and the zooms the pin shows at.
public struct RoutePin: Sendable, Equatable {
    /// What the pin shows: its icon and colour.
    public var pin: Pin
    /// What its callout says: the waypoint's name and description.
    public var callout: Callout
    /// Where the pin's tip goes.
    public var coordinate: Coordinate
    /// The waypoint's 1-based number among the route's, in the file's order.
    public var number: Int
    /// The zooms, ascending, at which the pin shows (see `RouteMarker.zooms`).
    public var zooms: [Int]
    /// The smallest of `zooms`; `ScreenPlacement.never` if there are none.
    public var minzoom: Int
    /// From which zoom the pin shows on a map turned to any bearing: never before `minzoom`.
    public var minzoomTurned: Int

    /// The pin and callout of waypoint `number`, showing at `zooms` until placed.
    ///
    /// Its icon is the one its symbol names (`PinIcon(symbol:)`), in `marker-color` where the file
    /// gives one; a waypoint whose symbol names no built-in icon gets the info icon in the neutral
    /// colour. Its callout's title is its name (else its symbol, else `Waypoint 7`), its one detail
    /// line its description; text past what a callout takes is cut with "…".
    /// - Returns: the pin, and a warning for a colour that could not be read (the pin then keeps its icon's).
    public static func make(_ waypoint: Waypoint, number: Int, zooms: [Int]) -> (pin: RoutePin, warning: String?) {
        let icon = waypoint.symbol.flatMap(PinIcon.init(symbol:))
        var warning: String? = nil
        var colour: Colour? = nil
        if let written = waypoint.colour, !written.allSatisfy(\.isWhitespace) {
            let trimmed = written.trimmingSpaces
            let css = trimmed.hasPrefix("#") || trimmed.contains("(") ? trimmed : "#" + trimmed
            do {
                colour = try Colour(css: css).withAlpha(1)
            } catch {
                warning = "waypoint \(number): marker-color \(String(written.prefix(40)).debugDescription) is not a colour; its pin keeps its icon's"
            }
        }
        let pin = icon.map { Pin(icon: $0, colour: colour) } ?? Pin(icon: .info, colour: colour ?? Pin.neutralColour)
        let title = [waypoint.name, waypoint.symbol].compactMap { $0 }.first { !$0.allSatisfy(\.isWhitespace) } ?? "Waypoint \(number)"
        // Garmin writes the name again as the description; said once is enough.
        let lines = [waypoint.description].compactMap { $0 }.filter {
            !$0.allSatisfy(\.isWhitespace) && $0.trimmingSpaces.lowercased() != title.trimmingSpaces.lowercased()
        }
        let callout: Callout
        do {
            callout = try Callout(
                title: cut(title, to: Callout.limits.titleCharacters), lines: lines.map { cut($0, to: Callout.limits.lineCharacters) })
        } catch {
            // Only text made of nothing but control characters gets here: those read as blank.
            callout = (try? Callout(title: "Waypoint \(number)")) ?? Self.fallbackCallout
        }
        let minzoom = zooms.min() ?? ScreenPlacement.never
        return (
            RoutePin(pin: pin, callout: callout, coordinate: waypoint.coordinate, number: number, zooms: zooms, minzoom: minzoom, minzoomTurned: minzoom),
            warning
        )
    }

    /// A title that always passes `Callout`'s checks.
    private static let fallbackCallout: Callout = {
        guard let callout = try? Callout(title: "Waypoint") else { preconditionFailure("a plain title is a callout's") }
        return callout
    }()

    /// Shows the pin at every zoom from `minzoom` on, and on a turned map from `turnedFrom`.
    public mutating func show(from minzoom: Int, turnedFrom: Int? = nil) {
        let shown = RouteMarker.Shown(from: minzoom, turnedFrom: turnedFrom)
        (zooms, self.minzoom, minzoomTurned) = (shown.zooms, shown.minzoom, shown.minzoomTurned)
    }

    /// `text` within `limit` characters: cut one short and "…" added if longer.
    static func cut(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

extension String {
    /// Without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
