import Foundation

/// What a timed object shows outside its active duration (`CAMediaTiming.fillMode`).
///
/// Inside the active duration the fill mode changes nothing. Before it (parent time earlier than
/// `beginTime`), `.backwards` and `.both` hold the value the object has at the start of its active
/// duration; after it, `.forwards` and `.both` hold the value it has at the end. `.removed`, the default,
/// contributes nothing outside the active duration: the layer shows its model value.
///
/// The raw values are Core Animation's (`kCAFillModeForwards` is `"forwards"`, …). A raw value that names
/// none of the four behaves as `.removed`.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Nothing is shown outside the active duration. The default.
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The final value is held after the active duration ends.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The initial value is shown before the active duration begins.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both `.forwards` and `.backwards`.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    /// Whether the value at the start of the active duration is shown before it begins.
    package var fillsBackwards: Bool { self == .backwards || self == .both }

    /// Whether the value at the end of the active duration is held after it ends.
    package var fillsForwards: Bool { self == .forwards || self == .both }
}
