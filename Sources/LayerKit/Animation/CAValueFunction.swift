import Foundation

/// The names of Core Animation's value functions.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let rotateX = Self(rawValue: "rotateX")
    public static let rotateY = Self(rawValue: "rotateY")
    public static let rotateZ = Self(rawValue: "rotateZ")
    /// Three values: x, y and z scale.
    public static let scale = Self(rawValue: "scale")
    public static let scaleX = Self(rawValue: "scaleX")
    public static let scaleY = Self(rawValue: "scaleY")
    public static let scaleZ = Self(rawValue: "scaleZ")
    /// Three values: x, y and z translation.
    public static let translate = Self(rawValue: "translate")
    public static let translateX = Self(rawValue: "translateX")
    public static let translateY = Self(rawValue: "translateY")
    public static let translateZ = Self(rawValue: "translateZ")
}

/// Turns the numbers a property animation interpolates into the transform it sets: with a rotateZ
/// value function, a `transform` animation from 0 to 4π interpolates the angle (two full turns) instead
/// of the matrices (which would be equal). Core Animation's `CAValueFunction`.
public final class CAValueFunction: Sendable {
    public let name: CAValueFunctionName

    /// The function named `name`, or nil for a name Core Animation does not define.
    public init?(name: CAValueFunctionName) {
        let known: Set<String> = ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                  "translate", "translateX", "translateY", "translateZ"]
        guard known.contains(name.rawValue) else { return nil }
        self.name = name
    }

    /// The transform for an interpolated value (a number, or three numbers for scale/translate).
    package func transform(for value: AnimatableValue) -> CATransform3D? {
        let numbers: [Double]
        switch value {
        case .scalar(let v): numbers = [v]
        case .numbers(let values): numbers = values
        default: return nil
        }
        guard let first = numbers.first else { return nil }
        let v = CGFloat(first)
        switch name {
        case .rotateX: return CATransform3DMakeRotation(v, 1, 0, 0)
        case .rotateY: return CATransform3DMakeRotation(v, 0, 1, 0)
        case .rotateZ: return CATransform3DMakeRotation(v, 0, 0, 1)
        case .scaleX: return CATransform3DMakeScale(v, 1, 1)
        case .scaleY: return CATransform3DMakeScale(1, v, 1)
        case .scaleZ: return CATransform3DMakeScale(1, 1, v)
        case .translateX: return CATransform3DMakeTranslation(v, 0, 0)
        case .translateY: return CATransform3DMakeTranslation(0, v, 0)
        case .translateZ: return CATransform3DMakeTranslation(0, 0, v)
        case .scale:
            guard numbers.count == 3 else { return CATransform3DMakeScale(v, v, v) }
            return CATransform3DMakeScale(CGFloat(numbers[0]), CGFloat(numbers[1]), CGFloat(numbers[2]))
        case .translate:
            guard numbers.count == 3 else { return nil }
            return CATransform3DMakeTranslation(CGFloat(numbers[0]), CGFloat(numbers[1]), CGFloat(numbers[2]))
        default: return nil
        }
    }
}
