import ArgumentParser
import MarkerSpec

extension SpecError {
    /// The same problem, named by the flag that sets the field: `--distance must not be negative (got -5)`.
    var validationError: ValidationError {
        switch field {
        case .kind: ValidationError("--start/--end: the marker kind \(problem)")
        case .distance: ValidationError("--distance \(problem)")
        case .unit: ValidationError("--unit \(problem)")
        case .locale: ValidationError("--locale \(problem)")
        case .interval: ValidationError("--interval \(problem)")
        case .scale: ValidationError("--scale \(problem)")
        case .labels: ValidationError("--labels \(problem)")
        case .theme: ValidationError("--day/--dark: the theme \(problem)")
        case .palette, .colour: ValidationError("--palette: \(description)")
        case .icon: ValidationError("--icon \(problem)")
        case .text: ValidationError("--text \(problem)")
        case .title: ValidationError("--title \(problem)")
        case .line: ValidationError("--line \(problem)")
        case .badge: ValidationError("--badge \(problem)")
        }
    }
}
