import Foundation

/// One kind of particle a `CAEmitterLayer` emits, with Core Animation's names and defaults.
///
/// Set the cells on the layer (`emitterCells`); the layer takes a snapshot of them then, as Core
/// Animation treats cells set on a layer as fixed: change a cell and set the array again. Times are
/// seconds, angles radians, lengths the emitter layer's points; ranges spread a value uniformly by ± the
/// range per particle, speeds change it per second of the particle's life.
/// Does NOT (yet): `emitterCells` of a cell (sub-emitters), `emissionLatitude`, `zAcceleration`, the
/// cell's own media timing (`beginTime`, `duration`, `speed`, …).
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
    /// Direction of emission in the xy plane (0 is +x; y grows down, so −π/2 is up), and the spread about it.
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0
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

    /// Core Animation's class method: a new cell.
    open class func emitterCell() -> CAEmitterCell { CAEmitterCell() }
}

/// An emitter cell as the render server holds it: immutable values, taken when the cells are set.
package struct EmitterCellValue: Sendable, Equatable {
    package var isEnabled: Bool
    package var birthRate: Double, lifetime: Double, lifetimeRange: Double
    package var velocity: Double, velocityRange: Double
    package var acceleration: SIMD2<Double>
    package var emissionLongitude: Double, emissionRange: Double
    package var spin: Double, spinRange: Double
    package var scale: Double, scaleRange: Double, scaleSpeed: Double
    /// Straight RGBA, its spreads and its speeds.
    package var color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>
    package var contents: CGImage?
    package var contentsRect: CGRect
    package var minificationFilter: String, magnificationFilter: String

    package init(_ cell: CAEmitterCell) {
        func finite(_ value: Double, _ fallback: Double = 0) -> Double { value.isFinite ? value : fallback }
        isEnabled = cell.isEnabled
        birthRate = max(finite(Double(cell.birthRate)), 0)
        lifetime = max(finite(Double(cell.lifetime)), 0)
        lifetimeRange = finite(Double(cell.lifetimeRange))
        velocity = finite(Double(cell.velocity))
        velocityRange = finite(Double(cell.velocityRange))
        acceleration = SIMD2(finite(Double(cell.xAcceleration)), finite(Double(cell.yAcceleration)))
        emissionLongitude = finite(Double(cell.emissionLongitude))
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
    }

    package static func == (lhs: EmitterCellValue, rhs: EmitterCellValue) -> Bool {
        lhs.isEnabled == rhs.isEnabled && lhs.birthRate == rhs.birthRate && lhs.lifetime == rhs.lifetime
            && lhs.lifetimeRange == rhs.lifetimeRange && lhs.velocity == rhs.velocity && lhs.velocityRange == rhs.velocityRange
            && lhs.acceleration == rhs.acceleration && lhs.emissionLongitude == rhs.emissionLongitude
            && lhs.emissionRange == rhs.emissionRange && lhs.spin == rhs.spin && lhs.spinRange == rhs.spinRange
            && lhs.scale == rhs.scale && lhs.scaleRange == rhs.scaleRange && lhs.scaleSpeed == rhs.scaleSpeed
            && lhs.color == rhs.color && lhs.colorRange == rhs.colorRange && lhs.colorSpeed == rhs.colorSpeed
            && lhs.contents === rhs.contents && lhs.contentsRect == rhs.contentsRect
            && lhs.minificationFilter == rhs.minificationFilter && lhs.magnificationFilter == rhs.magnificationFilter
    }
}

/// The cells of an emitter layer as a commit carries them.
package struct EmitterCells: Sendable, Equatable {
    package var cells: [EmitterCellValue]
}
