public import MarkerSpec
import MarkerFiles

extension PinRequest {
    /// What `/v1/pin.png` understands.
    public static let queryParameters = ["icon", "text", "color", "theme", "scale"]

    /// The pin a `/v1/pin.png` query asks for: `icon` (a built-in icon) or `text` (1 to 3
    /// characters), `color` (`#RRGGBB`; the icon's category colour by default), `theme` (day),
    /// `scale` (2). A user's SVG icon is not taken by query.
    public init(query: QueryParameters) throws(QueryError) {
        let colour = try Self.colour(query, "color")
        let theme = try query.theme()
        let scale = try query.scale()
        let icon = query["icon"]
        let text = query["text"]
        guard icon != nil || text != nil else { throw QueryError.badParameter("icon", "required: give icon (\(PinIcon.choices)) or text") }
        guard icon == nil || text == nil else { throw QueryError.badParameter("text", "and icon both say what the pin shows; give one") }
        do throws(SpecError) {
            let pin = if let icon { Pin(icon: try PinIcon(named: icon), colour: colour) } else { try Pin(text: text ?? "", colour: colour) }
            self = try PinRequest(pin: pin, theme: theme, scale: scale)
        } catch {
            throw QueryError(error)
        }
    }

    /// A CSS colour by name, or nil when absent.
    static func colour(_ query: QueryParameters, _ name: String) throws(QueryError) -> Colour? {
        guard let text = query[name] else { return nil }
        do { return try Colour(css: text) } catch { throw QueryError.badParameter(name, error.problem) }
    }
}

extension CalloutRequest {
    /// What `/v1/callout.png` understands; `line` may repeat.
    public static let queryParameters = ["title", "line", "badge", "badgeColor", "theme", "scale"]

    /// The callout a `/v1/callout.png` query asks for: `title` (required), `line` (up to 6,
    /// repeated), `badge`, `badgeColor`, `theme` (day), `scale` (2); `photo` from a request's body.
    public init(query: QueryParameters, photo: [UInt8]? = nil) throws(QueryError) {
        guard let title = query["title"] else { throw QueryError.badParameter("title", "required") }
        let badgeColour = try PinRequest.colour(query, "badgeColor")
        let theme = try query.theme()
        let scale = try query.scale()
        do throws(SpecError) {
            var badge: Callout.Badge? = nil
            if let text = query["badge"] { badge = try Callout.Badge(text: text, colour: badgeColour) }
            let callout = try Callout(title: title, lines: query.all("line"), badge: badge, photo: photo)
            self = try CalloutRequest(callout: callout, theme: theme, scale: scale)
        } catch {
            throw QueryError(error)
        }
    }
}

extension PictureRequest {
    /// The query `/v1/pin.png` or `/v1/callout.png` reads back into this request (`init(query:)`),
    /// every value percent-encoded; nil for what a query cannot carry (an SVG icon, a photo).
    public var query: String? {
        var pairs: [(String, String)] = []
        switch self {
        case .pin(let request):
            switch request.pin.face {
            case .icon(let icon): pairs.append(("icon", icon.rawValue))
            case .text(let text): pairs.append(("text", text))
            case .svg: return nil
            }
            pairs.append(("color", request.pin.colour.hex))
        case .callout(let request):
            guard request.callout.photo == nil else { return nil }
            pairs.append(("title", request.callout.title))
            for line in request.callout.lines { pairs.append(("line", line)) }
            if let badge = request.callout.badge {
                pairs.append(("badge", badge.text))
                pairs.append(("badgeColor", badge.colour.hex))
            }
        }
        pairs.append(("theme", theme.name))
        pairs.append(("scale", "\(scale)"))
        return pairs.map { "\($0.0)=\(PercentEncoding.encode($0.1, keeping: PercentEncoding.unreserved))" }.joined(separator: "&")
    }
}
