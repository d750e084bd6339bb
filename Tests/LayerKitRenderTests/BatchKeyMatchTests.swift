import XCTest
import LayerKit
@testable import LayerKitRender

/// `BatchKey.matches` and `drawsShareKey`: a draw matches a key exactly when the key made of that draw
/// equals it (and two draws share a key exactly when their keys are equal), checked
/// over draws that differ in each thing a key holds (texture and its filters, blend, stencil, kernel)
/// and in the phase asked about, with the expected answers written out for the pairs that matter.
final class BatchKeyMatchTests: XCTestCase {
    private func draw(texture: TextureBinding? = nil, blend: BlendMode = .sourceOver, stencilCommand: StencilClipCommand? = nil,
                      stencilLevel: UInt8 = 0, kernel: CIColorKernel? = nil) -> DrawItem {
        let rect = SIMD4<Float>(0, 0, 8, 8)
        let identity = (SIMD4<Float>(1, 0, 0, 0), SIMD4<Float>(0, 1, 0, 0), SIMD4<Float>(0, 0, 1, 0), SIMD4<Float>(0, 0, 0, 1))
        var item = DrawItem(instance: LayerInstance(localToClip: identity, quad: rect, color: SIMD4(1, 1, 1, 1), shape: rect),
                            texture: texture, blend: blend)
        item.stencilCommand = stencilCommand
        item.stencilLevel = stencilLevel
        item.customKernel = kernel
        return item
    }

    func testADrawMatchesExactlyTheKeysEqualToItsOwn() {
        let imageA = TinyScene.solidImage(side: 8, (128, 0, 0, 255), opaque: true)
        let imageB = TinyScene.solidImage(side: 8, (0, 0, 128, 255), opaque: true)
        let kernel = CIColorKernel(name: "k", source: "vec4 main(vec4 c) { return c; }")
        let draws = [
            draw(),
            draw(texture: TextureBinding(image: imageA)),
            draw(texture: TextureBinding(image: imageA, minification: .nearest)),
            draw(texture: TextureBinding(image: imageB)),
            draw(blend: .destinationIn),
            draw(stencilLevel: 1),
            draw(stencilCommand: .push),
            draw(kernel: kernel),
        ]
        var matched = 0
        for phase in [DepthPhase.none, .opaque, .translucent] {
            for a in draws.indices {
                let key = BatchKey(draws[a], depth: phase)
                for b in draws.indices {
                    let matches = withUnsafePointer(to: draws[b]) { key.matches($0, depth: phase) }
                    // Every draw above differs from every other in one thing a key holds.
                    XCTAssertEqual(matches, a == b, "draw \(b) against the key of draw \(a) in \(phase)")
                    XCTAssertEqual(matches, BatchKey(draws[b], depth: phase) == key)
                    if matches { matched += 1 }
                }
                // The same draw asked about in another phase does not match.
                XCTAssertFalse(withUnsafePointer(to: draws[a]) { key.matches($0, depth: phase == .opaque ? .translucent : .opaque) })
            }
        }
        XCTAssertEqual(matched, 3 * draws.count)
        // Two draws of the same image (one object) with the same filters match each other's keys.
        let twin = draw(texture: TextureBinding(image: imageA))
        XCTAssertTrue(withUnsafePointer(to: twin) { BatchKey(draws[1]).matches($0, depth: .none) })
        // Draws compared with each other where they lie (`drawsShareKey`, as the batcher compares a draw with
        // the one that started a batch): the same answers as their keys in any one phase.
        for a in draws.indices {
            for b in draws.indices {
                let shared = withUnsafePointer(to: draws[a]) { first in withUnsafePointer(to: draws[b]) { BatchKey.drawsShareKey(first, $0) } }
                XCTAssertEqual(shared, a == b, "draws \(a) and \(b)")
                XCTAssertEqual(shared, BatchKey(draws[a], depth: .translucent) == BatchKey(draws[b], depth: .translucent))
            }
        }
        XCTAssertTrue(withUnsafePointer(to: twin) { twin in withUnsafePointer(to: draws[1]) { BatchKey.drawsShareKey(twin, $0) } })
    }
}
