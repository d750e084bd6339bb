import Foundation
import LayerKit
import LayerKitScenes
@testable import LayerKitVulkan
import XCTest

/// A short fuzz run (`HostileTrees`, seeds 1…`trees`): random trees of every layer class with hostile
/// values, each rendered at several times. Nothing may crash, the validation layer must stay silent
/// (checked when the test ends), every pixel must be a valid premultiplied value (no channel above its
/// alpha), and every layer's presentation geometry must be finite. `LayerKitFuzz` runs the long version.
final class HostileTreeRenderTests: CARendererTestCase {
    static let trees: UInt64 = 40

    /// Seeds whose trees once failed a long run, kept as regressions: 9310 (a cached group drew its
    /// content twice in one frame, so a layer rasterized inside was stored by the first drawing and reused
    /// by the second before any backend held it: the frame did not render); 1859 and 8987 (the same with a
    /// rasterized layer under a replicator, drawn once per instance); 3848 and 9362 (a layer blurred its
    /// shadow path inside a drawing that was then thrown away, and a later layer with the same path
    /// composited the surface number that drawing had used: a pass read the surface it drew).
    static let regressions: [UInt64] = [9310, 1859, 8987, 3848, 9362]

    func testHostileTreesRenderValidPixelsAndFinitePresentationValues() throws {
        let renderer = try makeRenderer(width: 128, height: 128)
        for seed in Array(1...Self.trees) + Self.regressions {
            let root = HostileTrees.tree(seed: seed)
            renderer.layer = root
            for t in HostileTrees.frameTimes(seed: seed, count: 3) {
                let image = try renderFrame(renderer, atTime: t)
                XCTAssertEqual(HostileTrees.problems(in: image, of: root), [], "seed \(seed) at t = \(t)")
            }
            renderer.layer = nil
        }
    }
}
