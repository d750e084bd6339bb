import XCTest
import LayerKit
@testable import LayerKitRender

/// `BatchKey.drawsShareKey`: two draws share a key exactly when the keys made of them are equal, checked
/// over draws that differ in each thing a key holds (texture and its filters, blend, stencil, kernel)
/// and in the phase asked about, with the expected answers written out for the pairs that matter.
final class BatchKeySharingTests: XCTestCase {
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

    func testDrawsShareAKeyExactlyWhenTheirKeysAreEqual() {
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
        var shared = 0
        for phase in [DepthPhase.none, .opaque, .translucent] {
            for a in draws.indices {
                let key = BatchKey(draws[a], depth: phase)
                for b in draws.indices {
                    let sharesKey = withUnsafePointer(to: draws[a]) { first in
                        withUnsafePointer(to: draws[b]) { BatchKey.drawsShareKey(first, $0) }
                    }
                    // Every draw above differs from every other in one thing a key holds.
                    XCTAssertEqual(sharesKey, a == b, "draw \(b) against draw \(a) in \(phase)")
                    XCTAssertEqual(sharesKey, BatchKey(draws[b], depth: phase) == key)
                    if sharesKey { shared += 1 }
                }
                // The same draw's key in another phase is another key (the batcher compares phases apart).
                XCTAssertNotEqual(BatchKey(draws[a], depth: phase == .opaque ? .translucent : .opaque), key)
            }
        }
        XCTAssertEqual(shared, 3 * draws.count)
        // Two draws of the same image (one object) with the same filters share a key.
        let twin = draw(texture: TextureBinding(image: imageA))
        XCTAssertTrue(withUnsafePointer(to: twin) { twin in withUnsafePointer(to: draws[1]) { BatchKey.drawsShareKey(twin, $0) } })
        XCTAssertEqual(BatchKey(twin), BatchKey(draws[1]))
    }
}
