import Foundation
import Synchronization

// Display: a layer's contents drawn on the model thread by `draw(in:)`, cached until invalidated.
//
// Contract
//   Input:  marks — `setNeedsDisplay()`, `setNeedsDisplay(_:)`, a bounds size change with
//           `needsDisplayOnBoundsChange`, a change of a property whose `needsDisplay(forKey:)` is true.
//   Output: at the next commit (`TransactionContext.send()`: after layout, before the packet is built,
//           `LayerDisplay.displayPendingLayers()`), each marked layer's `display()`. Its default asks the
//           delegate's `display(_:)`, whose default draws a backing store with `draw(in:)` and sets it as
//           `contents` without an implicit animation (a redraw is not a contents change to cross-fade).
//           A layer draws once and keeps its image until marked again.
//   Backing store: ceil(bounds.size × contentsScale) pixels, 8-bit premultiplied RGBA (`noneSkipLast`
//           when `isOpaque`, so the renderer counts it as an occluder; an opaque store starts black and
//           the layer must fill it). User space is the layer's bounds space: flipped to y down
//           (`flipForLayerDrawing()`), scaled by contentsScale, translated so the bounds' origin is the
//           top-left corner. A drawing without a single visible pixel leaves `contents` nil, never the
//           previous image.
//   Partial redraw: `setNeedsDisplay(_ r:)` marks `r` only (marks before a commit unite). If the layer
//           still shows its last backing store at the same size, scale and opacity, that image's pixels
//           are kept, the region — rounded out to whole backing pixels — is cleared, and `draw(in:)` runs
//           clipped to it (`boundingBoxOfClipPath` is the region). Otherwise the whole store is redrawn.
//           The result is a new CGImage that records the image it started from and the redrawn pixels
//           (`PartialImageUpdate`), so the renderer copies only those into the old image's texture when
//           it can (`ImageUploader`): region width × height × 4 bytes uploaded instead of the whole store.
//   Threads: everything here runs on the thread that owns the model, except `draw(in:)` of a layer with
//           `drawsAsynchronously` (see `LayerDisplay`).
//   Cost:   O(marked layers) per commit plus their drawing; nothing for layers that are not marked.

/// A layer's drawing state, kept in its sparse storage (only layers that have been marked have one).
package struct LayerDisplayState {
    /// Marked by `setNeedsDisplay`, cleared when the commit (or `displayIfNeeded()`) displays it.
    var needsDisplay = false
    /// The marked region in bounds space; nil while `needsDisplay`: everything.
    var dirtyRect: CGRect?
    /// During a `display()` started by the commit or `displayIfNeeded()`: the region to redraw (nil:
    /// everything). The backing store takes it.
    var redrawRect: CGRect?
    /// What the last backing store was drawn as; nil before the first.
    var backing: BackingStoreDescription?
    /// Counts asynchronous drawings started; a finished one applies only while it is the latest.
    var asyncGeneration = 0
}

/// What a backing store was drawn as: enough to tell whether a partial redraw can start from it.
package struct BackingStoreDescription: Sendable {
    /// The image set as contents (nil: the drawing was empty).
    var image: CGImage?
    var pixelWidth: Int
    var pixelHeight: Int
    var scale: CGFloat
    var bounds: CGRect
    var isOpaque: Bool
}

extension CALayer {
    // MARK: Marking

    /// Marks the whole contents as needing to be redrawn at the next commit.
    public func setNeedsDisplay() {
        markNeedsDisplay(nil)
    }

    /// Marks `r` (in the layer's bounds space) as needing to be redrawn at the next commit; the rest of
    /// the backing store is kept. An empty or non-finite rectangle marks nothing.
    public func setNeedsDisplay(_ r: CGRect) {
        let rect = r.standardized
        guard rect.isFiniteGeometry, !rect.isEmpty else { return }
        markNeedsDisplay(rect)
    }

    /// Whether the layer is marked as needing display.
    public func needsDisplay() -> Bool {
        displayState?.needsDisplay ?? false
    }

    /// Displays the layer now if it is marked (what the commit does for every marked layer).
    public func displayIfNeeded() {
        displayMarkedContents()
    }

    /// Whether the layer's `drawsAsynchronously` drawing is in flight: its new contents arrive with a
    /// later commit.
    package var isDrawingAsynchronously: Bool {
        guard let state = displayState else { return false }
        return LayerDisplay.shared.isDrawing(self, generation: state.asyncGeneration)
    }

    private func markNeedsDisplay(_ rect: CGRect?) {
        guard !isPresentationCopy else { return }
        var state = displayState ?? LayerDisplayState()
        let wasMarked = state.needsDisplay
        if !wasMarked {
            state.dirtyRect = rect
        } else if let marked = state.dirtyRect {
            // Already marked in part: grow the region (or take everything).
            state.dirtyRect = rect.map { marked.union($0) }
        }
        state.needsDisplay = true
        displayState = state
        if !wasMarked { LayerDisplay.shared.mark(self) }
    }

    /// Displays the layer if marked, clearing the mark first (a `draw(in:)` that marks again is honoured
    /// at the next commit).
    package func displayMarkedContents() {
        guard var state = displayState, state.needsDisplay else { return }
        state.needsDisplay = false
        state.redrawRect = state.dirtyRect
        state.dirtyRect = nil
        displayState = state
        display()
        if var after = displayState, after.redrawRect != nil {
            after.redrawRect = nil
            displayState = after
        }
    }

    package var displayState: LayerDisplayState? {
        get { storage[.display] as? LayerDisplayState }
        set { storage[.display] = newValue }
    }

    /// Notes a change of a built-in property that may need the contents redrawn (called by `didChange`
    /// for bounds on every layer and for every property of subclasses).
    package func observeChangeForDisplay(_ key: LayerPropertyKey) {
        switch key {
        case .bounds:
            if needsDisplayOnBoundsChange && storedBounds.size != displayState?.backing?.bounds.size { setNeedsDisplay() }
        case .animations:
            LayerDisplay.shared.animationsChanged(on: self)
        default:
            break
        }
        let layerClass = type(of: self)
        if layerClass != CALayer.self, DisplayKeys.builtinKeys(of: layerClass).contains(key) { setNeedsDisplay() }
    }

    // MARK: Displaying

    /// `display()`'s default: the delegate's `display(_:)` (whose default is the backing store).
    package func defaultDisplay() {
        if let delegate {
            delegate.display(self)
        } else {
            displayBackingStore()
        }
    }

    /// Draws the backing store with `draw(in:)` and sets it as contents (see the file's contract): on a
    /// background queue for `drawsAsynchronously` model layers, here otherwise.
    package func displayBackingStore() {
        var state = displayState ?? LayerDisplayState()
        let region = state.redrawRect
        state.redrawRect = nil
        displayState = state

        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        let bounds = storedBounds
        guard let (width, height) = BackingStoreDrawing.pixelSize(of: bounds.size, scale: scale) else {
            setBackingContents(nil, drawn: nil)
            return
        }
        let opaque = isOpaque
        let asynchronous = drawsAsynchronously && !isPresentationCopy
        var drawing = BackingStoreDrawing(pixelWidth: width, pixelHeight: height, scale: scale, bounds: bounds, isOpaque: opaque)

        // A partial redraw starts from the image the layer shows, if it is the last backing store as it
        // would be drawn now. (An asynchronous layer always redraws whole: an earlier drawing may still
        // be in flight.)
        if let region, !asynchronous, let previous = state.backing, previous.pixelWidth == width, previous.pixelHeight == height,
           previous.scale == scale, previous.bounds == bounds, previous.isOpaque == opaque,
           (storedContents as? CGImage) === previous.image, storedContents == nil || previous.image != nil {
            guard let aligned = drawing.alignedRegion(region) else { return }
            drawing.region = aligned
            drawing.base = previous.image
        }

        delegate?.layerWillDraw(self)
        if asynchronous {
            state = displayState ?? state
            state.asyncGeneration += 1
            displayState = state
            LayerDisplay.shared.drawInBackground(drawing, of: self, generation: state.asyncGeneration)
            return
        }
        let image = drawing.draw(self)
        setBackingContents(image, drawn: drawing.description(of: image))
    }

    /// Sets the backing store as contents without an implicit action (recorded for the commit, except on
    /// presentation copies, which record nothing).
    package func setBackingContents(_ image: CGImage?, drawn description: BackingStoreDescription?) {
        var state = displayState ?? LayerDisplayState()
        state.backing = description
        displayState = state
        guard storedContents !== image else { return }
        storedContents = image
        didChange(.contents)
    }

    /// A copy to draw with presentation values or off the model thread: it records no changes, runs no
    /// actions and has no animations (`init(layer:)` copies the properties).
    package func makeDrawingCopy() -> CALayer {
        let copy = type(of: self).init(layer: self)
        copy.pendingChanges = [.isPresentationCopy, .hasBeenCommitted]
        copy.storage[.modelLayer] = self
        return copy
    }
}

/// One backing store to draw: its size, its space, and for a partial redraw the region and the image
/// it starts from. A value of Sendable parts (the base image is immutable), so an asynchronous drawing
/// can take it to another thread.
package struct BackingStoreDrawing: Sendable {
    var pixelWidth: Int
    var pixelHeight: Int
    var scale: CGFloat
    var bounds: CGRect
    var isOpaque: Bool
    /// The region to redraw in bounds space (nil: everything).
    var region: CGRect?
    /// The image whose pixels are kept outside `region`.
    var base: CGImage?

    /// The largest backing store side, in pixels; larger layers display nothing.
    static let maximumSide = 16_384

    /// The pixel size of a backing store for `size` points at `scale`, or nil when it has no pixels or is
    /// too large.
    static func pixelSize(of size: CGSize, scale: CGFloat) -> (Int, Int)? {
        let w = (size.width * scale - 1e-9).rounded(.up), h = (size.height * scale - 1e-9).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= CGFloat(maximumSide), h <= CGFloat(maximumSide) else { return nil }
        return (Int(w), Int(h))
    }

    /// `region` cut to the bounds and rounded out to whole backing pixels; nil when nothing is left.
    func alignedRegion(_ region: CGRect) -> CGRect? {
        let cut = region.intersection(bounds)
        guard !cut.isNull, !cut.isEmpty else { return nil }
        let x0 = max(0, ((cut.minX - bounds.minX) * scale + 1e-9).rounded(.down))
        let y0 = max(0, ((cut.minY - bounds.minY) * scale + 1e-9).rounded(.down))
        let x1 = min(CGFloat(pixelWidth), ((cut.maxX - bounds.minX) * scale - 1e-9).rounded(.up))
        let y1 = min(CGFloat(pixelHeight), ((cut.maxY - bounds.minY) * scale - 1e-9).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        return CGRect(x: bounds.minX + x0 / scale, y: bounds.minY + y0 / scale, width: (x1 - x0) / scale, height: (y1 - y0) / scale)
    }

    /// Draws `layer` (its `draw(in:)`) into a new context and returns the image, nil when nothing
    /// visible was drawn (or the context could not be made).
    func draw(_ layer: CALayer) -> CGImage? {
        let alpha: CGImageAlphaInfo = isOpaque ? .noneSkipLast : .premultipliedLast
        guard let ctx = CGContext(data: nil, width: pixelWidth, height: pixelHeight, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: alpha.rawValue) else { return nil }
        if let base { ctx.surface.writePremultipliedRGBA(base.pixelData, bytesPerRow: base.bytesPerRow) }
        ctx.flipForLayerDrawing()
        ctx.scaleBy(x: scale, y: scale)
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        if let region {
            ctx.clip(to: region)
            ctx.clear(region)
        }
        layer.draw(in: ctx)
        guard let image = ctx.makeImage(), isOpaque || image.hasVisiblePixel else { return nil }
        guard let region, let base else { return image }
        // The aligned region is whole pixels: record them, so the renderer re-uploads only those.
        let x0 = Int(((region.minX - bounds.minX) * scale).rounded()), y0 = Int(((region.minY - bounds.minY) * scale).rounded())
        let x1 = Int(((region.maxX - bounds.minX) * scale).rounded()), y1 = Int(((region.maxY - bounds.minY) * scale).rounded())
        return CGImage(image, updating: PartialImageUpdate(base: base, x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    func description(of image: CGImage?) -> BackingStoreDescription {
        BackingStoreDescription(image: image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, bounds: bounds, isOpaque: isOpaque)
    }
}

extension CGImage {
    /// Whether any pixel has a nonzero alpha.
    var hasVisiblePixel: Bool {
        pixelData.withUnsafeBufferPointer { bytes in
            for y in 0..<height {
                var i = y * bytesPerRow + 3
                let end = y * bytesPerRow + width * 4
                while i < end {
                    if bytes[i] != 0 { return true }
                    i += 4
                }
            }
            return false
        }
    }
}

/// Which built-in properties of a layer class need display when they change (its
/// `needsDisplay(forKey:)`), asked once per class.
enum DisplayKeys {
    private static let tables = Mutex<[ObjectIdentifier: LayerPropertySet]>([:])

    static func builtinKeys(of layerClass: CALayer.Type) -> LayerPropertySet {
        let id = ObjectIdentifier(layerClass)
        if let keys = tables.withLock({ $0[id] }) { return keys }
        var keys = LayerPropertySet()
        for key in LayerPropertyKey.allCases where key != .animations && key != .sublayers && layerClass.needsDisplay(forKey: key.key) {
            keys.insert(key)
        }
        tables.withLock { $0[id] = keys }
        return keys
    }
}
