import Foundation
import LayerKit

/// LayerKit's `cube` (render-graph issue; not in SCENES.md, defined here to the same rules): a rotating
/// cube of six layers in a 3D rendering context, and two planes that intersect, rotating.
///
/// Window 1280×720, cleared to black. A full-window `stage` layer gives perspective to its sublayers:
/// `sublayerTransform.m34 = −1/800` (the eye 800 px in front of the stage's centre, (640, 360)).
/// Transforms below are row-vector, `p′ = p·M`, applied left to right; `Rx`, `Ry` are
/// `CATransform3DMakeRotation` about x and y (positive `Ry` takes +x toward −z, positive `Rx` takes +y
/// toward +z); `T` translates.
/// - Cube: centre (400, 360) in the stage, edge 240. Face `f` (240×240, opaque, single-sided so the
///   hidden half is culled) is `placement_f · R(t)` about the cube's centre, with placements
///   front `T(0,0,120)`, right `T(0,0,120)·Ry(π/2)`, back `T(0,0,120)·Ry(π)`, left `T(0,0,120)·Ry(−π/2)`,
///   top `T(0,0,120)·Rx(π/2)`, bottom `T(0,0,120)·Rx(−π/2)`, and the cube's rotation
///   `R(t) = Ry(2π·t/8)·Rx(−π/6)`: a turn every 8 s about its own vertical axis, tilted 30° so the top
///   face shows.
/// - Planes: two 320×200 translucent layers (alpha 0.7, double-sided) centred at (920, 360), plane `p`
///   (0, 1) transformed by `Ry(2π·t/10 + p·π/2)·Rx(−π/12)`: they cross at right angles along their
///   common vertical centre line, so drawing them correctly needs one of them split (a BSP tree).
///
/// Structure: stage → `CATransformLayer` "cube" at the cube's centre, `transform = Rx(−π/6)` and a
/// repeating `sublayerTransform.rotation.y` animation 0 → 2π over 8 s (so its sublayers see
/// `Ry(2π·t/8)·Rx(−π/6)` = `R(t)`) → the six faces at position (0, 0) with `transform = placement_f`;
/// and stage → `CATransformLayer` "planes" at the planes' centre, `transform = Rx(−π/12)`, a repeating
/// `sublayerTransform.rotation.y` 0 → 2π over 10 s → plane `p` at (0, 0) with `transform = Ry(p·π/2)`.
/// Both are 3D rendering contexts of the stage: the renderer sorts the faces and splits the crossing
/// planes. All motion is animation the render thread evaluates; nothing is committed per frame.
public final class CubeScene: BenchmarkScene {
    public static let name = "cube"
    public static let edge: CGFloat = 240
    public static let cubeCenter = CGPoint(x: 400, y: 360)
    public static let planeCenter = CGPoint(x: 920, y: 360)
    public static let planeSize = CGSize(width: 320, height: 200)
    /// The eye's distance from the stage: `m34 = −1/eyeDistance`.
    public static let eyeDistance: CGFloat = 800

    /// Face names, colours (opaque straight RGB) and placements about the cube's centre.
    public static let faces: [(name: String, color: SIMD3<Double>, placement: CATransform3D)] = {
        let out = CATransform3DMakeTranslation(0, 0, edge / 2)
        func turn(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat) -> CATransform3D {
            CATransform3DConcat(out, CATransform3DMakeRotation(angle, x, y, 0))
        }
        return [
            ("front", SIMD3(0.90, 0.22, 0.20), out),
            ("right", SIMD3(0.20, 0.70, 0.30), turn(.pi / 2, 0, 1)),
            ("back", SIMD3(0.20, 0.40, 0.90), turn(.pi, 0, 1)),
            ("left", SIMD3(0.95, 0.80, 0.20), turn(-.pi / 2, 0, 1)),
            ("top", SIMD3(0.85, 0.85, 0.85), turn(.pi / 2, 1, 0)),
            ("bottom", SIMD3(0.60, 0.25, 0.75), turn(-.pi / 2, 1, 0)),
        ]
    }()

    /// The two planes' colours (straight RGBA).
    public static let planeColors: [SIMD4<Double>] = [SIMD4(0.20, 0.80, 1.00, 0.7), SIMD4(1.00, 0.55, 0.10, 0.7)]

    public let root: CALayer
    /// The layer whose `sublayerTransform` holds the perspective.
    public let stage: CALayer
    /// The transform layer that turns the cube.
    public let cube: CATransformLayer
    /// The six faces, in `faces` order.
    public let faceLayers: [CALayer]
    /// The transform layer that turns the planes.
    public let planes: CATransformLayer
    /// The two planes.
    public let planeLayers: [CALayer]
    public var layerCount: Int { 3 + faceLayers.count + planeLayers.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        stage = CALayer()
        stage.name = "stage"
        BenchmarkScenes.place(stage, topLeft: .zero, size: BenchmarkScenes.windowSize)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / Self.eyeDistance
        stage.sublayerTransform = perspective
        root.addSublayer(stage)

        cube = CATransformLayer()
        cube.name = "cube"
        cube.position = Self.cubeCenter
        cube.transform = CATransform3DMakeRotation(-.pi / 6, 1, 0, 0)
        cube.add(PeriodicMotion.sawtooth("sublayerTransform.rotation.y", from: 0, to: 2 * .pi, period: 8, phase: 0,
                                         startTime: startTime), forKey: "turn")
        stage.addSublayer(cube)
        faceLayers = Self.faces.map { face in
            let layer = CALayer()
            layer.name = face.name
            layer.bounds = CGRect(x: 0, y: 0, width: Self.edge, height: Self.edge)
            layer.transform = face.placement
            layer.backgroundColor = CGColor(red: face.color.x, green: face.color.y, blue: face.color.z, alpha: 1)
            layer.isOpaque = true
            layer.isDoubleSided = false
            layer.allowsEdgeAntialiasing = true
            return layer
        }
        for layer in faceLayers { cube.addSublayer(layer) }

        planes = CATransformLayer()
        planes.name = "planes"
        planes.position = Self.planeCenter
        planes.transform = CATransform3DMakeRotation(-.pi / 12, 1, 0, 0)
        planes.add(PeriodicMotion.sawtooth("sublayerTransform.rotation.y", from: 0, to: 2 * .pi, period: 10, phase: 0,
                                           startTime: startTime), forKey: "turn")
        stage.addSublayer(planes)
        planeLayers = Self.planeColors.enumerated().map { index, color in
            let layer = CALayer()
            layer.name = "plane \(index)"
            layer.bounds = CGRect(origin: .zero, size: Self.planeSize)
            layer.transform = CATransform3DMakeRotation(CGFloat(index) * .pi / 2, 0, 1, 0)
            layer.backgroundColor = CGColor(red: color.x, green: color.y, blue: color.z, alpha: color.w)
            layer.allowsEdgeAntialiasing = true
            return layer
        }
        for layer in planeLayers { planes.addSublayer(layer) }
    }

    public func stopMotion() {
        cube.removeAllAnimations()
        planes.removeAllAnimations()
    }

    /// The cube's rotation at `t`: `Ry(2π·t/8)·Rx(−π/6)`.
    public static func cubeRotation(at t: CFTimeInterval) -> CATransform3D {
        CATransform3DConcat(CATransform3DMakeRotation(2 * .pi * CGFloat(t) / 8, 0, 1, 0), CATransform3DMakeRotation(-.pi / 6, 1, 0, 0))
    }

    /// Plane `index`'s transform at `t`: `Ry(2π·t/10 + index·π/2)·Rx(−π/12)`.
    public static func planeTransform(_ index: Int, at t: CFTimeInterval) -> CATransform3D {
        let angle = 2 * .pi * CGFloat(t) / 10 + CGFloat(index) * .pi / 2
        return CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 1, 0), CATransform3DMakeRotation(-.pi / 12, 1, 0, 0))
    }
}
