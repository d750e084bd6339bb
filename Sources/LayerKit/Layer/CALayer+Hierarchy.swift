import Foundation

// The layer tree: sublayers, superlayer and mask.
//
// Every edit keeps the tree a tree: a layer moved to a new parent leaves the old one; an edit that would
// make a cycle, use a layer as its own mask, or make a layer both a mask and a sublayer is refused with a
// diagnostic and leaves the tree exactly as it was. Edits record a `sublayers` change on each parent whose
// list changed.

extension CALayer {
    /// The layer's parent, or nil for a root (and for a mask layer). A presentation copy's superlayer is
    /// the presentation copy of its model's superlayer (made on demand when the copy it was made with is
    /// gone: a layer does not keep its parent alive).
    public var superlayer: CALayer? {
        if let parent = storedSuperlayer { return parent }
        guard isPresentationCopy, let parent = model().storedSuperlayer else { return nil }
        return parent.presentation()
    }

    /// The layer's children, back to front (before `zPosition` ordering). Setting it replaces them all:
    /// the old children leave, the new ones leave their old parents. nil when there are none.
    public var sublayers: [CALayer]? {
        get { storedSublayers.isEmpty ? nil : storedSublayers }
        set {
            var unique: [CALayer] = []
            for layer in newValue ?? [] where !unique.contains(where: { $0 === layer }) {
                guard canAdopt(layer) else { return }
                unique.append(layer)
            }
            for old in storedSublayers where !unique.contains(where: { $0 === old }) {
                if hasBeenCommitted { old.runOrderAction(kCAOnOrderOut) }
                old.storedSuperlayer = nil
            }
            var joined: [CALayer] = []
            for layer in unique where layer.storedSuperlayer !== self {
                layer.detachFromSuperlayer()
                layer.storedSuperlayer = self
                joined.append(layer)
            }
            storedSublayers = unique
            sublayersDidChange()
            for layer in joined { didOrderIn(layer) }
        }
    }

    /// Appends `layer` to the sublayers (in front of the others), removing it from its old parent.
    public func addSublayer(_ layer: CALayer) {
        insert(layer, at: storedSublayers.count, operation: "addSublayer")
    }

    /// Inserts `layer` at `idx` in the sublayers. An index past the end is refused with a diagnostic.
    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        insert(layer, at: Int(idx), operation: "insertSublayer(_:at:)")
    }

    /// Inserts `layer` just below `sibling`, which must be a sublayer; nil inserts at the back.
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling else { return insert(layer, at: 0, operation: "insertSublayer(_:below:)") }
        guard sibling.storedSuperlayer === self, sibling !== layer else {
            return refuseEdit("insertSublayer(_:below:): the sibling is not a sublayer of this layer")
        }
        insert(layer, before: sibling, offset: 0)
    }

    /// Inserts `layer` just above `sibling`, which must be a sublayer; nil inserts at the front.
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling else { return insert(layer, at: storedSublayers.count, operation: "insertSublayer(_:above:)") }
        guard sibling.storedSuperlayer === self, sibling !== layer else {
            return refuseEdit("insertSublayer(_:above:): the sibling is not a sublayer of this layer")
        }
        insert(layer, before: sibling, offset: 1)
    }

    /// Replaces the sublayer `oldLayer` with `newLayer` in the same place.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer.storedSuperlayer === self else {
            return refuseEdit("replaceSublayer(_:with:): the layer to replace is not a sublayer of this layer")
        }
        guard oldLayer !== newLayer else { return }
        guard canAdopt(newLayer) else { return }
        newLayer.detachFromSuperlayer()
        guard let index = storedSublayers.firstIndex(where: { $0 === oldLayer }) else { return }
        if hasBeenCommitted { oldLayer.runOrderAction(kCAOnOrderOut) }
        storedSublayers[index] = newLayer
        oldLayer.storedSuperlayer = nil
        newLayer.storedSuperlayer = self
        sublayersDidChange()
        didOrderIn(newLayer)
    }

    /// Removes the layer from its superlayer (or from the layer it masks).
    public func removeFromSuperlayer() {
        if let owner = maskOwner {
            owner.mask = nil
            return
        }
        detachFromSuperlayer()
    }

    /// A layer whose alpha masks this layer's contents and sublayers. Its geometry is in this layer's
    /// space; it has no superlayer. Setting a layer that is this layer, one of its ancestors, or some
    /// layer's sublayer is refused with a diagnostic. Animatable (as a whole).
    public var mask: CALayer? {
        get { value(of: .mask) }
        set {
            let old: CALayer? = value(of: .mask)
            if old === newValue { return }
            if let newValue {
                guard newValue !== self, !newValue.isAncestor(of: self) else {
                    return LayerKitDiagnostics.emit(.selfMaskRefused(layer: diagnosticName))
                }
                guard newValue.storedSuperlayer == nil else {
                    return LayerKitDiagnostics.emit(.maskInHierarchyRefused(layer: newValue.diagnosticName))
                }
                if let previousOwner = newValue.maskOwner, previousOwner !== self { previousOwner.mask = nil }
                newValue.maskOwner = self
            }
            if let old, old.maskOwner === self { old.maskOwner = nil }
            setValue(newValue, of: .mask)
        }
    }

    // MARK: - Mechanics

    /// Whether this layer is `layer` or one of its ancestors, following superlayers and mask owners.
    package func isAncestor(of layer: CALayer) -> Bool {
        var current: CALayer? = layer
        while let candidate = current {
            if candidate === self { return true }
            current = candidate.storedSuperlayer ?? candidate.maskOwner
        }
        return false
    }

    /// Refuses (with a diagnostic) a child that would make a cycle or is some layer's mask.
    private func canAdopt(_ layer: CALayer) -> Bool {
        if layer.isAncestor(of: self) {
            LayerKitDiagnostics.emit(.hierarchyCycleRefused(child: layer.diagnosticName, parent: diagnosticName))
            return false
        }
        if layer.maskOwner != nil {
            LayerKitDiagnostics.emit(.maskInHierarchyRefused(layer: layer.diagnosticName))
            return false
        }
        return true
    }

    private func refuseEdit(_ reason: String) {
        LayerKitDiagnostics.emit(.invalidSublayerEdit(layer: diagnosticName, reason: reason))
    }

    private func insert(_ layer: CALayer, at index: Int, operation: String) {
        guard canAdopt(layer) else { return }
        // The index counts the list as it is now, before the layer leaves it (Core Animation's order).
        let limit = storedSublayers.count
        guard index >= 0, index <= limit else {
            return refuseEdit("\(operation): index \(index) is past the end (\(limit) sublayers)")
        }
        var target = index
        if layer.storedSuperlayer === self, let current = storedSublayers.firstIndex(where: { $0 === layer }) {
            storedSublayers.remove(at: current)
            if current < target { target -= 1 }
        } else {
            layer.detachFromSuperlayer()
        }
        storedSublayers.insert(layer, at: min(target, storedSublayers.count))
        layer.storedSuperlayer = self
        sublayersDidChange()
        didOrderIn(layer)
    }

    private func insert(_ layer: CALayer, before sibling: CALayer, offset: Int) {
        guard canAdopt(layer) else { return }
        if layer.storedSuperlayer === self {
            storedSublayers.removeAll { $0 === layer }
        } else {
            layer.detachFromSuperlayer()
        }
        let index = storedSublayers.firstIndex { $0 === sibling }! + offset
        storedSublayers.insert(layer, at: index)
        layer.storedSuperlayer = self
        sublayersDidChange()
        didOrderIn(layer)
    }

    /// Runs the `onOrderIn` action of a layer that joined this (committed) layer's tree when a host
    /// shows that tree already (what is added before a host's first commit appears with the tree, as
    /// it does in Core Animation), and this layer's `sublayers` action, as Core Animation does.
    private func didOrderIn(_ layer: CALayer) {
        // A layer that never changed a property still has to reach the render tree with its parent.
        if !layer.hasBeenCommitted && !layer.pendingChanges.hasChanges { layer.didChange(.sublayers) }
        guard hasBeenCommitted else { return }
        if isInShownTree { layer.runOrderAction(kCAOnOrderIn) }
        runAction(forEvent: "sublayers")
    }

    /// Records a change of the sublayer list for the commit, and marks the layer as needing layout: its
    /// sublayers changed, so a layout manager or `layoutSublayers()` override must place them again (as
    /// Core Animation does on every sublayer edit).
    private func sublayersDidChange() {
        didChange(.sublayers)
        setNeedsLayout()
    }

    /// Leaves the current superlayer, recording the change there (after its `onOrderOut` action).
    private func detachFromSuperlayer() {
        guard let parent = storedSuperlayer else { return }
        if parent.hasBeenCommitted { runOrderAction(kCAOnOrderOut) }
        parent.storedSublayers.removeAll { $0 === self }
        storedSuperlayer = nil
        parent.sublayersDidChange()
    }
}
