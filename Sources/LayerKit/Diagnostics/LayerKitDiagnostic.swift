/// Everything LayerKit reports about input it refused or repaired, as named values (not free text), so
/// that tests can assert on them and logs can be filtered by case.
///
/// Emitted through `LayerKitDiagnostics.emit(_:)`, which logs through swift-log with the case name as
/// metadata and hands the value to any observers (tests use `DiagnosticCapture`).
public enum LayerKitDiagnostic: Equatable, Sendable, CustomStringConvertible {
    /// A NaN or infinite value was set on a geometric property; the previous value stays.
    case nonFiniteGeometry(layer: String, keyPath: String)
    /// Adding `child` under `parent` would make the tree a cycle; the tree is unchanged.
    case hierarchyCycleRefused(child: String, parent: String)
    /// A layer was set as its own mask, or as the mask of one of its descendants; nothing changed.
    case selfMaskRefused(layer: String)
    /// A layer that is some layer's mask was added as a sublayer (or the reverse); nothing changed.
    case maskInHierarchyRefused(layer: String)
    /// A sublayer edit named an index or sibling that does not exist; nothing changed.
    case invalidSublayerEdit(layer: String, reason: String)
    /// `value(forKeyPath:)` / `setValue(_:forKeyPath:)` named a sub-path the property does not have.
    case unknownKeyPath(keyPath: String)
    /// A value of the wrong type was set for a key path; the previous value stays.
    case valueTypeMismatch(keyPath: String, expected: String, got: String)
    /// A path operation got a NaN or infinite coordinate; the path is unchanged.
    case nonFinitePathGeometry(operation: String)
    /// A path operation could not apply (no current point, a negative radius); the path is unchanged.
    case invalidPathOperation(operation: String, reason: String)
    /// A CGContext call got an argument it cannot use (a negative line width, an all-zero dash, an
    /// unsupported bitmap layout, a restore without a save); the context is unchanged, or not created.
    case invalidContextArgument(operation: String, reason: String)
    /// Cairo reported an error while a CGContext drew; later drawing on that context does nothing.
    case drawingFailed(operation: String, reason: String)
    /// A font family is not installed; text is drawn with `fallback` instead.
    case unknownFont(requested: String, fallback: String)
    /// A blend mode the drawing backend cannot composite; `fallback` is used instead.
    case unsupportedBlendMode(mode: String, fallback: String)
    /// A `CAConstraint` of `layer` reads `source` on an axis whose own layout depends, through other
    /// constraints, on `layer` again; that constraint is ignored in this layout and the rest are applied.
    case constraintCycleRefused(layer: String, source: String, attribute: String)
    /// A `CAConstraint` of `layer` names a source that is neither "superlayer" nor a sibling's name; it is
    /// ignored.
    case unknownConstraintSource(layer: String, source: String)
    /// Layout kept marking layers as needing layout after `rounds` passes (a `layoutSublayers()` that
    /// invalidates its own layout); the layers still marked wait for the next commit.
    case layoutDidNotSettle(layers: [String], rounds: Int)
    /// A `CATiledLayer` property got a value it cannot use (a tile size that is not positive and finite,
    /// fewer than one level of detail, a negative bias); the previous value stays.
    case invalidTiledLayerProperty(layer: String, key: String, value: String)
    /// More tiles of a `CATiledLayer` are visible than its tile cache holds (`tileCacheByteLimit`): only
    /// the `limit` nearest the visible region's centre are drawn. Reported once per layer.
    case tiledLayerTileLimit(layer: String, visible: Int, limit: Int)
    /// The device had no memory for a frame's offscreen surfaces even after the renderer's pools and
    /// caches were trimmed: `surfaces` offscreen passes were drawn straight into their targets instead
    /// (group opacity per draw, masks unapplied), and the frame still rendered.
    case offscreenRenderingDegraded(surfaces: Int, reason: String)
    /// `CIFilter(name:)` was asked for a filter type LayerKit does not know; it returned nil.
    case unknownFilter(name: String)
    /// A filter parameter was refused: the type has no such key, or the value is of another kind.
    case invalidFilterParameter(filter: String, key: String, reason: String)
    /// A layer was given a filter the renderer stores and animates but does not draw (a type outside
    /// `CIFilter.drawnFilters`, an entry that is not a `CIFilter`, or any background or compositing filter
    /// for now): the layer draws without it.
    case filterNotDrawn(filter: String, property: String)
    /// A layer property was set to a value the renderer stores but does not draw (a replicator's or
    /// emitter's `preservesDepth`, an emitter's `emitterZPosition` or `emitterDepth`): the layer draws as if
    /// it had its default.
    case propertyNotDrawn(layer: String, key: String, drawnAs: String)
    /// A layer's `backgroundFilters` are drawn inside an app's render pass (`CARenderer.render(inRenderPassOf:)`),
    /// where the app's pixels of that pass are not drawn yet when LayerKit's offscreen passes run: the
    /// backdrop holds only what LayerKit draws behind the layer, not the app's frame. Draw such frames over
    /// the app's image after its pass instead (a `VulkanTarget` with `initialLayout`). Reported once per renderer.
    case backdropWithoutAppPixels(layer: String)
    /// A `CIColorKernel`'s source did not compile (`line` of the kernel's source, when glslang named one);
    /// layers draw without the filter. Reported once per kernel.
    case kernelCompileFailed(kernel: String, line: Int?, message: String)

    /// The case name, used as log metadata and for filtering.
    public var name: String {
        switch self {
        case .nonFiniteGeometry: "nonFiniteGeometry"
        case .hierarchyCycleRefused: "hierarchyCycleRefused"
        case .selfMaskRefused: "selfMaskRefused"
        case .maskInHierarchyRefused: "maskInHierarchyRefused"
        case .invalidSublayerEdit: "invalidSublayerEdit"
        case .unknownKeyPath: "unknownKeyPath"
        case .valueTypeMismatch: "valueTypeMismatch"
        case .nonFinitePathGeometry: "nonFinitePathGeometry"
        case .invalidPathOperation: "invalidPathOperation"
        case .invalidContextArgument: "invalidContextArgument"
        case .drawingFailed: "drawingFailed"
        case .unknownFont: "unknownFont"
        case .unsupportedBlendMode: "unsupportedBlendMode"
        case .constraintCycleRefused: "constraintCycleRefused"
        case .unknownConstraintSource: "unknownConstraintSource"
        case .layoutDidNotSettle: "layoutDidNotSettle"
        case .invalidTiledLayerProperty: "invalidTiledLayerProperty"
        case .tiledLayerTileLimit: "tiledLayerTileLimit"
        case .offscreenRenderingDegraded: "offscreenRenderingDegraded"
        case .unknownFilter: "unknownFilter"
        case .invalidFilterParameter: "invalidFilterParameter"
        case .filterNotDrawn: "filterNotDrawn"
        case .kernelCompileFailed: "kernelCompileFailed"
        case .propertyNotDrawn: "propertyNotDrawn"
        case .backdropWithoutAppPixels: "backdropWithoutAppPixels"
        }
    }

    public var description: String {
        switch self {
        case let .nonFiniteGeometry(layer, keyPath):
            "\(layer): refused a non-finite value for '\(keyPath)'; the previous value stays"
        case let .hierarchyCycleRefused(child, parent):
            "refused to add \(child) under \(parent): \(child) is \(parent) or one of its ancestors, which would make a cycle"
        case let .selfMaskRefused(layer):
            "\(layer): refused to use the layer (or an ancestor of its mask's owner) as its own mask"
        case let .maskInHierarchyRefused(layer):
            "refused: \(layer) cannot be both a mask and a sublayer"
        case let .invalidSublayerEdit(layer, reason):
            "\(layer): sublayer edit refused: \(reason)"
        case let .unknownKeyPath(keyPath):
            "unknown key path '\(keyPath)'"
        case let .valueTypeMismatch(keyPath, expected, got):
            "'\(keyPath)' expects \(expected), got \(got); the previous value stays"
        case let .nonFinitePathGeometry(operation):
            "CGMutablePath.\(operation): refused a non-finite coordinate; the path is unchanged"
        case let .invalidPathOperation(operation, reason):
            "CGMutablePath.\(operation): \(reason); the path is unchanged"
        case let .invalidContextArgument(operation, reason):
            "CGContext.\(operation): \(reason); nothing changed"
        case let .drawingFailed(operation, reason):
            "CGContext.\(operation): Cairo failed: \(reason); later drawing on this context is ignored"
        case let .unknownFont(requested, fallback):
            "font '\(requested)' is not installed; drawing with '\(fallback)' instead"
        case let .unsupportedBlendMode(mode, fallback):
            "blend mode .\(mode) is not supported by the drawing backend; using .\(fallback) instead"
        case let .constraintCycleRefused(layer, source, attribute):
            "\(layer): constraint on \(attribute) relative to '\(source)' closes a cycle of constraints; it is ignored in this layout"
        case let .unknownConstraintSource(layer, source):
            "\(layer): constraint source '\(source)' is neither \"superlayer\" nor the name of a sibling; the constraint is ignored"
        case let .layoutDidNotSettle(layers, rounds):
            "layout did not settle after \(rounds) rounds: \(layers.joined(separator: ", ")) still need layout and wait for the next commit"
        case let .invalidTiledLayerProperty(layer, key, value):
            "\(layer): refused \(value) for CATiledLayer.\(key); the previous value stays"
        case let .tiledLayerTileLimit(layer, visible, limit):
            "\(layer): \(visible) tiles are visible but the tile cache holds \(limit); only the \(limit) nearest the centre are drawn (raise tileCacheByteLimit or levelsOfDetail)"
        case let .offscreenRenderingDegraded(surfaces, reason):
            "out of device memory for offscreen surfaces (\(reason)) after trimming pools and caches; \(surfaces) offscreen passes drawn directly, without isolation, this frame"
        case let .unknownFilter(name):
            "CIFilter(name: \"\(name)\"): LayerKit knows no such filter (CIFilter.knownFilters); returned nil"
        case let .invalidFilterParameter(filter, key, reason):
            "\(filter).\(key): refused (\(reason)); the parameter keeps its value"
        case let .filterNotDrawn(filter, property):
            "\(property): \(filter) is stored and animated but not drawn by this renderer; the layer draws without it"
        case let .propertyNotDrawn(layer, key, drawnAs):
            "\(layer).\(key) is stored but not drawn by this renderer; it draws as \(drawnAs)"
        case let .backdropWithoutAppPixels(layer):
            "\(layer): background filters drawn inside the app's render pass see only LayerKit's draws behind the layer, not the app's pixels (not drawn yet when LayerKit's offscreen passes run); draw over the app's image after its pass to blur them"
        case let .kernelCompileFailed(kernel, line, message):
            "CIColorKernel '\(kernel)'\(line.map { " line \($0)" } ?? ""): \(message); layers draw without it"
        }
    }
}
