import RouteModel

extension RouteCourse {
    /// Whether `along` is within `zone` metres of the end of a stage other than the last.
    func isNearStageEnd(_ along: Double, within zone: Double) -> Bool {
        stageStarts.dropFirst().contains { along >= $0 - zone && along <= $0 + zone }
    }
}
