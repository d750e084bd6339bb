import Foundation

/// A layer whose content is drawn in tiles, on background threads, only where it is on screen and at
/// the resolution the current scale needs: Core Animation's `CATiledLayer`. For content far larger than
/// anything one image could hold — a 100,000 × 100,000-point map or document — that pans and zooms.
///
/// Subclass it and override `draw(in:)`, or give it a delegate that implements `draw(_:in:)`. The
/// drawing is called once per tile, on a worker thread, with a context whose clip
/// (`boundingBoxOfClipPath`) is the tile's rectangle in the layer's coordinates and whose transform
/// is scaled for the tile's level of detail: draw everything (or just what meets the clip, for speed)
/// and only the tile appears. It runs on a *copy* of the layer (`init(layer:)`, taken on the model
/// thread at the commit that requests the tile), so it must read only that layer and state that is safe
/// to read from any thread. `setNeedsDisplay()` and `setNeedsDisplay(_:)` redraw the tiles they touch
/// (shown until their replacements arrive); visible tiles that were never drawn are drawn without being
/// asked. `contents` is not used.
///
/// Properties (Core Animation's names and defaults): `tileSize` (256 × 256 pixels), `levelsOfDetail`
/// (1), `levelsOfDetailBias` (0), and the class's `fadeDuration()` (0.25 s, overridable). Levels: level
/// 0 draws at `contentsScale`; `levelsOfDetail` counts it and the levels of reduced detail under it
/// (½, ¼, … of its resolution), `levelsOfDetailBias` the magnified ones over it (2×, 4×, …). The level
/// shown is the coarsest whose resolution reaches the on-screen scale (`TileGrid`).
///
/// How it works (data flows one way, model → commit → render tree → render graph → backend):
/// - Visibility is decided on the model thread at each commit, in the display pass
///   (`TiledLayerScheduler.commitPass()`): from model geometry — presentation values while the layer or
///   an ancestor animates — through the layer's transforms and its ancestors' `masksToBounds` bounds up
///   to the root a host shows, in that host's viewport (the root's `HostViewports`, which `CARenderer` and the
///   window keep up to date), which also gives the on-screen scale (`TileVisibility`).
/// - The visible tiles of the needed level that are not drawn are queued for a bounded pool of worker
///   threads (`TileDrawingQueue`), nearest the centre first; a new commit replaces the queue, so tiles
///   that left the screen before being drawn are not drawn.
/// - Drawn tiles wait for the next commit (hosts commit again while tiles are pending), which puts them
///   in the layer's cache and recomputes what is needed. The cache is bounded (`tileCacheByteLimit`,
///   64 MiB by default); tiles unused for longest, at the levels farthest from the one in use and
///   farthest from the visible region are evicted first (`TileCache`). Nothing proportional to the
///   layer's size is allocated: work and memory follow the visible tiles.
/// - The drawn tiles overlapping the visible region travel with the commit as one immutable value
///   (`TiledContents`). The render server fades each newly arrived tile in over `fadeDuration()` from
///   the frame that first shows it, and keeps drawing coarser (or finer) tiles under places whose tiles
///   at the needed level are missing or still fading in, so zooming never flashes to empty. The render
///   thread never calls back into the model.
///
/// Does NOT: draw tiles for a tree no host shows; mirror its tiles under `isGeometryFlipped` ancestors
/// as backing stores are; draw its tiles for `renderInContext`-style snapshots synchronously; cancel a
/// drawing already running.
open class CATiledLayer: CALayer {
    /// The tiling state: cache, invalidations, what was last committed (model thread only).
    package let tiling = TiledLayerState()
    /// Whether this layer takes part in tiling (copies made by `init(layer:)` do not). Copies are released
    /// on worker threads and under the queues' locks, so their deinit must not reach the scheduler.
    private let isScheduled: Bool

    /// The time, in seconds, over which a newly drawn tile fades in. Default 0.25. Override in a subclass
    /// to change it (0: tiles appear at once).
    open class func fadeDuration() -> CFTimeInterval {
        0.25
    }

    public override init() {
        isScheduled = true
        super.init()
        TiledLayerScheduler.shared.register(self)
    }

    /// A copy for presentation or for drawing a tile: it takes the properties, not the tiles, and draws
    /// nothing of its own.
    public required init(layer: Any) {
        isScheduled = false
        super.init(layer: layer)
    }

    deinit {
        if isScheduled { TiledLayerScheduler.shared.unregister(layerID) }
    }

    /// The largest size of a tile, in pixels. Default 256 × 256. A size that is not positive and finite,
    /// The largest tile side accepted, in pixels: a tile is one image drawn on a worker and held in
    /// memory (4,096² × 4 bytes is 64 MiB, the default cache limit).
    public static let maximumTileSide: CGFloat = 4_096

    /// or a side above `maximumTileSide`, is refused with a diagnostic.
    public var tileSize: CGSize {
        get { (value(forKey: "tileSize") as? CGSize) ?? Self.defaultTileSize }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite, newValue.width >= 1, newValue.height >= 1,
                  newValue.width <= Self.maximumTileSide, newValue.height <= Self.maximumTileSide else {
                return LayerKitDiagnostics.emit(.invalidTiledLayerProperty(layer: diagnosticName, key: "tileSize", value: "\(newValue)"))
            }
            setValue(newValue, forKey: "tileSize")
        }
    }

    /// The number of levels of full and reduced detail: level 0 and the levels at ½, ¼, … of its
    /// resolution. Default 1. Clamped so the coarsest level still has a pixel a side; below 1 is refused
    /// with a diagnostic.
    public var levelsOfDetail: Int {
        get { integerValue(forKey: "levelsOfDetail") ?? 1 }
        set {
            guard newValue >= 1 else {
                return LayerKitDiagnostics.emit(.invalidTiledLayerProperty(layer: diagnosticName, key: "levelsOfDetail", value: "\(newValue)"))
            }
            setValue(newValue, forKey: "levelsOfDetail")
        }
    }

    /// The number of magnified levels of detail, at 2×, 4×, … the resolution of level 0. Default 0;
    /// negative values are refused with a diagnostic.
    public var levelsOfDetailBias: Int {
        get { integerValue(forKey: "levelsOfDetailBias") ?? 0 }
        set {
            guard newValue >= 0 else {
                return LayerKitDiagnostics.emit(.invalidTiledLayerProperty(layer: diagnosticName, key: "levelsOfDetailBias", value: "\(newValue)"))
            }
            setValue(newValue, forKey: "levelsOfDetailBias")
        }
    }

    /// The most bytes of tile pixels the layer keeps (an extension: Core Animation does not say). Default
    /// 64 MiB. At least one tile is always kept; fewer visible tiles than the screen needs are drawn when
    /// the limit is lower than that (with a `tiledLayerTileLimit` diagnostic).
    public var tileCacheByteLimit: Int {
        get { tiling.byteLimit }
        set { tiling.byteLimit = newValue }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "tileSize": defaultTileSize
        case "levelsOfDetail": 1
        case "levelsOfDetailBias": 0
        default: super.defaultValue(forKey: key)
        }
    }

    /// Invalidates the tiles of the region marked by `setNeedsDisplay(_:)` (everything for
    /// `setNeedsDisplay()`); the commit that runs it requests their redrawing.
    open override func display() {
        guard !isPresentationCopy else { return }
        tiling.invalidate(displayState?.redrawRect)
    }

    private static let defaultTileSize = CGSize(width: 256, height: 256)

    private func integerValue(forKey key: String) -> Int? {
        let raw = value(forKey: key)
        if let integer = raw as? Int { return integer }
        return raw.flatMap(scalarValue).map { Int($0) }
    }
}

extension CATiledLayer {
    /// The tile grid of the current properties, with out-of-range values (set through key-value coding)
    /// replaced by their defaults.
    package var tileGrid: TileGrid {
        var size = tileSize
        if !(size.width.isFinite && size.height.isFinite && size.width >= 1 && size.height >= 1
             && size.width <= Self.maximumTileSide && size.height <= Self.maximumTileSide) { size = Self.defaultTileSize }
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        return TileGrid(tileSize: CGSize(width: size.width.rounded(), height: size.height.rounded()), contentsScale: scale,
                        bounds: bounds, levelsOfDetail: max(1, levelsOfDetail), levelsOfDetailBias: max(0, levelsOfDetailBias))
    }

    /// Stores the tiles to show and records the change for the commit (no action runs: it is not a
    /// property anyone animates).
    func storeTiledContents(_ contents: TiledContents) {
        storage[.custom(TiledContents.propertyKey)] = contents
        didChangeCustomProperty(TiledContents.propertyKey)
    }
}
