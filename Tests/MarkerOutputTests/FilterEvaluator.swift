import Foundation

/// Evaluates the subset of MapLibre expressions the style layer uses, at an integer zoom.
struct FilterEvaluator {
    struct Unsupported: Error { let expression: String }

    let zoom: Int
    let properties: [String: Any]
    var variables: [String: Any] = [:]

    init(zoom: Int, properties: [String: Any]) {
        self.zoom = zoom
        self.properties = properties
    }

    func truthy(_ expression: Any) throws -> Bool { try evaluate(expression) as? Bool ?? false }

    func evaluate(_ expression: Any) throws -> Any {
        guard let list = expression as? [Any], let op = list.first as? String else { return expression }
        let args = Array(list.dropFirst())
        func number(_ value: Any) throws -> Double {
            if let int = value as? Int { return Double(int) }
            if let double = value as? Double { return double }
            throw Unsupported(expression: "\(value)")
        }
        switch op {
        case "zoom": return Double(zoom)
        case "get": return properties[args[0] as! String] ?? NSNull()
        case "var": return variables[args[0] as! String]!
        case "any": return try args.contains { try truthy($0) }
        case "all": return try args.allSatisfy { try truthy($0) }
        case "==", "!=":
            let (a, b) = (try evaluate(args[0]), try evaluate(args[1]))
            let equal: Bool = if let x = a as? String, let y = b as? String { x == y } else { (try? number(a)) == (try? number(b)) }
            return op == "==" ? equal : !equal
        case ">": return try number(evaluate(args[0])) > number(evaluate(args[1]))
        case ">=": return try number(evaluate(args[0])) >= number(evaluate(args[1]))
        case "*": return try number(evaluate(args[0])) * number(evaluate(args[1]))
        // MapLibre rounds half away from zero, as Swift's `rounded()` does.
        case "round": return try number(evaluate(args[0])).rounded()
        case "%": return try number(evaluate(args[0])).truncatingRemainder(dividingBy: number(evaluate(args[1])))
        case "step":
            let input = try number(evaluate(args[0]))
            var output = try evaluate(args[1])
            var index = 2
            while index + 1 < args.count, try number(args[index]) <= input {
                output = try evaluate(args[index + 1])
                index += 2
            }
            return output
        case "let":
            var inner = self
            inner.variables[args[0] as! String] = try evaluate(args[1])
            return try inner.evaluate(args[2])
        default:
            throw Unsupported(expression: op)
        }
    }
}
