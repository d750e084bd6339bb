import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CAReplicatorLayer`: instances placed, tinted and delayed as worked out by hand.
final class ReplicatorRenderTests: CARendererTestCase {
    func testPreservingDepthSortsInstancesByDepthInsteadOfInstanceOrder() throws {
        // Two instances of a red 24×24 square at (4, 4): the second moved 16 right and 50 back (no
        // perspective, so only depth changes) and tinted black (red offset −1). They overlap on x 20…28.
        // Flattened, the later instance is on top there; preserving depth, the nearer (first) one is.
        func frame(preservingDepth: Bool) throws -> CGImage {
            let root = makeRoot(width: 64, height: 32)
            let replicator = CAReplicatorLayer()
            replicator.frame = root.bounds
            replicator.instanceCount = 2
            replicator.instanceTransform = CATransform3DMakeTranslation(16, 0, -50)
            replicator.instanceRedOffset = -1
            replicator.preservesDepth = preservingDepth
            makeLayer(CGRect(x: 4, y: 4, width: 24, height: 24), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: replicator)
            root.addSublayer(replicator)
            return try render(root, width: 64, height: 32)
        }
        let flat = try frame(preservingDepth: false)
        assertPixels(flat, "flattened", tolerance: 1, probes: [
            Probe("first alone", 10, 16, PixelRGBA(255, 0, 0, 255)), Probe("overlap: the second", 24, 16, PixelRGBA(0, 0, 0, 255)),
            Probe("second alone", 40, 16, PixelRGBA(0, 0, 0, 255)),
        ])
        let deep = try frame(preservingDepth: true)
        assertPixels(deep, "preserving depth", tolerance: 1, probes: [
            Probe("first alone", 10, 16, PixelRGBA(255, 0, 0, 255)), Probe("overlap: the nearer first", 24, 16, PixelRGBA(255, 0, 0, 255)),
            Probe("second alone", 40, 16, PixelRGBA(0, 0, 0, 255)),
        ])
    }

    func testInstancesStepByTheTransformAndTheColourOffsets() throws {
        // Three 10×10 white squares at x = 2, 22, 42: instanceColor (1, 1, 1, 1), red offset −0.5 and alpha
        // offset −0.25 per instance → multipliers (1, 1, 1, 1), (0.5, 1, 1, 0.75), (0, 1, 1, 0.5).
        let root = makeRoot()
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        replicator.instanceRedOffset = -0.5
        replicator.instanceAlphaOffset = -0.25
        root.addSublayer(replicator)
        makeLayer(CGRect(x: 2, y: 2, width: 10, height: 10), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: replicator)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "replicated", tolerance: 1) { x, y in
            guard (2..<12).contains(y) else { return .clear }
            switch x {
            case 2..<12: return .white
            case 22..<32: return PixelRGBA(straight: 0.5, 1, 1, 0.75)
            case 42..<52: return PixelRGBA(straight: 0, 1, 1, 0.5)
            default: return .clear
            }
        }
        // Instance 0 is opaque, but no instance lies over another: painter's order (no depth phase), one
        // draw call for all three.
        XCTAssertEqual(renderer.lastFrameStatistics.drawCalls, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.instances, 3)
        XCTAssertEqual(renderer.lastFrameStatistics.replicatedInstances, 2)
    }

    func testTheTransformTurnsAboutTheReplicatorsCentre() throws {
        // A 4×8 bar at the top middle of a 40×40 replicator at (12, 12); a quarter turn per instance (y down:
        // clockwise) carries it about the centre (32, 32) to the right middle, the bottom, the left.
        let root = makeRoot()
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 12, y: 12, width: 40, height: 40)
        replicator.instanceCount = 4
        replicator.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(replicator)
        makeLayer(CGRect(x: 18, y: 0, width: 4, height: 8), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: replicator)
        let image = try render(root)
        let red = PixelRGBA(255, 0, 0, 255)
        assertPixels(image, "spinner", tolerance: 1, probes: [
            Probe("top", 32, 14, red), Probe("right", 49, 32, red), Probe("bottom", 32, 49, red), Probe("left", 14, 32, red),
            Probe("centre", 32, 32, .clear), Probe("corner", 14, 14, .clear),
        ])
    }

    func testEachInstanceSeesTimeShiftedByTheDelay() throws {
        // A square moving right 40 px per second (t = 1000…1001); instance k runs k × 0.25 s behind, and
        // is placed 0 px apart: at t = 1000.5, instance 0 is at x = 20…26, instance 1 at 10…16, instance 2 at 0…6.
        let root = makeRoot()
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        replicator.instanceCount = 3
        replicator.instanceDelay = 0.25
        root.addSublayer(replicator)
        let square = makeLayer(CGRect(x: 0, y: 20, width: 6, height: 6), CGColor(red: 0, green: 0, blue: 1, alpha: 1), in: replicator)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 3.0
        move.toValue = 43.0
        move.duration = 1
        move.beginTime = 1000
        square.add(move, forKey: "move")
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 1000)
        let image = try renderFrame(renderer, atTime: 1000.5)
        let blue = PixelRGBA(0, 0, 255, 255)
        assertPixels(image, "delayed", tolerance: 1) { x, y in
            guard (20..<26).contains(y) else { return .clear }
            return (0..<6).contains(x) || (10..<16).contains(x) || (20..<26).contains(x) ? blue : .clear
        }
    }

    func testANestedReplicatorMultiplies() throws {
        // 3 across (step 12) inside 2 down (step 20): six 8×8 squares.
        let root = makeRoot()
        let outer = CAReplicatorLayer()
        outer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        outer.instanceCount = 2
        outer.instanceTransform = CATransform3DMakeTranslation(0, 20, 0)
        let inner = CAReplicatorLayer()
        inner.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        inner.instanceCount = 3
        inner.instanceTransform = CATransform3DMakeTranslation(12, 0, 0)
        outer.addSublayer(inner)
        root.addSublayer(outer)
        makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: inner)
        let image = try render(root)
        assertPixels(image, "nested") { x, y in
            let column = (x - 4) / 12, row = (y - 4) / 20
            let inside = x >= 4 && y >= 4 && column < 3 && row < 2 && (x - 4) % 12 < 8 && (y - 4) % 20 < 8
            return inside ? PixelRGBA(0, 255, 0, 255) : .clear
        }
    }
}
