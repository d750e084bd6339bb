import Foundation

/// A particle system: Core Animation's `CAEmitterLayer`, emitting the particles of its `emitterCells`.
///
/// Particles are not layers: the render server works each one out from the layer's local time in closed
/// form — born at a steady rate from local time 0, moving by its velocity and
/// acceleration, turning by its spin, growing by its scale speed, changing colour by its speeds — so a
/// frame is the same for the same `seed` and time, whatever frames came before. Each particle's spreads
/// (the cells' ranges) are drawn from a hash of the seed, the cell and the particle's number. Particles
/// draw over the layer's background and contents and under its sublayers, in the layer's space,
/// `renderMode` deciding the order (`oldestFirst`, `oldestLast`, `backToFront` by their z, the
/// farthest first) and whether they add up (`additive`). As in Core Animation, an emitter whose local time is far from 0
/// shows its steady state at once; set `beginTime = CACurrentMediaTime()` to start it empty now.
/// Emitter shapes, centred on (`emitterPosition`, `emitterZPosition`): `point`; `line` (along x,
/// `emitterSize.width` long); `rectangle` (`emitterSize`, flat); `cuboid` (`emitterSize` by
/// `emitterDepth`); `circle` (flat) and `sphere` (radius `emitterSize.width / 2`). Modes: `points`,
/// `volume` and `surface` emit from anywhere inside the shape, `outline` from its edge (a sphere's
/// surface; a cuboid's sides, at any depth).
/// Particles move in 3D (`CAEmitterCell.emissionLatitude`, `zAcceleration`). The layer flattens them into
/// its plane, as any layer flattens its sublayers, unless it `preservesDepth`: then each is drawn at its
/// z through the superlayer's perspective. Depth-preserving particles are not split against other
/// layers of a 3D rendering context: they draw where the emitter layer draws, sorted among themselves.
/// Cells of cells are sub-emitters (`CAEmitterCell.emitterCells`); key paths into named cells
/// (`emitterCells.NAME.birthRate`) set and animate them.
open class CAEmitterLayer: CALayer {
    public override init() {
        super.init()
        didChangeCustomProperty(LayerRenderKind.propertyKey)
    }

    public required init(layer: Any) {
        super.init(layer: layer)
    }

    /// The cells emitted. Setting takes a snapshot of them (change a cell, then set the array again);
    /// `setValue(_:forKeyPath:)` with `emitterCells.NAME.KEY` changes the named cell in both.
    public var emitterCells: [CAEmitterCell]? {
        get {
            // Key-path changes went to the snapshot: the cells read back show them.
            if let objects = cellObjects, let snapshot = value(forKey: "emitterCells") as? EmitterCells {
                CAEmitterCell.update(objects, from: snapshot.cells)
            }
            return cellObjects
        }
        set {
            cellObjects = newValue
            setValue(EmitterCells(cells: (newValue ?? []).map { EmitterCellValue($0) }), forKey: "emitterCells")
        }
    }
    private var cellObjects: [CAEmitterCell]?

    /// Multipliers of every cell's birth rate, lifetime, velocity, scale and spin. Default 1.
    public var birthRate: Float {
        get { float("birthRate", 1) }
        set { setValue(newValue, forKey: "birthRate") }
    }
    public var lifetime: Float {
        get { float("lifetime", 1) }
        set { setValue(newValue, forKey: "lifetime") }
    }
    public var velocity: Float {
        get { float("velocity", 1) }
        set { setValue(newValue, forKey: "velocity") }
    }
    public var scale: Float {
        get { float("scale", 1) }
        set { setValue(newValue, forKey: "scale") }
    }
    public var spin: Float {
        get { float("spin", 1) }
        set { setValue(newValue, forKey: "spin") }
    }

    /// Where the shape's centre is, in the layer's space. Default (0, 0). Animatable.
    public var emitterPosition: CGPoint {
        get { (value(forKey: "emitterPosition") as? CGPoint) ?? .zero }
        set { setValue(newValue, forKey: "emitterPosition") }
    }
    /// The shape's size. Default (0, 0). Animatable.
    public var emitterSize: CGSize {
        get { (value(forKey: "emitterSize") as? CGSize) ?? .zero }
        set { setValue(newValue, forKey: "emitterSize") }
    }
    /// The z of the shape's centre, in the layer's space (towards the viewer). Default 0. Animatable.
    public var emitterZPosition: CGFloat {
        get { CGFloat(scalarValue(value(forKey: "emitterZPosition") as Any) ?? 0) }
        set { setValue(newValue, forKey: "emitterZPosition") }
    }
    /// The depth of a `cuboid` shape, along z. Default 0. Animatable.
    public var emitterDepth: CGFloat {
        get { CGFloat(scalarValue(value(forKey: "emitterDepth") as Any) ?? 0) }
        set { setValue(newValue, forKey: "emitterDepth") }
    }
    public var emitterShape: CAEmitterLayerEmitterShape {
        get { (value(forKey: "emitterShape") as? CAEmitterLayerEmitterShape) ?? .point }
        set { setValue(newValue, forKey: "emitterShape") }
    }
    public var emitterMode: CAEmitterLayerEmitterMode {
        get { (value(forKey: "emitterMode") as? CAEmitterLayerEmitterMode) ?? .volume }
        set { setValue(newValue, forKey: "emitterMode") }
    }
    public var renderMode: CAEmitterLayerRenderMode {
        get { (value(forKey: "renderMode") as? CAEmitterLayerRenderMode) ?? .unordered }
        set { setValue(newValue, forKey: "renderMode") }
    }
    /// Whether particles keep their z: drawn at their depth through the superlayer's perspective
    /// (`sublayerTransform.m34`) instead of flattened into the layer's plane. Default false.
    public var preservesDepth: Bool {
        get { (value(forKey: "preservesDepth") as? Bool) ?? false }
        set { setValue(newValue, forKey: "preservesDepth") }
    }
    /// The seed of the particles' spreads. Default 0.
    public var seed: UInt32 {
        get { UInt32(scalarValue(value(forKey: "seed") as Any).map { max(0, min($0, CGFloat(UInt32.max))) } ?? 0) }
        set { setValue(Double(newValue), forKey: "seed") }
    }

    private func float(_ key: String, _ fallback: Float) -> Float {
        scalarValue(value(forKey: key) as Any).map { Float($0) } ?? fallback
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "birthRate", "lifetime", "velocity", "scale", "spin": Float(1)
        case "emitterPosition": CGPoint.zero
        case "emitterSize": CGSize.zero
        case "emitterZPosition", "emitterDepth", "seed": CGFloat(0)
        case "emitterShape": CAEmitterLayerEmitterShape.point
        case "emitterMode": CAEmitterLayerEmitterMode.volume
        case "renderMode": CAEmitterLayerRenderMode.unordered
        case "preservesDepth": false
        default: super.defaultValue(forKey: key)
        }
    }
}

extension CAEmitterLayer: DeclaredLayerProperties {
    package static let declaredKeys = ["emitterCells", "birthRate", "lifetime", "velocity", "scale", "spin", "emitterPosition", "emitterSize",
                                       "emitterZPosition", "emitterDepth", "emitterShape", "emitterMode", "renderMode", "preservesDepth", "seed"]
    package static let implicitlyAnimatedKeys: Set<String> = ["birthRate", "lifetime", "velocity", "scale", "spin", "emitterPosition",
                                                              "emitterSize", "emitterZPosition", "emitterDepth"]
    package static let renderKind: LayerRenderKind? = .emitter
}

/// The shape particles are born in.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = Self(rawValue: "point")
    public static let line = Self(rawValue: "line")
    public static let rectangle = Self(rawValue: "rectangle")
    public static let cuboid = Self(rawValue: "cuboid")
    public static let circle = Self(rawValue: "circle")
    public static let sphere = Self(rawValue: "sphere")
}

/// Where in the shape particles are born.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = Self(rawValue: "points")
    public static let outline = Self(rawValue: "outline")
    public static let surface = Self(rawValue: "surface")
    public static let volume = Self(rawValue: "volume")
}

/// How particles are composited.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = Self(rawValue: "unordered")
    public static let oldestFirst = Self(rawValue: "oldestFirst")
    public static let oldestLast = Self(rawValue: "oldestLast")
    public static let backToFront = Self(rawValue: "backToFront")
    public static let additive = Self(rawValue: "additive")
}
