import Foundation

/// One kind of particle a `CAEmitterLayer` emits, with Core Animation's names and defaults.
///
/// Set the cells on the layer (`emitterCells`); the layer takes a snapshot of them then, as Core
/// Animation treats cells set on a layer as fixed: change a cell and set the array again. Times are
/// seconds, angles radians, lengths the emitter layer's points; ranges spread a value uniformly by ± the
/// range per particle, speeds change it per second of the particle's life.
/// A cell's own `emitterCells` are sub-emitters: every particle of the cell emits them while it lives,
/// from where it is. Cells are named so key paths reach them: `emitterCells.NAME.KEY` on the emitter layer
/// (`setValue(_:forKeyPath:)`, and animations of that key path) sets the named cell's numeric properties
/// and `color`; a name is looked for in sub-cells too.
/// Particles move in 3D: `emissionLatitude` lifts the direction out of the xy plane and `zAcceleration`
/// accelerates along z; the emitter layer flattens them into its plane unless it `preservesDepth`.
/// Does NOT (yet): the cell's own media timing (`beginTime`, `duration`, `speed`, …).
open class CAEmitterCell {
    public init() {}

    /// The name key paths use (`emitterCells.NAME.birthRate`).
    public var name: String?
    /// Whether the cell emits. Default true.
    public var isEnabled = true
    /// Particles per second. Default 0.
    public var birthRate: Float = 0
    /// Seconds a particle lives, and its spread. Default 0.
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    /// Initial speed in points per second, and its spread. Default 0.
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    /// Acceleration in points per second squared. Default 0.
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    /// Acceleration along z (towards the viewer), in points per second squared. Default 0.
    public var zAcceleration: CGFloat = 0
    /// Direction of emission in the xy plane (0 is +x; y grows down, so −π/2 is up), and the spread about it.
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0
    /// Elevation of the direction of emission out of the xy plane, towards +z (the viewer). Default 0.
    public var emissionLatitude: CGFloat = 0
    /// Rotation in radians per second, and its spread. Default 0.
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    /// Size multiplier of the contents, its spread, and its change per second. Default 1, 0, 0.
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    /// The colour the contents are multiplied by. Default opaque white.
    public var color: CGColor? = .white
    /// Spreads of the colour components, and their changes per second.
    public var redRange: Float = 0, greenRange: Float = 0, blueRange: Float = 0, alphaRange: Float = 0
    public var redSpeed: Float = 0, greenSpeed: Float = 0, blueSpeed: Float = 0, alphaSpeed: Float = 0
    /// The image a particle shows (a `CGImage`); nil draws nothing.
    public var contents: Any?
    /// The part of the image shown, in unit coordinates. Default the whole image.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var minificationFilter = CALayerContentsFilter.linear
    public var magnificationFilter = CALayerContentsFilter.linear
    /// Sub-emitters: cells each particle of this cell emits while it lives. Default nil.
    public var emitterCells: [CAEmitterCell]?

    /// Core Animation's class method: a new cell.
    open class func emitterCell() -> CAEmitterCell { CAEmitterCell() }

    /// Copies what key paths can change (`EmitterCells.setting`) from `values` into `cells`, pairwise,
    /// sub-cells too.
    static func update(_ cells: [CAEmitterCell], from values: [EmitterCellValue]) {
        for (cell, value) in zip(cells, values) {
            cell.birthRate = Float(value.birthRate)
            cell.lifetime = Float(value.lifetime)
            cell.lifetimeRange = Float(value.lifetimeRange)
            cell.velocity = CGFloat(value.velocity)
            cell.velocityRange = CGFloat(value.velocityRange)
            cell.xAcceleration = CGFloat(value.acceleration.x)
            cell.yAcceleration = CGFloat(value.acceleration.y)
            cell.zAcceleration = CGFloat(value.acceleration.z)
            cell.emissionLongitude = CGFloat(value.emissionLongitude)
            cell.emissionLatitude = CGFloat(value.emissionLatitude)
            cell.emissionRange = CGFloat(value.emissionRange)
            cell.spin = CGFloat(value.spin)
            cell.spinRange = CGFloat(value.spinRange)
            cell.scale = CGFloat(value.scale)
            cell.scaleRange = CGFloat(value.scaleRange)
            cell.scaleSpeed = CGFloat(value.scaleSpeed)
            cell.color = CGColor(red: CGFloat(value.color.x), green: CGFloat(value.color.y), blue: CGFloat(value.color.z),
                                 alpha: CGFloat(value.color.w))
            (cell.redRange, cell.greenRange, cell.blueRange, cell.alphaRange) =
                (Float(value.colorRange.x), Float(value.colorRange.y), Float(value.colorRange.z), Float(value.colorRange.w))
            (cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed) =
                (Float(value.colorSpeed.x), Float(value.colorSpeed.y), Float(value.colorSpeed.z), Float(value.colorSpeed.w))
            if let subcells = cell.emitterCells { update(subcells, from: value.subcells) }
        }
    }
}

/// An emitter cell as the render server holds it: immutable values, taken when the cells are set.
package struct EmitterCellValue: Sendable, Equatable {
    package var name: String?
    package var isEnabled: Bool
    package var birthRate: Double, lifetime: Double, lifetimeRange: Double
    package var velocity: Double, velocityRange: Double
    package var acceleration: SIMD3<Double>
    package var emissionLongitude: Double, emissionRange: Double, emissionLatitude: Double
    package var spin: Double, spinRange: Double
    package var scale: Double, scaleRange: Double, scaleSpeed: Double
    /// Straight RGBA, its spreads and its speeds.
    package var color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>
    package var contents: CGImage?
    package var contentsRect: CGRect
    package var minificationFilter: String, magnificationFilter: String
    /// Sub-emitters (`CAEmitterCell.emitterCells`), at most `maximumDepth` levels below the layer's cells.
    package var subcells: [EmitterCellValue]

    /// The deepest sub-emitters kept: cells nested deeper are left out (a hostile or cyclic tree).
    package static let maximumDepth = 4

    package init(_ cell: CAEmitterCell, depth: Int = 1) {
        name = cell.name
        func finite(_ value: Double, _ fallback: Double = 0) -> Double { value.isFinite ? value : fallback }
        isEnabled = cell.isEnabled
        birthRate = max(finite(Double(cell.birthRate)), 0)
        lifetime = max(finite(Double(cell.lifetime)), 0)
        lifetimeRange = finite(Double(cell.lifetimeRange))
        velocity = finite(Double(cell.velocity))
        velocityRange = finite(Double(cell.velocityRange))
        acceleration = SIMD3(finite(Double(cell.xAcceleration)), finite(Double(cell.yAcceleration)), finite(Double(cell.zAcceleration)))
        emissionLongitude = finite(Double(cell.emissionLongitude))
        emissionLatitude = finite(Double(cell.emissionLatitude))
        emissionRange = finite(Double(cell.emissionRange))
        spin = finite(Double(cell.spin))
        spinRange = finite(Double(cell.spinRange))
        scale = finite(Double(cell.scale), 1)
        scaleRange = finite(Double(cell.scaleRange))
        scaleSpeed = finite(Double(cell.scaleSpeed))
        let c = (cell.color ?? .white).rgba
        color = SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a))
        func finiteOrZero(_ v: SIMD4<Double>) -> SIMD4<Double> { v.x.isFinite && v.y.isFinite && v.z.isFinite && v.w.isFinite ? v : .zero }
        colorRange = finiteOrZero(SIMD4(Double(cell.redRange), Double(cell.greenRange), Double(cell.blueRange), Double(cell.alphaRange)))
        colorSpeed = finiteOrZero(SIMD4(Double(cell.redSpeed), Double(cell.greenSpeed), Double(cell.blueSpeed), Double(cell.alphaSpeed)))
        contents = cell.contents as? CGImage
        contentsRect = cell.contentsRect.isFiniteGeometry ? cell.contentsRect : CGRect(x: 0, y: 0, width: 1, height: 1)
        minificationFilter = cell.minificationFilter.rawValue
        magnificationFilter = cell.magnificationFilter.rawValue
        subcells = depth < Self.maximumDepth ? (cell.emitterCells ?? []).map { EmitterCellValue($0, depth: depth + 1) } : []
    }

    package static func == (lhs: EmitterCellValue, rhs: EmitterCellValue) -> Bool {
        lhs.name == rhs.name && lhs.subcells == rhs.subcells && lhs.isEnabled == rhs.isEnabled && lhs.birthRate == rhs.birthRate && lhs.lifetime == rhs.lifetime
            && lhs.lifetimeRange == rhs.lifetimeRange && lhs.velocity == rhs.velocity && lhs.velocityRange == rhs.velocityRange
            && lhs.acceleration == rhs.acceleration && lhs.emissionLongitude == rhs.emissionLongitude
            && lhs.emissionRange == rhs.emissionRange && lhs.emissionLatitude == rhs.emissionLatitude && lhs.spin == rhs.spin && lhs.spinRange == rhs.spinRange
            && lhs.scale == rhs.scale && lhs.scaleRange == rhs.scaleRange && lhs.scaleSpeed == rhs.scaleSpeed
            && lhs.color == rhs.color && lhs.colorRange == rhs.colorRange && lhs.colorSpeed == rhs.colorSpeed
            && lhs.contents === rhs.contents && lhs.contentsRect == rhs.contentsRect
            && lhs.minificationFilter == rhs.minificationFilter && lhs.magnificationFilter == rhs.magnificationFilter
    }
}

/// The cells of an emitter layer as a commit carries them.
package struct EmitterCells: Sendable, Equatable {
    package var cells: [EmitterCellValue]

    /// The value of `key` of the cell named `name` (searched depth first), for key paths
    /// (`emitterCells.NAME.KEY`); nil when no cell has that name or the key is not animatable.
    package func parameter(_ key: String, ofCellNamed name: String) -> AnimatableValue? {
        Self.find(name, in: cells).flatMap { path in
            var cell = cells[path[0]]
            for index in path.dropFirst() { cell = cell.subcells[index] }
            return cell.parameter(key)
        }
    }

    /// These cells with `key` of the cell named `name` set to `value`; nil when there is no such cell or
    /// key, or `value` has the wrong kind.
    package func setting(_ key: String, ofCellNamed name: String, to value: AnimatableValue) -> EmitterCells? {
        guard let path = Self.find(name, in: cells) else { return nil }
        func set(in cells: inout [EmitterCellValue], at path: ArraySlice<Int>) -> Bool {
            guard let index = path.first else { return false }
            if path.count == 1 { return cells[index].setParameter(key, to: value) }
            return set(in: &cells[index].subcells, at: path.dropFirst())
        }
        var result = self
        return set(in: &result.cells, at: path[...]) ? result : nil
    }

    /// The indices leading to the first cell named `name`, depth first.
    private static func find(_ name: String, in cells: [EmitterCellValue]) -> [Int]? {
        for (index, cell) in cells.enumerated() {
            if cell.name == name { return [index] }
            if let below = find(name, in: cell.subcells) { return [index] + below }
        }
        return nil
    }
}

extension EmitterCellValue {
    /// The numeric (and colour) properties key paths reach, by `CAEmitterCell` name.
    private static let scalarKeys: [String: WritableKeyPath<EmitterCellValue, Double> & Sendable] = [
        "birthRate": \.birthRate, "lifetime": \.lifetime, "lifetimeRange": \.lifetimeRange,
        "velocity": \.velocity, "velocityRange": \.velocityRange,
        "xAcceleration": \.acceleration.x, "yAcceleration": \.acceleration.y, "zAcceleration": \.acceleration.z,
        "emissionLongitude": \.emissionLongitude, "emissionRange": \.emissionRange, "emissionLatitude": \.emissionLatitude,
        "spin": \.spin, "spinRange": \.spinRange, "scale": \.scale, "scaleRange": \.scaleRange, "scaleSpeed": \.scaleSpeed,
        "redRange": \.colorRange.x, "greenRange": \.colorRange.y, "blueRange": \.colorRange.z, "alphaRange": \.colorRange.w,
        "redSpeed": \.colorSpeed.x, "greenSpeed": \.colorSpeed.y, "blueSpeed": \.colorSpeed.z, "alphaSpeed": \.colorSpeed.w,
    ]

    func parameter(_ key: String) -> AnimatableValue? {
        if key == "color" { return .color(color) }
        return Self.scalarKeys[key].map { .scalar(self[keyPath: $0]) }
    }

    /// Sets `key` to `value` (finite, of the key's kind; rates and lifetimes at least 0); false when not.
    mutating func setParameter(_ key: String, to value: AnimatableValue) -> Bool {
        switch (key, value) {
        case ("color", .color(let c)) where c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite:
            color = c
            return true
        case (_, .scalar(let v)) where v.isFinite:
            guard let path = Self.scalarKeys[key] else { return false }
            self[keyPath: path] = ["birthRate", "lifetime"].contains(key) ? max(v, 0) : v
            return true
        default:
            return false
        }
    }
}
