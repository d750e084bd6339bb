import Foundation

// Layout: when a layer lays out its sublayers, and how (delegate, layout manager, autoresizing).
//
// Input: `setNeedsLayout()`, and bounds size changes (which call it). Output: `layoutSublayers()` runs on
// every marked layer, a layer before its sublayers, at the next commit (before display and before the
// commit packet is built, so the packet carries the laid-out frames) or earlier through
// `layoutIfNeeded()`.
//
// The "needs layout" flag is a sticky bit of `pendingChanges` (no extra storage); marked layers are also
// queued in `LayoutQueue` so a layout pass costs O(marked layers × depth), never O(tree). The layout
// properties (`layoutManager`, `constraints`, `autoresizingMask`) live in sparse storage under
// `.layout(_)` keys: they are not animatable, not sent to the renderer and not recorded for the commit.
//
// Autoresizing (macOS Core Animation's, after AppKit): when a layer's bounds size changes and one of its
// sublayers has an `autoresizingMask`, `resizeSublayers(withOldSize:)` runs at once, and each sublayer's
// `resize(withOldSuperlayerSize:)` shares the size change of each axis among the flexible parts of that
// axis (min margin, size, max margin) in proportion to their current lengths.

/// How a layer is resized when the bounds of its superlayer change: Core Animation's
/// `CAAutoresizingMask`.
///
/// Margins are by coordinate: with LayerKit's y-down geometry `layerMinYMargin` is the top margin (on
/// macOS, where y grows up, it is the bottom one).
public struct CAAutoresizingMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Not resized (the empty mask).
    public static let layerNotSizable: CAAutoresizingMask = []
    /// The space between the superlayer's min-x edge and the layer's is flexible.
    public static let layerMinXMargin = CAAutoresizingMask(rawValue: 1 << 0)
    /// The layer's width is flexible.
    public static let layerWidthSizable = CAAutoresizingMask(rawValue: 1 << 1)
    /// The space between the layer's max-x edge and the superlayer's is flexible.
    public static let layerMaxXMargin = CAAutoresizingMask(rawValue: 1 << 2)
    /// The space between the superlayer's min-y edge and the layer's is flexible.
    public static let layerMinYMargin = CAAutoresizingMask(rawValue: 1 << 3)
    /// The layer's height is flexible.
    public static let layerHeightSizable = CAAutoresizingMask(rawValue: 1 << 4)
    /// The space between the layer's max-y edge and the superlayer's is flexible.
    public static let layerMaxYMargin = CAAutoresizingMask(rawValue: 1 << 5)
}

/// The layout properties kept in a layer's sparse storage.
package enum LayoutStorageKey: Hashable, Sendable {
    case layoutManager, constraints, autoresizingMask
}

extension CALayer {
    // MARK: - Layout properties

    /// The object that lays out the sublayers when the delegate does not. Default nil. Setting it marks
    /// the layer as needing layout.
    public var layoutManager: CALayoutManager? {
        get { storage[.layout(.layoutManager)] as? CALayoutManager }
        set {
            let old = layoutManager
            storage[.layout(.layoutManager)] = newValue
            if old !== newValue { setNeedsLayout() }
        }
    }

    /// The constraints a `CAConstraintLayoutManager` set on the superlayer applies to this layer. nil when
    /// there are none. Setting them marks the superlayer as needing layout.
    public var constraints: [CAConstraint]? {
        get { storage[.layout(.constraints)] as? [CAConstraint] }
        set {
            storage[.layout(.constraints)] = newValue?.isEmpty == false ? newValue : nil
            storedSuperlayer?.setNeedsLayout()
        }
    }

    /// Adds `c` to the layer's constraints.
    public func addConstraint(_ c: CAConstraint) {
        constraints = (constraints ?? []) + [c]
    }

    /// How the layer is resized when its superlayer's bounds size changes. Default `layerNotSizable`.
    public var autoresizingMask: CAAutoresizingMask {
        get { storage[.layout(.autoresizingMask)] as? CAAutoresizingMask ?? [] }
        set { storage[.layout(.autoresizingMask)] = newValue.isEmpty ? nil : newValue }
    }

    // MARK: - Invalidating and laying out

    /// Marks the layer as needing layout: its `layoutSublayers()` runs at the next commit or
    /// `layoutIfNeeded()`. When the layout was valid, the layout manager's `invalidateLayout(of:)` is told.
    /// Presentation copies never need layout.
    public func setNeedsLayout() {
        guard !isPresentationCopy, !pendingChanges.contains(.needsLayout) else { return }
        pendingChanges.formUnion(.needsLayout)
        LayoutQueue.current.enqueue(self)
        layoutManager?.invalidateLayout(of: self)
    }

    /// Whether the layer is marked as needing layout. Calling `layoutSublayers()` directly does not clear
    /// it; a layout pass (a commit or `layoutIfNeeded()`) does.
    public func needsLayout() -> Bool {
        pendingChanges.contains(.needsLayout)
    }

    /// Lays out now what would otherwise wait for the commit: from the topmost ancestor (this layer
    /// included) that needs layout, every layer beneath it that needs layout, each before its sublayers.
    /// With no such ancestor, the marked layers of this layer's subtree.
    public func layoutIfNeeded() {
        guard !isPresentationCopy else { return }
        var top = self
        var current = self
        while let parent = current.storedSuperlayer ?? current.maskOwner {
            if parent.needsLayout() { top = parent }
            current = parent
        }
        LayoutQueue.current.layOut(subtreeOf: top)
    }

    /// `layoutSublayers()`'s behaviour: the delegate's `layoutSublayers(of:)` when there is a delegate
    /// (whose default asks the layout manager), else the layout manager's.
    package func defaultLayoutSublayers() {
        if let delegate {
            delegate.layoutSublayers(of: self)
        } else {
            layoutManager?.layoutSublayers(of: self)
        }
    }

    /// One step of a layout pass: clears the flag (so the layout may mark the layer again), then lays out.
    package func layOutMarkedLayer() {
        pendingChanges.remove(.needsLayout)
        layoutSublayers()
    }

    /// The number of superlayers (and mask owners) above the layer.
    package var layoutDepth: Int {
        var depth = 0
        var current = self
        while let parent = current.storedSuperlayer ?? current.maskOwner {
            depth += 1
            current = parent
        }
        return depth
    }

    // MARK: - Autoresizing

    /// Called by the `bounds` setter when the size changed: marks the layer as needing layout, and lets
    /// autoresizing sublayers follow at once.
    package func boundsSizeDidChange(from oldSize: CGSize) {
        guard !isPresentationCopy else { return }
        setNeedsLayout()
        if storedSublayers.contains(where: { !$0.autoresizingMask.isEmpty }) {
            resizeSublayers(withOldSize: oldSize)
        }
    }

    /// `resizeSublayers(withOldSize:)`'s behaviour: `resize(withOldSuperlayerSize:)` on each sublayer.
    package func defaultResizeSublayers(withOldSize size: CGSize) {
        for sublayer in storedSublayers {
            sublayer.resize(withOldSuperlayerSize: size)
        }
    }

    /// `resize(withOldSuperlayerSize:)`'s behaviour: applies `autoresizingMask` to the frame.
    ///
    /// Margins are measured from the superlayer's bounds: min margin = frame.minX − bounds.minX, max
    /// margin = old width − (frame.maxX − bounds.minX). The width change Δ goes to the flexible parts
    /// (min margin, width, max margin) in proportion to their lengths, part += Δ × part / Σ flexible
    /// parts; when those lengths sum to zero, or one is negative, Δ is shared equally. With no flexible
    /// part the frame stays (the max margin absorbs Δ). Sizes stop at zero. Likewise for y.
    package func defaultResize(withOldSuperlayerSize oldSize: CGSize) {
        let mask = autoresizingMask
        guard !mask.isEmpty, let superlayer = storedSuperlayer else { return }
        let container = superlayer.storedBounds
        let old = frame
        let x = Self.resizeAxis(
            min: old.minX - container.minX, size: old.width, max: oldSize.width - (old.maxX - container.minX),
            delta: container.width - oldSize.width,
            flexible: (mask.contains(.layerMinXMargin), mask.contains(.layerWidthSizable), mask.contains(.layerMaxXMargin)))
        let y = Self.resizeAxis(
            min: old.minY - container.minY, size: old.height, max: oldSize.height - (old.maxY - container.minY),
            delta: container.height - oldSize.height,
            flexible: (mask.contains(.layerMinYMargin), mask.contains(.layerHeightSizable), mask.contains(.layerMaxYMargin)))
        let resized = CGRect(x: container.minX + x.min, y: container.minY + y.min, width: x.size, height: y.size)
        if resized != old { frame = resized }
    }

    /// One axis of autoresizing: the new min margin and size.
    package static func resizeAxis(min: CGFloat, size: CGFloat, max: CGFloat, delta: CGFloat,
                                   flexible: (min: Bool, size: Bool, max: Bool)) -> (min: CGFloat, size: CGFloat) {
        let parts = [(flexible.min, min), (flexible.size, size), (flexible.max, max)].filter(\.0).map(\.1)
        guard !parts.isEmpty, delta != 0 else { return (min, size) }
        let total = parts.reduce(0, +)
        let proportional = total > 0 && parts.allSatisfy { $0 >= 0 }
        func share(_ part: CGFloat) -> CGFloat {
            proportional ? delta * part / total : delta / CGFloat(parts.count)
        }
        let newMin = flexible.min ? min + share(min) : min
        let newSize = flexible.size ? Swift.max(0, size + share(size)) : size
        return (newMin, newSize)
    }
}
