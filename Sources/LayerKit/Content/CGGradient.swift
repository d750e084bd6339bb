import Foundation

// CGGradient: colors at locations 0…1, with Core Graphics' names.
//
// Contract
//   Input:  colors (CGColor, or raw components in a color space) and optional locations.
//   Output: `color(at:)`: the straight (not premultiplied) RGBA at a gradient location, interpolated
//           linearly between the neighbouring stops *before* premultiplying, as Core Graphics does (a
//           gradient from transparent black to opaque white passes through translucent gray).
//           Before the first location the first color holds; after the last, the last.
//   Drawing: CGContext+Gradient.swift.

/// Where `drawLinearGradient`/`drawRadialGradient` paint beyond the gradient's ends.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Extend the start color before the start point (linear) or inside/behind the start circle (radial).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    /// Extend the end color past the end point (linear) or outside the end circle (radial).
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}

/// An immutable gradient: a sequence of colors at locations from 0 to 1.
public final class CGGradient: Sendable {
    /// One color stop: its location and straight sRGB components.
    struct Stop: Equatable {
        var location: CGFloat
        var red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat
    }

    /// The space the gradient was made in (sRGB when none was given).
    public let colorSpace: CGColorSpace?
    /// The stops, sorted by location (stable for equal locations: a hard edge).
    let stops: [Stop]

    /// A gradient from `colors`, at `locations` (each clamped to 0…1), or, when `locations` is nil, spread
    /// evenly from 0 (first color) to 1 (last). Nil when `colors` is empty, when `locations` has a
    /// different count, or when a location is not finite.
    ///
    /// Apple's `colors` is a `CFArray`; LayerKit takes `[CGColor]` (drop the `as CFArray`). Gray colors
    /// are widened to RGB.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty else { return nil }
        let locs: [CGFloat]
        if let locations {
            guard locations.count == colors.count, locations.allSatisfy(\.isFinite) else { return nil }
            locs = locations
        } else {
            locs = colors.count == 1 ? [0] : (0 ..< colors.count).map { CGFloat($0) / CGFloat(colors.count - 1) }
        }
        var made: [Stop] = []
        for (color, location) in zip(colors, locs) {
            let c = color.rgba
            made.append(Stop(location: min(max(location, 0), 1), red: c.r, green: c.g, blue: c.b, alpha: c.a))
        }
        self.colorSpace = space ?? CGColorSpaceCreateDeviceRGB()
        self.stops = CGGradient.sorted(made)
    }

    /// A gradient from `count` colors of `space.numberOfComponents + 1` components each (alpha last), at
    /// `count` locations (nil: evenly spaced). Nil for `count < 1` or non-finite locations.
    public convenience init?(colorSpace space: CGColorSpace, colorComponents: UnsafePointer<CGFloat>, locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count >= 1 else { return nil }
        let n = space.numberOfComponents + 1
        var colors: [CGColor] = []
        for i in 0 ..< count {
            guard let color = CGColor(colorSpace: space, components: colorComponents + i * n) else { return nil }
            colors.append(color)
        }
        let locs = locations.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
        self.init(colorsSpace: space, colors: colors, locations: locs)
    }

    private static func sorted(_ stops: [Stop]) -> [Stop] {
        stops.enumerated()
            .sorted { $0.element.location != $1.element.location ? $0.element.location < $1.element.location : $0.offset < $1.offset }
            .map(\.element)
    }

    /// The straight RGBA at location `t`: linear between the neighbouring stops, the end colors beyond them.
    func color(at t: CGFloat) -> (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let first = stops[0], last = stops[stops.count - 1]
        if t <= first.location { return (first.red, first.green, first.blue, first.alpha) }
        if t >= last.location { return (last.red, last.green, last.blue, last.alpha) }
        // The last stop at or before t, and the first after it.
        var i = 0
        while i + 1 < stops.count, stops[i + 1].location <= t { i += 1 }
        let lo = stops[i], hi = stops[i + 1]
        let span = hi.location - lo.location
        let f = span > 0 ? (t - lo.location) / span : 1
        return (
            lo.red + (hi.red - lo.red) * f,
            lo.green + (hi.green - lo.green) * f,
            lo.blue + (hi.blue - lo.blue) * f,
            lo.alpha + (hi.alpha - lo.alpha) * f
        )
    }
}
