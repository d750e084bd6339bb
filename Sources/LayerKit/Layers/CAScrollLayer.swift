import Foundation

/// How a scroll layer may scroll.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Neither direction.
    public static let none = Self(rawValue: "none")
    /// Horizontally only.
    public static let horizontally = Self(rawValue: "horizontally")
    /// Vertically only.
    public static let vertically = Self(rawValue: "vertically")
    /// Both directions (the default).
    public static let both = Self(rawValue: "both")
}

/// A layer that shows part of its sublayers: scrolling moves its `bounds.origin`, so the sublayers appear
/// to move the other way. Core Animation's `CAScrollLayer`; `masksToBounds` is on by default.
open class CAScrollLayer: CALayer {
    /// Which directions `scroll(to:)` may move in. Default `.both`.
    public var scrollMode: CAScrollLayerScrollMode {
        get { value(forKey: "scrollMode") as? CAScrollLayerScrollMode ?? .both }
        set { setValue(newValue, forKey: "scrollMode") }
    }

    public override init() {
        super.init()
        masksToBounds = true
    }

    public required init(layer: Any) {
        super.init(layer: layer)
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "scrollMode": return CAScrollLayerScrollMode.both
        default: return super.defaultValue(forKey: key)
        }
    }

    /// Scrolls so that `p` (in this layer's coordinates) is the top-left of the visible region, within
    /// the scroll mode's directions.
    open func scroll(to p: CGPoint) {
        var origin = bounds.origin
        if scrollMode == .horizontally || scrollMode == .both { origin.x = p.x }
        if scrollMode == .vertically || scrollMode == .both { origin.y = p.y }
        guard origin != bounds.origin else { return }
        bounds = CGRect(origin: origin, size: bounds.size)
    }

    /// Scrolls the least distance that makes `r` visible (its top-left wins when it is larger than the
    /// bounds), within the scroll mode's directions.
    open func scroll(to r: CGRect) {
        scroll(to: CALayer.originShowing(r, in: bounds))
    }
}

extension CALayer {
    /// The part of the layer not clipped by the bounds of scrolling (and masking) superlayers, in the
    /// layer's own coordinates.
    public var visibleRect: CGRect {
        var visible = bounds
        var layer: CALayer = self
        while let parent = layer.superlayer {
            if parent is CAScrollLayer || parent.masksToBounds {
                let parentBounds = parent.convert(parent.bounds, to: self)
                visible = visible.intersection(parentBounds)
                if visible.isNull { return .null }
            }
            layer = parent
        }
        return visible
    }

    /// Asks the nearest `CAScrollLayer` above to scroll so that `p` (in this layer's coordinates) is at its
    /// top-left.
    public func scroll(_ p: CGPoint) {
        guard let scroller = nearestScrollLayer else { return }
        scroller.scroll(to: scroller.convert(p, from: self))
    }

    /// Asks the nearest `CAScrollLayer` above to scroll the least distance that makes `r` (in this layer's
    /// coordinates) visible.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let scroller = nearestScrollLayer else { return }
        scroller.scroll(to: scroller.convert(r, from: self))
    }

    private var nearestScrollLayer: CAScrollLayer? {
        var current = superlayer
        while let layer = current {
            if let scroller = layer as? CAScrollLayer { return scroller }
            current = layer.superlayer
        }
        return nil
    }

    /// The bounds origin that shows `r` within `bounds` by moving the least: unchanged on an axis where
    /// `r` is already inside; `r`'s minimum where it does not fit.
    static func originShowing(_ r: CGRect, in bounds: CGRect) -> CGPoint {
        func axis(_ origin: CGFloat, _ length: CGFloat, _ minimum: CGFloat, _ maximum: CGFloat) -> CGFloat {
            if maximum - minimum > length || minimum < origin { return minimum }
            if maximum > origin + length { return maximum - length }
            return origin
        }
        return CGPoint(x: axis(bounds.minX, bounds.width, r.minX, r.maxX), y: axis(bounds.minY, bounds.height, r.minY, r.maxY))
    }
}
