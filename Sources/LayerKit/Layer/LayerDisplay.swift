import Foundation

/// The display pass of the commit, asynchronous drawing, and per-frame redraws of layers whose
/// `needsDisplay(forKey:)` properties animate.
///
/// Contract
///   Input:  layers marked by `setNeedsDisplay` (`mark(_:)`, O(1) each); layers whose animations changed
///           (`animationsChanged(on:)`); the hosts' frame hook `redrawAnimatingLayers(at:)`.
///   Output: `displayPendingLayers()` — called by `TransactionContext.send()` after layout and before the
///           packet is built — first applies asynchronous drawings that finished, then displays every
///           marked layer once, in marking order. Layers marked while displaying wait for the next
///           commit. Cost: O(marked layers), independent of the tree's size.
///   Animated drawing: a layer drawn by `draw(in:)` from properties whose `needsDisplay(forKey:)` is true
///           redraws each frame while an animation of one of them runs. Drawing belongs to the model
///           thread, so the render thread cannot do it: the hosts call `redrawAnimatingLayers(at:)` on the
///           model thread once per frame, before they flush (CARenderer's `beginFrame(atTime:)`, the
///           window's event loop). For each such layer it evaluates the animations at the frame's time,
///           and when the animated values differ from the last drawing, draws a presentation copy and
///           sets its image as the model layer's contents, which the flush then commits. When the
///           animation is over the layer redraws once with its model values. Cost: O(layers animating
///           such properties) per frame, plus their drawing. Animations added in the current
///           transaction are resolved here (as the commit would) so the first frame already shows them.
///   Threads: everything runs on the thread that owns the model, except the drawing of
///           `drawsAsynchronously` layers: their `draw(in:)` (and their delegate's `draw(_:in:)`) runs on
///           a background queue on a *copy* of the layer (`init(layer:)`, taken on the model thread when
///           display starts), so it must read only the layer it is given and shared state that is safe to
///           read from any thread. The image is applied at the first commit after the drawing finishes;
///           a drawing superseded by a newer one is dropped. `layerWillDraw(_:)` runs on the model thread.
///           Tiled layers draw their tiles the same way, on their own bounded queue; the pass ends with
///           their update (`TiledLayerScheduler.commitPass()`).
///           `waitForAsynchronousDrawing()` blocks until drawings in flight have finished (tests, or a
///           host that must present complete frames).
/// Does NOT: display layers that are not marked, draw on the render thread, or upload anything (a
///           partial redraw only records its region on the image, see `CALayer+Display.swift`).
/// Process-wide: the drawing queue is the process's, a layer is marked before any host is known to show
///           it, and hosts ask which pending work concerns their tree. Ownership: `pending`, `animating`,
///           `finished` and `inFlight` are behind `lock` (drawing threads hand results in, the
///           committing thread takes them); the layers in them are touched only by the thread that owns
///           the model, outside the lock. Hence `@unchecked Sendable` (it holds non-Sendable layers).
///           Checked by `LayerDisplayTests` and `SendableInvariantTests`.
package final class LayerDisplay: @unchecked Sendable {
    /// The display state of the process's model thread (see the type's comment for why there is one).
    package static let shared = LayerDisplay()

    private let lock = NSLock()
    private var pending: [CALayer] = []
    private var animating: [ObjectIdentifier: AnimatingLayer] = [:]
    private var finished: [FinishedDrawing] = []
    /// Asynchronous drawings running, by layer.
    private var inFlight: [ObjectIdentifier: (layer: CALayer, count: Int)] = [:]
    private let drawingGroup = DispatchGroup()
    private let queue = DispatchQueue(label: "LayerKit.drawsAsynchronously", qos: .userInitiated, attributes: .concurrent)

    /// A layer with animations of properties it draws, and the animated values it last drew with
    /// (empty: drawn with model values).
    private struct AnimatingLayer {
        let layer: CALayer
        var lastDrawn: [String: AnimatableValue] = [:]
    }

    /// An asynchronous drawing's result, waiting for the next commit. Sendable: handed from the drawing
    /// thread to the committing one behind the display lock; the layer is only touched by the committing
    /// thread, and the image and description are immutable.
    private struct FinishedDrawing: @unchecked Sendable {
        let layer: CALayer
        let generation: Int
        let image: CGImage?
        let description: BackingStoreDescription
    }

    // MARK: The commit's pass

    /// Displays every marked layer and applies finished asynchronous drawings. Called by the commit.
    package static func displayPendingLayers() { shared.displayPendingLayers() }

    /// Redraws layers whose drawn properties animate, with their values at `time` (absolute,
    /// `CACurrentMediaTime()`'s clock). Hosts call it on the model thread before each frame's flush.
    package static func redrawAnimatingLayers(at time: CFTimeInterval) { shared.redrawAnimatingLayers(at: time) }

    /// Blocks until every asynchronous drawing started so far has finished (their images apply at the
    /// next commit).
    package static func waitForAsynchronousDrawing() {
        shared.drawingGroup.wait()
        TiledLayerScheduler.waitForTiles()
    }

    /// The layers on which a commit or frame would display something — marked layers, finished or running
    /// asynchronous drawings (tiles of tiled layers included), layers whose drawn properties animate: a
    /// host asks whether any is in its tree.
    package static var layersWithPendingWork: [CALayer] {
        shared.layersWithPendingWork + TiledLayerScheduler.shared.layersWithPendingWork
    }

    func mark(_ layer: CALayer) {
        lock.lock()
        pending.append(layer)
        lock.unlock()
    }

    private var layersWithPendingWork: [CALayer] {
        lock.lock()
        defer { lock.unlock() }
        return pending + finished.map(\.layer) + inFlight.values.map(\.layer) + animating.values.map(\.layer)
    }

    private func displayPendingLayers() {
        lock.lock()
        let layers = pending
        let results = finished
        pending = []
        finished = []
        lock.unlock()
        for result in results where result.layer.displayState?.asyncGeneration == result.generation {
            result.layer.setBackingContents(result.image, drawn: result.description)
        }
        for layer in layers { layer.displayMarkedContents() }
        // Tiled layers decide what to draw and show once the marked ones have invalidated their tiles.
        TiledLayerScheduler.commitPass()
    }

    // MARK: Asynchronous drawing

    /// Draws `drawing` of a copy of `layer` on the background queue; the result waits for the next commit.
    func drawInBackground(_ drawing: BackingStoreDrawing, of layer: CALayer, generation: Int) {
        let job = AsynchronousDrawing(layer: layer, copy: layer.makeDrawingCopy(), drawing: drawing, generation: generation)
        lock.lock()
        inFlight[ObjectIdentifier(layer), default: (layer, 0)].count += 1
        lock.unlock()
        drawingGroup.enter()
        queue.async { [self] in
            let image = job.drawing.draw(job.copy)
            lock.lock()
            finished.append(FinishedDrawing(layer: job.layer, generation: job.generation, image: image,
                                            description: job.drawing.description(of: image)))
            let id = ObjectIdentifier(job.layer)
            inFlight[id]!.count -= 1
            if inFlight[id]!.count == 0 { inFlight[id] = nil }
            lock.unlock()
            drawingGroup.leave()
        }
    }

    /// Whether `layer` has an asynchronous drawing in flight or waiting for the commit.
    func isDrawing(_ layer: CALayer, generation: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return inFlight[ObjectIdentifier(layer)] != nil || finished.contains { $0.layer === layer && $0.generation == generation }
    }

    /// What a background drawing needs: the model layer (only handed back), the copy it draws.
    private struct AsynchronousDrawing: @unchecked Sendable {
        let layer: CALayer
        let copy: CALayer
        let drawing: BackingStoreDrawing
        let generation: Int
    }

    // MARK: Animated drawing

    /// Registers `layer` for per-frame redraws when one of its animations targets a property it draws.
    func animationsChanged(on layer: CALayer) {
        guard !Self.drawnKeys(animatedOn: layer).isEmpty else { return }
        lock.lock()
        if animating[ObjectIdentifier(layer)] == nil { animating[ObjectIdentifier(layer)] = AnimatingLayer(layer: layer) }
        lock.unlock()
    }

    private func redrawAnimatingLayers(at time: CFTimeInterval) {
        lock.lock()
        let entries = Array(animating.values)
        lock.unlock()
        for entry in entries {
            let layer = entry.layer
            let id = ObjectIdentifier(layer)
            let keys = Self.drawnKeys(animatedOn: layer)
            guard !keys.isEmpty else {
                // No such animation left: back to the model's values once.
                lock.lock()
                animating[id] = nil
                lock.unlock()
                if !entry.lastDrawn.isEmpty { layer.setNeedsDisplay() }
                continue
            }
            let entries = layer.animationList.entries
            let records = entries.contains { $0.record == nil } ? layer.commitAnimations() : entries.compactMap(\.record)
            var store = AnimatedValueOverlay(layer: layer)
            _ = AnimationEvaluator.apply(records, layerTime: layer.convertTime(time, from: nil), to: &store)
            let drawn = store.values.filter { keys.contains($0.key) }
            guard drawn != entry.lastDrawn else { continue }
            lock.lock()
            animating[id]?.lastDrawn = drawn
            lock.unlock()
            guard !drawn.isEmpty else {
                layer.setNeedsDisplay()
                continue
            }
            let copy = layer.makeDrawingCopy()
            for (key, value) in store.values {
                copy.setValue(value.modelValue(like: copy.value(forKey: key)), forKey: key)
            }
            copy.display()
            layer.setBackingContents(copy.storedContents as? CGImage, drawn: copy.displayState?.backing)
        }
    }

    /// The property keys of `layer`'s animations (groups included) that its class draws.
    static func drawnKeys(animatedOn layer: CALayer) -> Set<String> {
        let layerClass = type(of: layer)
        guard layerClass != CALayer.self else { return [] }
        var keys = Set<String>()
        func collect(_ animation: CAAnimation) {
            if let property = animation as? CAPropertyAnimation, let keyPath = property.keyPath {
                let key = AnimationKeyPath(keyPath).key
                if layerClass.needsDisplay(forKey: key) { keys.insert(key) }
            } else if let group = animation as? CAAnimationGroup {
                group.animations?.forEach(collect)
            }
        }
        for entry in layer.animationList.entries { collect(entry.animation) }
        return keys
    }
}

/// Animated values over a layer's model values, by key, without touching the layer.
private struct AnimatedValueOverlay: AnimatedPropertyStore {
    let layer: CALayer
    var values: [String: AnimatableValue] = [:]

    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        values[target.keyPath.key] ?? AnimatableValue(layer.value(forKey: target.keyPath.key))
    }

    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        values[target.keyPath.key] = value
    }
}
