import XCTest
@testable import LayerKitRender

/// Where particles are born in 3D shapes: still particles stay where they were born, so every particle
/// must lie in (or on) the shape, worked out from its definition.
final class EmitterShapeTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    /// 401 still particles (born every 10 ms from 0 to 4 s inclusive, living 10 s) from an emitter at (100, 80, z 10).
    private func particles(_ configure: (CAEmitterLayer) -> Void) throws -> [EmitterParticles.Particle] {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 160)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 100, y: 80)
        emitter.emitterZPosition = 10
        emitter.emitterSize = CGSize(width: 100, height: 40)
        emitter.emitterDepth = 30
        configure(emitter)
        let cell = CAEmitterCell()
        cell.birthRate = 100
        cell.lifetime = 10
        cell.contents = TinyScene.solidImage(side: 2, (255, 255, 255, 255))
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        CATransaction.flush()
        let drawn = try XCTUnwrap(EmitterParticles(of: try XCTUnwrap(tree[emitter.layerID]), at: 4))
        XCTAssertEqual(drawn.count, 401)
        return drawn.groups[0].particles
    }

    private func offset(_ p: EmitterParticles.Particle) -> SIMD3<Double> {
        SIMD3(Double(p.center.x) - 100, Double(p.center.y) - 80, Double(p.z) - 10)
    }

    func testASphereOutlineBearsOnItsSurface() throws {
        let all = try particles { $0.emitterShape = .sphere; $0.emitterMode = .outline }
        for p in all {
            let d = offset(p)
            XCTAssertEqual((d * d).sum().squareRoot(), 50, accuracy: 1e-3, "radius emitterSize.width / 2")
        }
        XCTAssertTrue(all.contains { offset($0).z > 25 } && all.contains { offset($0).z < -25 }, "both hemispheres")
    }

    func testASphereVolumeBearsInsideAndFillsIt() throws {
        let all = try particles { $0.emitterShape = .sphere; $0.emitterMode = .volume }
        let radii = all.map { p -> Double in let d = offset(p); return (d * d).sum().squareRoot() }
        XCTAssertLessThanOrEqual(radii.max() ?? .infinity, 50 + 1e-3)
        // Uniform in the ball: the inner half radius holds 1/8 of the volume (401 × 1/8 ≈ 50, ± a lot).
        let inner = radii.filter { $0 < 25 }.count
        XCTAssertTrue((20...90).contains(inner), "\(inner) of 401 within half the radius")
    }

    func testACuboidBearsWithinItsSizeAndDepth() throws {
        let all = try particles { $0.emitterShape = .cuboid }
        for p in all {
            let d = offset(p)
            XCTAssertLessThanOrEqual(abs(d.x), 50 + 1e-3)
            XCTAssertLessThanOrEqual(abs(d.y), 20 + 1e-3)
            XCTAssertLessThanOrEqual(abs(d.z), 15 + 1e-3)
        }
        XCTAssertTrue(all.contains { offset($0).z > 10 } && all.contains { offset($0).z < -10 }, "spread through the depth")
    }

    func testARectangleAndACircleAreFlatAtTheEmittersZ() throws {
        for shape in [CAEmitterLayerEmitterShape.rectangle, .circle, .point, .line] {
            for p in try particles({ $0.emitterShape = shape }) {
                XCTAssertEqual(p.z, 10, "\(shape.rawValue)")
            }
        }
    }
}
