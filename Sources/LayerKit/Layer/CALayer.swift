import Foundation

/// An object that manages image-based content and lets you animate it: Core Animation's `CALayer`.
///
/// Properties have Core Animation's names, defaults and semantics; they are grouped by concern in the
/// `CALayer+*.swift` files. Geometry follows iOS: origin top-left, y down.
///
/// Threading: a layer tree belongs to the thread that drives the app. Every property change is recorded
/// so the current transaction can commit exactly what changed (`LayerChangeLog`).
///
/// Memory: the four properties nearly every layer sets (bounds, position, backgroundColor, contents) are
/// stored inline; every other property is stored only when it differs from its default
/// (`LayerPropertyStorage`), which keeps a typical layer well under 256 bytes.
open class CALayer {
    /// Identity shared with the render tree.
    package let layerID: LayerID

    // Inline storage of the hot properties.
    package var storedBounds: CGRect = .zero
    package var storedPosition: CGPoint = .zero
    package var storedBackgroundColor: CGColor?
    package var storedContents: AnyObject?
    /// Everything else that differs from its default.
    package var storage = LayerPropertyStorage()
    /// The defaults of this layer's class (a subclass may override `defaultValue(forKey:)`).
    package var defaults: LayerDefaults

    // Hierarchy. The parent owns its children; back pointers are unowned and cleared when the owner
    // goes away, which avoids the side table a weak reference would allocate on every layer.
    package unowned(unsafe) var storedSuperlayer: CALayer?
    package var storedSublayers: [CALayer] = []

    /// Properties changed since the last commit (see `LayerChangeLog`), plus three sticky state bits
    /// (`hasBeenCommitted`, `isPresentationCopy`, `needsLayout`) kept here so a layer stays within its
    /// memory budget.
    package var pendingChanges = LayerPropertySet()
    /// The viewports of the hosts that show this layer as their root (`hostViewports`); nil until a
    /// host publishes one.
    package var storedHostViewports: HostViewports?

    /// Creates a layer with every property at its default.
    public init() {
        layerID = LayerID.next()
        defaults = LayerDefaults.builtin
        if type(of: self) != CALayer.self {
            defaults = LayerDefaults.table(for: type(of: self))
        }
    }

    /// Creates a copy of `layer`'s properties (not its sublayers, superlayer or animations). Core Animation
    /// uses this to make presentation copies; subclasses override it to copy their own stored members.
    public required init(layer: Any) {
        layerID = LayerID.next()
        defaults = LayerDefaults.builtin
        if type(of: self) != CALayer.self {
            defaults = LayerDefaults.table(for: type(of: self))
        }
        guard let other = layer as? CALayer else { return }
        storedBounds = other.storedBounds
        storedPosition = other.storedPosition
        storedBackgroundColor = other.storedBackgroundColor
        storedContents = other.storedContents
        storage = other.storage
        storage[.builtin(.animations)] = nil
        storage[.maskOwner] = nil
        storage[.modelLayer] = nil
    }

    deinit {
        if pendingChanges.contains(.hasBeenCommitted) && !pendingChanges.contains(.isPresentationCopy) {
            CommitDistributor.shared.recordRelease(of: layerID)
        }
        for sublayer in storedSublayers where sublayer.storedSuperlayer === self {
            sublayer.storedSuperlayer = nil
        }
        if let mask = storage[.builtin(.mask)] as? CALayer, mask.maskOwner === self {
            mask.maskOwner = nil
        }
        if let owner = maskOwner, owner.storage[.builtin(.mask)] as? CALayer === self {
            owner.storage[.builtin(.mask)] = nil
        }
    }

    /// The default value of the property named `key`, or nil. Subclasses override this to give their own
    /// properties (or built-in ones) different defaults, as in Core Animation.
    open class func defaultValue(forKey key: String) -> Any? {
        guard let property = LayerPropertyKey(key: key) else { return nil }
        return LayerDefaults.builtinValue(property)
    }

    // Overridable behaviour lives in the class body (Swift cannot override members declared in
    // extensions); each forwards to the implementation in its concern's file.

    /// Whether `p` (in this layer's space) is inside the layer. Default: inside `bounds`. Subclasses
    /// override it to hit-test their shape.
    open func contains(_ p: CGPoint) -> Bool {
        storedBounds.contains(p)
    }

    /// The front-most layer at `p`, given in the *superlayer's* coordinate space: this layer or one of its
    /// descendants, or nil (see `CALayer+HitTesting.swift`).
    ///
    /// Hidden layers (and their sublayers) are skipped. Sublayers are tried front to back: higher
    /// `zPosition` first, then later in `sublayers`. With `masksToBounds`, points outside the bounds hit
    /// nothing beneath. Transforms, including perspective, are inverted exactly; a point that misses the
    /// layer's plane (edge-on, or behind the eye) hits nothing.
    open func hitTest(_ p: CGPoint) -> CALayer? {
        defaultHitTest(p)
    }

    /// The layer's preferred size in its superlayer: by default the size of its bounds through its
    /// transform.
    open func preferredFrameSize() -> CGSize {
        defaultPreferredFrameSize()
    }

    /// The action for `event` (a property key, `onOrderIn`, `onOrderOut`, `sublayers`…), found as Core
    /// Animation finds it: the delegate's `action(for:forKey:)`, then `actions`, then `style`'s
    /// actions, then `defaultAction(forKey:)`, then the built-in implicit animation of an animatable
    /// property. `NSNull` anywhere stops the search with no action. Override to supply your own.
    open func action(forKey event: String) -> CAAction? {
        lookUpAction(forKey: event)
    }

    /// The class's default action for `event` (nil: keep searching). Subclasses override it.
    open class func defaultAction(forKey event: String) -> CAAction? {
        nil
    }

    /// Reloads the layer's contents (see `CALayer+Display.swift`). The commit calls it for layers marked
    /// with `setNeedsDisplay()`. Default: the delegate's `display(_:)`, whose own default makes a backing
    /// store of bounds × `contentsScale` pixels, draws it with `draw(in:)` and sets it as `contents`.
    /// Override to set `contents` yourself.
    open func display() {
        defaultDisplay()
    }

    /// Draws the layer's content into `ctx`, whose user space is the layer's bounds space (y down, one
    /// unit per point). Default: the delegate's `draw(_:in:)`; draws nothing without one.
    open func draw(in ctx: CGContext) {
        delegate?.draw(self, in: ctx)
    }

    /// Whether a change of the property `key` needs the contents redrawn, and whether an animation of it
    /// redraws every frame with presentation values. Default false; override for the custom properties
    /// `draw(in:)` reads.
    open class func needsDisplay(forKey key: String) -> Bool {
        false
    }

    /// Lays out the sublayers; runs when the layer needs layout, at the commit or `layoutIfNeeded()`
    /// (see `CALayer+Layout.swift`). Default: the delegate's `layoutSublayers(of:)`, else the layout
    /// manager's. Override to set your sublayers' frames.
    open func layoutSublayers() {
        defaultLayoutSublayers()
    }

    /// The superlayer's bounds size changed from `size`: applies `autoresizingMask` to the frame.
    open func resize(withOldSuperlayerSize size: CGSize) {
        defaultResize(withOldSuperlayerSize: size)
    }

    /// The bounds size changed from `size` and a sublayer autoresizes: calls
    /// `resize(withOldSuperlayerSize:)` on each sublayer.
    open func resizeSublayers(withOldSize size: CGSize) {
        defaultResizeSublayers(withOldSize: size)
    }

    /// A short name for diagnostics: the layer's `name`, or its class and identity.
    package var diagnosticName: String {
        if let name { return "'\(name)'" }
        return "\(type(of: self))\(layerID)"
    }
}

extension CALayer: Hashable {
    public static func == (lhs: CALayer, rhs: CALayer) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

// MARK: - Typed storage access used by the property accessors

extension CALayer {
    /// The layer whose `mask` this layer is, if any. Kept in sparse storage: few layers are masks.
    package var maskOwner: CALayer? {
        get { (storage[.maskOwner] as? UnownedLayer)?.layer }
        set { storage[.maskOwner] = newValue.map(UnownedLayer.init) }
    }
}

/// A back pointer that does not keep its layer alive (the owner clears it when it goes away).
package struct UnownedLayer {
    package unowned(unsafe) var layer: CALayer
    package init(_ layer: CALayer) { self.layer = layer }
}

extension CALayer {
    /// The value of a sparse built-in property: the stored value or the class default.
    @inline(__always)
    package func value<T>(of key: LayerPropertyKey, as type: T.Type = T.self) -> T {
        if let stored = storage[.builtin(key)] { return stored as! T }
        return defaults.values[Int(key.rawValue)] as! T
    }

    /// Stores a sparse built-in property (dropping it when it equals the default), after refusing
    /// non-finite geometry, and records the change.
    package func setValue<T>(_ newValue: T, of key: LayerPropertyKey) {
        guard !key.isGeometric || acceptsGeometry(newValue, keyPath: key.key) else { return }
        change(key) { storeValue(newValue, of: key) }
    }

    /// Stores a sparse built-in property without recording anything (dropping it when it equals the
    /// default, to keep the layer small).
    package func storeValue<T>(_ newValue: T, of key: LayerPropertyKey) {
        let defaultValue = defaults.values[Int(key.rawValue)]
        if isNilValue(newValue) && isNilValue(defaultValue) {
            storage[.builtin(key)] = nil
        } else if let hashable = newValue as? AnyHashable, hashable == (defaultValue as? AnyHashable) {
            storage[.builtin(key)] = nil
        } else {
            storage[.builtin(key)] = newValue
        }
    }

    /// False (with a diagnostic naming `keyPath`) when `value` is geometry with a non-finite component.
    package func acceptsGeometry(_ value: Any, keyPath: String) -> Bool {
        guard let geometric = value as? GeometricValue, !geometric.isFiniteGeometry else { return true }
        LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: diagnosticName, keyPath: keyPath))
        return false
    }

    /// Records that `key` changed, for the next commit. Presentation copies record nothing.
    package func didChange(_ key: LayerPropertyKey) {
        guard !pendingChanges.contains(.isPresentationCopy) else { return }
        if key == .bounds || type(of: self) != CALayer.self { observeChangeForDisplay(key) }
        let wasClean = !pendingChanges.hasChanges
        pendingChanges.insert(key)
        if wasClean { LayerChangeLog.current.markDirty(self) }
    }

    /// Records that a subclass-declared property changed.
    package func didChangeCustomProperty(_ key: String) {
        guard !pendingChanges.contains(.isPresentationCopy) else { return }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        let wasClean = !pendingChanges.hasChanges
        pendingChanges.formUnion(.customProperties)
        LayerChangeLog.current.recordCustomChange(self, key: key, markDirty: wasClean)
    }

    /// Whether the layer has been committed at least once (so its changes may animate implicitly).
    package var hasBeenCommitted: Bool { pendingChanges.contains(.hasBeenCommitted) }

    /// Whether a host (a window, a `CARenderer`) shows this layer as its root and has committed its tree
    /// once since: layers joining the tree from then on become visible, and run `onOrderIn`.
    package var isShownRoot: Bool {
        get { pendingChanges.contains(.isShownRoot) }
        set { if newValue { pendingChanges.formUnion(.isShownRoot) } else { pendingChanges.subtract(.isShownRoot) } }
    }

    /// Whether the layer is in a tree a host shows (`isShownRoot`). O(depth).
    package var isInShownTree: Bool {
        var layer = self
        while let parent = layer.storedSuperlayer { layer = parent }
        return layer.isShownRoot
    }

    /// Whether this is a presentation copy (it records no changes and runs no actions).
    package var isPresentationCopy: Bool { pendingChanges.contains(.isPresentationCopy) }
}

/// The default values of every built-in property for one layer class, indexed by `LayerPropertyKey`.
/// Sendable: `values` is immutable once made (the `Any`s are the defaults' value types and immutable
/// CG objects), and the per-class tables are behind a lock (`Locked`).
package final class LayerDefaults: @unchecked Sendable {
    package let values: [Any]

    private init(values: [Any]) { self.values = values }

    /// `CALayer`'s own defaults.
    package static let builtin = LayerDefaults(values: LayerPropertyKey.allCases.map(builtinValue))

    private static let tables = Locked<[ObjectIdentifier: LayerDefaults]>([:])

    /// The defaults of a subclass, asking its `defaultValue(forKey:)` once per class.
    package static func table(for layerClass: CALayer.Type) -> LayerDefaults {
        let id = ObjectIdentifier(layerClass)
        if let table = tables.withLock({ $0[id] }) { return table }
        let values = LayerPropertyKey.allCases.map { key -> Any in
            let builtin = builtinValue(key)
            guard let candidate = layerClass.defaultValue(forKey: key.key), !isNilValue(candidate) else { return builtin }
            // Converted as key-value coding converts (a number literal for a CGFloat property); a default
            // that cannot be converted keeps the built-in one, with a diagnostic.
            guard let converted = CALayer.coerce(candidate, to: key) else {
                LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: key.key, expected: "\(key.valueKind)", got: "\(type(of: candidate))"))
                return builtin
            }
            return converted
        }
        let table = LayerDefaults(values: values)
        tables.withLock { $0[id] = table }
        return table
    }

    /// Core Animation's default for each built-in property (iOS values).
    package static func builtinValue(_ key: LayerPropertyKey) -> Any {
        switch key {
        case .bounds: CGRect.zero
        case .position: CGPoint.zero
        case .zPosition, .anchorPointZ, .cornerRadius, .borderWidth: CGFloat(0)
        case .anchorPoint: CGPoint(x: 0.5, y: 0.5)
        case .transform, .sublayerTransform: CATransform3DIdentity
        case .contentsScale, .rasterizationScale: CGFloat(1)
        case .shadowRadius: CGFloat(3)
        case .opacity: Float(1)
        case .shadowOpacity, .minificationFilterBias: Float(0)
        case .shadowOffset: CGSize(width: 0, height: -3)
        case .isGeometryFlipped, .isHidden, .isOpaque, .allowsEdgeAntialiasing, .masksToBounds,
             .needsDisplayOnBoundsChange, .drawsAsynchronously, .shouldRasterize: false
        case .isDoubleSided, .allowsGroupOpacity: true
        case .beginTime, .timeOffset, .repeatDuration, .duration: CFTimeInterval(0)
        case .speed: Float(1)
        case .repeatCount: Float(0)
        case .autoreverses: false
        case .fillMode: CAMediaTimingFillMode.removed
        case .animations: LayerAnimationList()
        case .backgroundColor, .mask, .shadowPath, .name, .contents, .filters, .backgroundFilters,
             .compositingFilter, .style, .actions, .delegate, .sublayers: Optional<Any>.none as Any
        case .borderColor, .shadowColor: CGColor.black
        case .cornerCurve: CALayerCornerCurve.circular
        case .maskedCorners: CACornerMask.all
        case .edgeAntialiasingMask: CAEdgeAntialiasingMask.all
        case .contentsGravity: CALayerContentsGravity.resize
        case .contentsRect, .contentsCenter: CGRect(x: 0, y: 0, width: 1, height: 1)
        case .contentsFormat: CALayerContentsFormat.RGBA8Uint
        case .minificationFilter, .magnificationFilter: CALayerContentsFilter.linear
        }
    }
}

extension LayerPropertySet {
    /// Set when a subclass-declared property changed; which ones is kept by `LayerChangeLog`.
    package static let customProperties = LayerPropertySet(rawValue: 1 << 63)
    /// Sticky: the layer has been part of a commit.
    package static let hasBeenCommitted = LayerPropertySet(rawValue: 1 << 62)
    /// Sticky: the layer is a presentation copy.
    package static let isPresentationCopy = LayerPropertySet(rawValue: 1 << 61)
    /// Sticky: the layer needs layout (it is queued in `LayoutQueue`).
    package static let needsLayout = LayerPropertySet(rawValue: 1 << 60)
    /// Sticky: a host shows the layer as its root (`CALayer.isShownRoot`).
    package static let isShownRoot = LayerPropertySet(rawValue: 1 << 59)
    /// The sticky state bits, which are not changes.
    package static let stickyState: LayerPropertySet = [.hasBeenCommitted, .isPresentationCopy, .needsLayout, .isShownRoot]

    /// Whether any property (not just state) is pending.
    package var hasChanges: Bool { !subtracting(.stickyState).isEmpty }

    /// The pending properties without the state bits.
    package var changes: LayerPropertySet { subtracting(.stickyState) }
}
