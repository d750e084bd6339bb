import XCTest
@testable import LayerKitRender

/// Particle records kept across frames (`EmitterParticleCache`): a frame drawn from them is the closed
/// form's frame bit for bit, whatever the order of frame times, and they are dropped as particles die.
final class EmitterParticleCacheTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func dot(_ side: Int) -> CGImage {
        TinyScene.solidImage(side: side, (255, 255, 255, 255))
    }

    /// Sparks with every spread in use and a sub-emitter, and smoke, on a circle; seed 7.
    private func emitter() -> (root: CALayer, emitter: CAEmitterLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 200, y: 200)
        emitter.emitterShape = .circle
        emitter.emitterSize = CGSize(width: 60, height: 60)
        emitter.seed = 7
        let ember = CAEmitterCell()
        ember.birthRate = 3
        ember.lifetime = 0.8
        ember.lifetimeRange = 0.3
        ember.velocity = 12
        ember.velocityRange = 10
        ember.emissionRange = .pi
        ember.contents = dot(4)
        let spark = CAEmitterCell()
        spark.birthRate = 200
        spark.lifetime = 1.5
        spark.lifetimeRange = 0.5
        spark.velocity = 120
        spark.velocityRange = 40
        spark.emissionLongitude = -.pi / 2
        spark.emissionRange = 0.7
        spark.yAcceleration = 60
        spark.spin = 1
        spark.spinRange = 2
        spark.scale = 1
        spark.scaleRange = 0.4
        spark.scaleSpeed = 0.2
        spark.color = CGColor(red: 1, green: 0.6, blue: 0.2, alpha: 1)
        spark.redRange = 0.3
        spark.alphaRange = 0.2
        spark.alphaSpeed = -0.3
        spark.contents = dot(8)
        spark.emitterCells = [ember]
        let smoke = CAEmitterCell()
        smoke.birthRate = 50
        smoke.lifetime = 3
        smoke.velocity = 30
        smoke.emissionRange = 0.3
        smoke.contents = dot(16)
        emitter.emitterCells = [spark, smoke]
        root.addSublayer(emitter)
        return (root, emitter)
    }

    private func tree(_ root: CALayer) -> RenderTree {
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        CATransaction.flush()
        return tree
    }

    /// Every particle of `kept` is `fresh`'s, field for field and bit for bit.
    private func assertSameParticles(_ kept: EmitterParticles, _ fresh: EmitterParticles, at time: Double,
                                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(kept.groups.count, fresh.groups.count, "groups at \(time)", file: file, line: line)
        for (a, b) in zip(kept.groups, fresh.groups) {
            XCTAssertEqual(a.particles.count, b.particles.count, "particles at \(time)", file: file, line: line)
            for (p, q) in zip(a.particles, b.particles)
            where p.center != q.center || p.angle != q.angle || p.halfSize != q.halfSize || p.color != q.color {
                XCTFail("particle differs at \(time): \(p) vs \(q)", file: file, line: line)
                return
            }
        }
    }

    func testFramesFromKeptRecordsAreTheClosedFormsBitForBit() throws {
        let (root, emitter) = emitter()
        let tree = tree(root)
        let node = try XCTUnwrap(tree[emitter.layerID])
        let cache = EmitterParticleCache()
        // Forward in small and large steps, back in time, the same time twice, far ahead.
        var sawSubParticles = false
        for time in [0.2, 0.2 + 1.0 / 60, 0.9, 1.7, 1.2, 2.5, 2.5, 2.51, 6.0, 6.02] {
            let kept = try XCTUnwrap(EmitterParticles(of: node, at: time, cache: cache))
            let fresh = try XCTUnwrap(EmitterParticles(of: node, at: time))
            XCTAssertGreaterThan(kept.count, 0)
            assertSameParticles(kept, fresh, at: time)
            if kept.groups[1].particles.count > 0 { sawSubParticles = true }
        }
        XCTAssertTrue(sawSubParticles, "the sub-emitter drew from recorded parents")
        XCTAssertEqual(cache.recordCounts.count, 1, "one emitter's records")
    }

    func testAChangedCellStartsItsRecordsAgain() throws {
        let (root, emitter) = emitter()
        let cache = EmitterParticleCache()
        let before = tree(root)
        _ = EmitterParticles(of: try XCTUnwrap(before[emitter.layerID]), at: 1.0, cache: cache)
        // The same layer with faster sparks: records made for the old cells must not be drawn.
        let cells = try XCTUnwrap(emitter.emitterCells)
        cells[0].velocity = 300
        emitter.emitterCells = cells
        let after = tree(root)
        let node = try XCTUnwrap(after[emitter.layerID])
        let kept = try XCTUnwrap(EmitterParticles(of: node, at: 1.02, cache: cache))
        let fresh = try XCTUnwrap(EmitterParticles(of: node, at: 1.02))
        assertSameParticles(kept, fresh, at: 1.02)
    }

    func testRecordsAreForgottenAsTheirParticlesDie() throws {
        let (root, emitter) = emitter()
        let tree = tree(root)
        let node = try XCTUnwrap(tree[emitter.layerID])
        let cache = EmitterParticleCache()
        var most = 0
        for frame in 0..<600 {
            _ = EmitterParticles(of: node, at: Double(frame) / 60, cache: cache)
            most = max(most, cache.recordCounts[emitter.layerID] ?? 0)
        }
        // Sparks are kept while they or their embers may live: 200/s over 2 s + 1.1 s; each keeps at most
        // 3/s over its 2 s (rounded up, plus one) embers; smoke 50/s over 3 s. Far below 10 s of births.
        let sparks = 200.0 * 3.1, embersPerSpark = 7.0, smoke = 50.0 * 3
        XCTAssertLessThanOrEqual(Double(most), sparks * (1 + embersPerSpark) + smoke + 3)
        XCTAssertGreaterThan(most, Int(sparks))
    }

    func testEmittersNoLongerDrawnAreForgotten() throws {
        let (root, emitter) = emitter()
        let tree = tree(root)
        let node = try XCTUnwrap(tree[emitter.layerID])
        let cache = EmitterParticleCache(forgetAfterFrames: 10)
        _ = EmitterParticles(of: node, at: 1, cache: cache)
        XCTAssertNotNil(cache.recordCounts[emitter.layerID])
        for _ in 0..<64 { cache.beginFrame() }
        XCTAssertNil(cache.recordCounts[emitter.layerID], "not drawn for 64 frames: forgotten")
    }
}
