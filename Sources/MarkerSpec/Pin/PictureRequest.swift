/// A pin or a callout: the pictures a route's map shows beside its markers.
public enum MapPicture: Sendable, Hashable {
    case pin(Pin)
    case callout(Callout)

    /// `pin` or `callout`, as `markers.geojson` and the manifest name the kind.
    public var kind: String {
        switch self {
        case .pin: "pin"
        case .callout: "callout"
        }
    }

    /// What its names say it shows: `pin-water`, `callout-water-stop`.
    public var label: String {
        switch self {
        case .pin(let pin): "pin-\(pin.nameLabel)"
        case .callout(let callout): "callout-\(callout.nameLabel)"
        }
    }
}

/// A pin or a callout to draw, in a theme at a scale.
public enum PictureRequest: Sendable, Hashable {
    case pin(PinRequest)
    case callout(CalloutRequest)

    /// `picture` in `theme` at `scale`.
    /// - Throws: `SpecError` for a scale markerpaint does not draw.
    public init(_ picture: MapPicture, theme: Theme, scale: MarkerScale) throws(SpecError) {
        switch picture {
        case .pin(let pin): self = .pin(try PinRequest(pin: pin, theme: theme, scale: scale))
        case .callout(let callout): self = .callout(try CalloutRequest(callout: callout, theme: theme, scale: scale))
        }
    }

    public var picture: MapPicture {
        switch self {
        case .pin(let request): .pin(request.pin)
        case .callout(let request): .callout(request.callout)
        }
    }

    public var theme: Theme {
        switch self {
        case .pin(let request): request.theme
        case .callout(let request): request.theme
        }
    }

    public var scale: MarkerScale {
        switch self {
        case .pin(let request): request.scale
        case .callout(let request): request.scale
        }
    }

    /// `pin-water-night@2x`: the name before its hash.
    public var baseName: String {
        switch self {
        case .pin(let request): request.baseName
        case .callout(let request): request.baseName
        }
    }
}
