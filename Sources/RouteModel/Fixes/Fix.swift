/// One position reported by a GPS receiver, with what it may know besides.
public struct Fix: Sendable, Equatable {
    /// Where the receiver says it is.
    public var coordinate: Coordinate
    /// Seconds since 1970-01-01T00:00:00Z, if known.
    public var time: Double?
    /// The receiver's horizontal accuracy in metres (a phone's: the radius it is 68% sure of), if known.
    public var accuracy: Double?
    /// Metres per second over the ground, if known.
    public var speed: Double?

    public init(coordinate: Coordinate, time: Double? = nil, accuracy: Double? = nil, speed: Double? = nil) {
        self.coordinate = coordinate
        self.time = time
        self.accuracy = accuracy
        self.speed = speed
    }

    /// The fix as given, or why it cannot be followed: NaN or out-of-range numbers, or a time before
    /// the last fix's.
    package func checked(after previousTime: Double?) throws(FixError) -> Fix {
        let (latitude, longitude) = (coordinate.latitude, coordinate.longitude)
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw FixError("latitude \(latitude) is not a number from -90 to 90")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw FixError("longitude \(longitude) is not a number from -180 to 180")
        }
        if let accuracy, !(accuracy.isFinite && accuracy >= 0 && accuracy <= 100_000) {
            throw FixError("accuracy \(accuracy) is not a number of metres from 0 to 100000")
        }
        if let speed, !(speed.isFinite && speed >= 0 && speed <= 1_000) {
            throw FixError("speed \(speed) is not a number of metres per second from 0 to 1000")
        }
        if let time {
            guard time.isFinite, abs(time) < 1e11 else { throw FixError("time \(time) is not a time") }
            if let previousTime, time < previousTime {
                throw FixError("time goes backwards: \(FixTime.iso8601(time)) comes after \(FixTime.iso8601(previousTime))")
            }
        }
        return self
    }
}

/// Why a fix cannot be followed, in one line.
public struct FixError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One fix as read from its line of input, or why that line cannot be one.
public struct FixRecord: Sendable, Equatable {
    /// The 1-based line the fix was read from.
    public var line: Int
    public var fix: Result<Fix, FixError>

    public init(line: Int, fix: Result<Fix, FixError>) {
        self.line = line
        self.fix = fix
    }
}
