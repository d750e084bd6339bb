import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CAEmitterLayer`: particles where their velocity, acceleration and spin put them, worked out by hand.
///
/// Particles are born from the emitter layer's local time 0: each scene sets its `beginTime`, so a frame
/// at beginTime + t shows the emitter t seconds in.
final class EmitterRenderTests: CARendererTestCase {
    /// A `side`×`side` opaque white image.
    func white(_ side: Int) -> CGImage { makeImage(width: side, height: side) { _, _ in .white } }

    /// An emitter at (0, 0) covering the target, emitting `cell` from `position`; returns its time 0.
    func scene(_ cell: CAEmitterCell, at position: CGPoint, configure: (CAEmitterLayer) -> Void = { _ in }) -> (CALayer, CFTimeInterval) {
        let root = makeRoot(width: 96, height: 64)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = position
        configure(emitter)
        let start: CFTimeInterval = 1000
        emitter.beginTime = start
        root.addSublayer(emitter)
        emitter.emitterCells = [cell]
        return (root, start)
    }

    func testParticlesMoveByVelocityAndAcceleration() throws {
        // One particle a second, 20 pt/s along +x, 10 pt/s² down. At 2.5 s: ages 2.5, 1.5, 0.5 at
        // x = 10 + 20a, y = 10 + 5a²: (60, 41.25), (40, 21.25), (20, 11.25).
        let cell = CAEmitterCell()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.velocity = 20
        cell.yAcceleration = 10
        cell.contents = white(4)
        let (root, start) = scene(cell, at: CGPoint(x: 10, y: 10))
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer, atTime: start + 2.5)
        assertPixels(image, "ballistic", tolerance: 1, probes: [
            Probe("oldest", 60, 41, .white), Probe("middle", 40, 21, .white), Probe("newest", 20, 11, .white),
            Probe("between", 30, 16, .clear), Probe("not yet born", 0, 0, .clear),
        ])
        XCTAssertEqual(renderer.lastFrameStatistics.instances, 3)
        XCTAssertEqual(renderer.lastFrameStatistics.particlesDrawn, 3)
    }

    func testASubEmitterEmitsFromWhereItsParentParticleIs() throws {
        // The parent cell has no image: its particles (one a second, 20 pt/s along +x from (10, 10), living
        // 1.2 s) only emit. Each emits a still 4×4 sub-particle every 0.5 s of its life, living 10 s.
        // At 2.25 s: parents 0 and 1 (born at 0 and 1) each emitted at ages 0, 0.5 and 1.0 — x = 10, 20,
        // 30 — and died at age 1.2; parent 2 (born at 2) at age 0 — x = 10. Seven sub-particles in three
        // places, nothing where parent 0 would have been at 2.25 s (x = 55) or past its death (x = 34+).
        let parent = CAEmitterCell()
        parent.birthRate = 1
        parent.lifetime = 1.2
        parent.velocity = 20
        let child = CAEmitterCell()
        child.birthRate = 2
        child.lifetime = 10
        child.contents = white(4)
        parent.emitterCells = [child]
        let (root, start) = scene(parent, at: CGPoint(x: 10, y: 10))
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer, atTime: start + 2.25)
        assertPixels(image, "sub-particles", tolerance: 1, probes: [
            Probe("at x 10", 10, 10, .white), Probe("at x 20", 20, 10, .white), Probe("at x 30", 30, 10, .white),
            Probe("between", 25, 10, .clear), Probe("no parent drawn", 55, 10, .clear), Probe("not past the parent's death", 40, 10, .clear),
        ])
        XCTAssertEqual(renderer.lastFrameStatistics.particlesDrawn, 7)
    }

    func testParticlesStayWhereAMovingEmitterBoreThem() throws {
        // The emitter moves from x 10 to 90 over its first second (linear); still particles, four a
        // second. At 0.9 s they lie where it was at their births — x = 10 + 80b for b = 0, 0.25, 0.5, 0.75:
        // 10, 30, 50, 70 — not all where it is now (82).
        let cell = CAEmitterCell()
        cell.birthRate = 4
        cell.lifetime = 10
        cell.contents = white(4)
        let (root, start) = scene(cell, at: CGPoint(x: 90, y: 10))
        let emitter = try XCTUnwrap(root.sublayers?.first as? CAEmitterLayer)
        let move = CABasicAnimation(keyPath: "emitterPosition")
        move.fromValue = CGPoint(x: 10, y: 10)
        move.toValue = CGPoint(x: 90, y: 10)
        move.duration = 1
        move.beginTime = 1e-9  // just after the emitter's local time 0 (0 would mean "now")
        move.fillMode = .backwards
        emitter.add(move, forKey: "move")
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer, atTime: start + 0.9)
        assertPixels(image, "trail", tolerance: 1, probes: [
            Probe("born at 0", 10, 10, .white), Probe("born at 0.25", 30, 10, .white), Probe("born at 0.5", 50, 10, .white),
            Probe("born at 0.75", 70, 10, .white), Probe("between", 40, 10, .clear), Probe("not where it is now", 82, 10, .clear),
        ])
        XCTAssertEqual(renderer.lastFrameStatistics.particlesDrawn, 4)
    }

    func testACellsPropertiesAnimateThroughItsKeyPath() throws {
        // Key path emitterCells.dot.velocity: set to 40 in the model, animated from 0 to 40 over the
        // emitter's local times 0.25…1.25, linearly (one particle, born at 0, birth rate 0.5 a second,
        // lifetime 10). The velocity is the cell's at the frame's time, applied to the particle's whole
        // age (closed form): at 0.75 s, 20 pt/s × 0.75 s = 15 pt from x = 10; the model would put it at 40.
        let cell = CAEmitterCell()
        cell.name = "dot"
        cell.birthRate = 0.5
        cell.lifetime = 10
        cell.contents = white(4)
        let (root, start) = scene(cell, at: CGPoint(x: 10, y: 10))
        let emitter = try XCTUnwrap(root.sublayers?.first as? CAEmitterLayer)
        emitter.setValue(40, forKeyPath: "emitterCells.dot.velocity")
        XCTAssertEqual(emitter.value(forKeyPath: "emitterCells.dot.velocity") as? CGFloat, 40)
        XCTAssertEqual(emitter.emitterCells?.first?.velocity, 40, "the cell reads back the key path's change")
        let speedUp = CABasicAnimation(keyPath: "emitterCells.dot.velocity")
        speedUp.fromValue = 0
        speedUp.toValue = 40
        speedUp.duration = 1
        speedUp.beginTime = 0.25  // in the emitter's local time
        emitter.add(speedUp, forKey: "speed up")
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let halfway = try renderFrame(renderer, atTime: start + 0.75)
        assertPixels(halfway, "halfway", tolerance: 1, probes: [Probe("moved 15", 25, 10, .white), Probe("not at the model's 40", 40, 10, .clear)])
        let after = try renderFrame(renderer, atTime: start + 1.5)
        assertPixels(after, "after", tolerance: 1, probes: [Probe("the model's 40 × 1.5", 70, 10, .white), Probe("start", 10, 10, .clear)])
    }

    func testAParticleTurnsBySpinAndDiesAtItsLifetime() throws {
        // A 12×2 bar born at (48, 32), not moving, spinning π/2 per second: at age 1 it stands upright.
        // Lifetime 1.5: at age 2 it is gone.
        let bar = makeImage(width: 12, height: 2) { _, _ in .white }
        let cell = CAEmitterCell()
        cell.birthRate = 0.5  // one particle, born at 0; the next at 2 s
        cell.lifetime = 1.5
        cell.spin = .pi / 2
        cell.contents = bar
        let (root, start) = scene(cell, at: CGPoint(x: 48, y: 32))
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let upright = try renderFrame(renderer, atTime: start + 1)
        assertPixels(upright, "upright", tolerance: 1, probes: [
            Probe("above the centre", 48, 27, .white), Probe("below the centre", 47, 36, .white),
            Probe("left, where it lay", 43, 32, .clear), Probe("right, where it lay", 52, 32, .clear),
        ])
        let gone = try renderFrame(renderer, atTime: start + 1.9)
        XCTAssertEqual(PixelRGBA(gone, 48, 27), .clear)
    }

    func testTheSameSeedAndTimeDrawTheSameFrame() throws {
        let cell = CAEmitterCell()
        cell.birthRate = 40
        cell.lifetime = 2
        cell.velocity = 30
        cell.velocityRange = 20
        cell.emissionRange = .pi
        cell.spinRange = 3
        cell.contents = white(3)
        func frame(seed: UInt32) throws -> CGImage {
            let (root, start) = scene(cell, at: CGPoint(x: 48, y: 32)) { $0.seed = seed }
            let renderer = try makeRenderer(width: 96, height: 64)
            renderer.layer = root
            return try renderFrame(renderer, atTime: start + 1.25)
        }
        func pixels(_ image: CGImage) -> [PixelRGBA] { (0..<64).flatMap { y in (0..<96).map { PixelRGBA(image, $0, y) } } }
        let a = try pixels(frame(seed: 7)), b = try pixels(frame(seed: 7)), c = try pixels(frame(seed: 8))
        XCTAssertEqual(a, b, "the same seed at the same time")
        XCTAssertGreaterThan(zip(a, c).filter { $0.difference(to: $1) > 8 }.count, 40, "another seed spreads particles otherwise")
    }

    func testAdditiveParticlesAddUp() throws {
        // Two particles, born 1 s apart at the same point and not moving, half-transparent grey each:
        // additive, they add to 0.5 + 0.5; otherwise source-over gives 0.5 + 0.5 × 0.5.
        let cell = CAEmitterCell()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.color = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        cell.contents = white(6)
        for additive in [false, true] {
            let (root, start) = scene(cell, at: CGPoint(x: 20, y: 20)) { $0.renderMode = additive ? .additive : .oldestFirst }
            let renderer = try makeRenderer(width: 96, height: 64)
            renderer.layer = root
            let image = try renderFrame(renderer, atTime: start + 1.5)
            let alpha = additive ? 1.0 : 0.75
            XCTAssertLessThanOrEqual(PixelRGBA(image, 20, 20).difference(to: PixelRGBA(premultiplied: alpha, alpha, alpha, alpha)), 1,
                                     "additive \(additive): \(PixelRGBA(image, 20, 20))")
        }
    }

    /// An emitter inside a 96×64 container whose `sublayerTransform` has perspective m34 = −1/100 (the eye
    /// 100 pt in front, looking at the container's centre (48, 32)).
    func perspectiveScene(_ cell: CAEmitterCell, at position: CGPoint, z: CGFloat,
                          configure: (CAEmitterLayer) -> Void) -> (CALayer, CFTimeInterval) {
        let root = makeRoot(width: 96, height: 64)
        let container = CALayer()
        container.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 100
        container.sublayerTransform = perspective
        root.addSublayer(container)
        let emitter = CAEmitterLayer()
        emitter.frame = container.bounds
        emitter.emitterPosition = position
        emitter.emitterZPosition = z
        configure(emitter)
        let start: CFTimeInterval = 1000
        emitter.beginTime = start
        container.addSublayer(emitter)
        emitter.emitterCells = [cell]
        return (root, start)
    }

    func testADepthPreservingEmitterDrawsParticlesAtTheirDepthInPerspective() throws {
        // One still 4×4 particle at (68, 32, z 50), 20 pt right of the centre. Flattened, it lies in the
        // emitter's plane: at (68, 32), 4 pt wide. Keeping its depth, w = 1 − 50/100 = 0.5 through the
        // perspective: 20 / 0.5 = 40 pt right of the centre, at (88, 32), and 8 pt wide.
        let cell = CAEmitterCell()
        cell.birthRate = 0.5
        cell.lifetime = 10
        cell.contents = white(4)
        for preservesDepth in [false, true] {
            let (root, start) = perspectiveScene(cell, at: CGPoint(x: 68, y: 32), z: 50) { $0.preservesDepth = preservesDepth }
            let renderer = try makeRenderer(width: 96, height: 64)
            renderer.layer = root
            let image = try renderFrame(renderer, atTime: start + 1)
            if preservesDepth {
                assertPixels(image, "at depth", tolerance: 1, probes: [
                    Probe("centre", 88, 32, .white), Probe("3 pt up-left: inside 8 pt", 85, 29, .white),
                    Probe("3 pt down-right", 90, 34, .white), Probe("5 pt left: outside", 83, 32, .clear),
                    Probe("where flat would be", 68, 32, .clear),
                ])
            } else {
                assertPixels(image, "flattened", tolerance: 1, probes: [
                    Probe("centre", 68, 32, .white), Probe("3 pt left: outside 4 pt", 65, 32, .clear),
                    Probe("where depth would be", 88, 32, .clear),
                ])
            }
        }
    }

    func testLatitudeAndZAccelerationMoveParticlesOutOfThePlane() throws {
        // Velocity 40 at latitude π/3 along +x: 20 pt/s in the plane and 34.6 pt/s towards the viewer;
        // zAcceleration does not move a flattened particle in the plane. At age 1 (born at 0, next at 2 s):
        // x = 20 + 20 = 40.
        let cell = CAEmitterCell()
        cell.birthRate = 0.5
        cell.lifetime = 10
        cell.velocity = 40
        cell.emissionLatitude = .pi / 3
        cell.zAcceleration = 500
        cell.contents = white(4)
        let (root, start) = scene(cell, at: CGPoint(x: 20, y: 20))
        let renderer = try makeRenderer(width: 96, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer, atTime: start + 1)
        assertPixels(image, "in the plane", tolerance: 1, probes: [
            Probe("20 pt along x", 40, 20, .white), Probe("where the full speed would put it", 60, 20, .clear),
            Probe("the birth point", 20, 20, .clear),
        ])
    }

    func testBackToFrontDrawsTheNearestParticleLast() throws {
        // Particles born at 0, 1 and 2 s at one point, moving only towards the viewer (latitude π/2) at
        // 10 pt/s, so the oldest is nearest. Green turning red by 0.5 a second: at 2.5 s ages 2.5, 1.5 and
        // 0.5 are red (1, 0, 0), (0.75, 0.25, 0) and (0.25, 0.75, 0). Flattened, they cover one another:
        // oldest first shows the newest on top; back to front the nearest, the oldest.
        let cell = CAEmitterCell()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.velocity = 10
        cell.emissionLatitude = .pi / 2
        cell.color = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        cell.redSpeed = 0.5
        cell.greenSpeed = -0.5
        cell.contents = white(4)
        for mode in [CAEmitterLayerRenderMode.oldestFirst, .backToFront] {
            let (root, start) = scene(cell, at: CGPoint(x: 30, y: 30)) { $0.renderMode = mode }
            let renderer = try makeRenderer(width: 96, height: 64)
            renderer.layer = root
            let image = try renderFrame(renderer, atTime: start + 2.5)
            let expected = mode == .backToFront ? PixelRGBA(premultiplied: 1, 0, 0, 1) : PixelRGBA(premultiplied: 0.25, 0.75, 0, 1)
            XCTAssertLessThanOrEqual(PixelRGBA(image, 30, 30).difference(to: expected), 1, "\(mode.rawValue): \(PixelRGBA(image, 30, 30))")
        }
    }
}
