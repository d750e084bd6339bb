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
}
