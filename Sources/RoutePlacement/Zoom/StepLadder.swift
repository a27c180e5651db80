import RouteModel

/// The steps distance markers read in, counted in intervals: 1, 2, 5, 10, 20, 50, 100 … A map reads
/// `200, 205, 210` or `200, 210, 220`, never `203, 206, 210`.
public enum StepLadder {
    /// The largest step on the ladder with a multiple in `range` (of positive counts): where a
    /// stage's count starts splitting.
    public static func coarsest(in range: ClosedRange<Int>) -> Int {
        var best = 1
        var step = 1
        while let next = up(from: step), next <= range.upperBound {
            step = next
            if range.upperBound / step * step >= range.lowerBound { best = step }
        }
        return best
    }

    /// The next finer step that divides `step` (10 → 5, 20 → 10, 50 → 10, 100 → 50, 5 → 1, 2 → 1),
    /// nil for 1.
    public static func finer(_ step: Int) -> Int? {
        guard step > 1 else { return nil }
        var power = 1
        while power <= step / 10 { power *= 10 }
        // step is 1, 2 or 5 times power.
        return step == power ? power / 2 : power
    }

    /// Whether `step` is on the ladder.
    public static func contains(_ step: Int) -> Bool {
        guard step >= 1 else { return false }
        var power = 1
        while power <= step / 10 { power *= 10 }
        return step == power || step == 2 * power || step == 5 * power
    }

    /// The next step up the ladder, nil past what an Int holds.
    static func up(from step: Int) -> Int? {
        var power = 1
        while power <= step / 10 { power *= 10 }
        let (next, overflow) = (step == 2 * power ? 5 : 2).multipliedReportingOverflow(by: step == 2 * power ? power : step)
        return overflow ? nil : next
    }
}
