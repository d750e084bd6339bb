import Foundation

/// What one commit hands to the render server: an immutable, `Sendable` record of exactly what changed.
///
/// Built from the change log by the commit (`CommitDistributor`, one per host it concerns) or by
/// `collect()`. Cost: O(changed properties + changed sublayer
/// lists); nothing is copied for unchanged layers.
package struct CommitPacket: Sendable {
    package var changes: [LayerStateChange]
    /// Committed layers deallocated since the last commit: render trees drop their nodes.
    package var released: [LayerID]
    /// When the commit that made this packet began (`CACurrentMediaTime()`'s clock: layout and display
    /// included), so a trace (`LK_TRACE`) can show the commit on its thread; nil for snapshots and packets
    /// built by hand.
    package var commitBegan: CFTimeInterval?

    package init(changes: [LayerStateChange], released: [LayerID] = []) {
        self.changes = changes
        self.released = released
    }

    package var isEmpty: Bool { changes.isEmpty && released.isEmpty }

    /// A packet that describes `root`'s whole subtree (masks included) as it is now: every property that
    /// differs from its default, plus bounds, position, contents and sublayers. What a new render tree
    /// needs to start from a tree that was committed before it existed. `including` limits it to the
    /// layers it accepts, whose subtrees it enters (a host that knows a layer already knows its subtree).
    /// Cost: O(subtree).
    package static func snapshot(of root: CALayer, including: (CALayer) -> Bool = { _ in true }) -> CommitPacket {
        var changes: [LayerStateChange] = []
        var stack = [root]
        while let layer = stack.popLast() {
            guard including(layer) else { continue }
            var keys: LayerPropertySet = [LayerPropertySet(.bounds), LayerPropertySet(.position),
                                          LayerPropertySet(.backgroundColor), LayerPropertySet(.contents),
                                          LayerPropertySet(.sublayers)]
            for case .builtin(let key) in layer.storage.keys { keys.insert(key) }
            var customKeys: [String] = []
            for case .custom(let key) in layer.storage.keys { customKeys.append(key) }
            layer.pendingChanges.formUnion(.hasBeenCommitted)
            changes.append(LayerStateChange(layer: layer, properties: keys, customKeys: customKeys, complete: true))
            stack.append(contentsOf: layer.storedSublayers)
            if let mask = layer.value(of: .mask) as CALayer? { stack.append(mask) }
        }
        return CommitPacket(changes: changes)
    }

    /// Packs the calling thread's pending changes and the layers released since the last commit, and
    /// clears both (what an observer of every commit would receive).
    package static func collect(from log: LayerChangeLog = .current) -> CommitPacket {
        CommitPacket(changes: log.drain().map(LayerStateChange.init), released: CommitDistributor.shared.drainReleased())
    }
}

/// The new values of one layer's changed properties.
package struct LayerStateChange: Sendable {
    package let layer: LayerID
    package let values: [(key: LayerPropertyKey, value: LayerPropertyValue)]
    /// Subclass-declared properties that changed (`CommittedCustomValues`): nil for a property now nil.
    package let customValues: [(key: String, value: AnimatableValue?)]

    init(_ change: LayerChange) {
        self.init(layer: change.layer, properties: change.properties, customKeys: change.customKeys)
    }

    /// With `complete`, every declared property of the layer's class is included (a snapshot).
    init(layer: CALayer, properties: LayerPropertySet, customKeys: [String] = [], complete: Bool = false) {
        self.layer = layer.layerID
        values = properties.keys.compactMap { key in
            LayerPropertyValue(of: layer, key).map { (key, $0) }
        }
        customValues = CommittedCustomValues.values(of: layer, changedKeys: customKeys, complete: complete)
    }
}

/// A property value as the render server receives it: `Sendable`, with layers referred to by ID.
package enum LayerPropertyValue: Sendable {
    case float(CGFloat)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(CATransform3D)
    case color(CGColor?)
    case bool(Bool)
    case layer(LayerID?)
    case layers([LayerID])
    case path(CGPath?)
    case image(CGImage?)
    case string(String)
    case mask(UInt)
    case animations([AnimationRecord])
    /// `filters` or `backgroundFilters`: a filter list, as immutable values (entries that are not filters
    /// are left out; the setter reported them).
    case filters([FilterValue])

    /// The current value of `key` on `layer`; nil for properties the renderer never reads (delegate,
    /// actions, style, name) and contents that are not images.
    init?(of layer: CALayer, _ key: LayerPropertyKey) {
        switch key.valueKind {
        case .float: self = .float(layer.value(of: key) as CGFloat)
        case .float32: self = .float(CGFloat(layer.value(of: key) as Float))
        case .double: self = .float(CGFloat(layer.value(of: key) as Double))
        case .point: self = .point(key == .position ? layer.storedPosition : layer.value(of: key))
        case .size: self = .size(layer.value(of: key))
        case .rect: self = .rect(key == .bounds ? layer.storedBounds : layer.value(of: key))
        case .transform: self = .transform(layer.value(of: key))
        case .color: self = .color(key == .backgroundColor ? layer.storedBackgroundColor : layer.value(of: key))
        case .bool: self = .bool(layer.value(of: key))
        case .layer: self = .layer((layer.value(of: key) as CALayer?)?.layerID)
        case .path: self = .path(layer.value(of: key))
        case .cornerMask:
            self = .mask(key == .maskedCorners ? (layer.value(of: key) as CACornerMask).rawValue
                                              : UInt((layer.value(of: key) as CAEdgeAntialiasingMask).rawValue))
        case .string:
            guard key != .name else { return nil }
            let raw = (layer.value(of: key) as any RawRepresentable).rawValue as? String
            guard let raw else { return nil }
            self = .string(raw)
        case .any:
            switch key {
            case .contents: self = .image(layer.storedContents as? CGImage)
            case .sublayers: self = .layers(layer.storedSublayers.map(\.layerID))
            case .animations: self = .animations(layer.commitAnimations())
            case .compositingFilter:
                // Core Image's name ("" for none): the renderer knows compositing filters by name alone.
                self = .string(CIFilter.compositingFilterName(of: layer.value(of: key) as Any?) ?? "")
            case .filters, .backgroundFilters:
                self = .filters(((layer.value(of: key) as [Any]?) ?? []).compactMap { ($0 as? CIFilter).map(FilterValue.init) })
            default: return nil
            }
        }
    }
}
