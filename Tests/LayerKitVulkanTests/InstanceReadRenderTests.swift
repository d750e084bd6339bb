import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// The shaders read each draw's instance (and the fragment shader gradient stops and colour matrices)
/// through the instance buffer's texel view where the device allows (`VulkanDevice.readsInstancesAsTexels`,
/// lavapipe among them), else through the storage buffer. Both read the same words, so a scene that
/// uses every one the shaders read draws the same pixels either way, on any device. Validation on.
final class InstanceReadRenderTests: CARendererTestCase {
    /// Layers whose draws read every member the vertex shader reads, and every word the fragment shader
    /// reads: a turned, scaled textured layer showing part of its image (uv and uv clamp), rounded
    /// translucent layers with a border (shape, radii, params), a gradient (its header and geometry; its
    /// stops), a clipped subtree (the clip's rect, radii and homography), a colour matrix on an image (its
    /// rows and bias), a 3D-turned layer (a full map), and enough of them that later draws sit at
    /// instance indices past the first few.
    private func makeScene() -> CALayer {
        let root = makeRoot()
        let image = makeQuadrantImage()
        for k in 0..<6 {
            let layer = makeLayer(CGRect(x: 4 + 9 * k, y: 2, width: 8, height: 8), CGColor(red: 0, green: 0.3, blue: 1, alpha: 0.6), in: root)
            layer.cornerRadius = 3
            layer.borderWidth = 1
            layer.borderColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        }
        let textured = makeLayer(CGRect(x: 10, y: 14, width: 24, height: 16), nil, in: root)
        textured.contents = image
        textured.contentsRect = CGRect(x: 0.25, y: 0, width: 0.5, height: 1)
        textured.setValue(CGFloat.pi / 7, forKeyPath: "transform.rotation.z")
        textured.setValue(1.3, forKeyPath: "transform.scale.x")
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 36, y: 14, width: 24, height: 16)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(gradient)
        let clip = makeLayer(CGRect(x: 6, y: 36, width: 24, height: 24), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: root)
        clip.cornerRadius = 8
        clip.masksToBounds = true
        makeLayer(CGRect(x: -6, y: 4, width: 30, height: 10), CGColor(red: 1, green: 1, blue: 0, alpha: 0.8), in: clip)
            .setValue(-CGFloat.pi / 9, forKeyPath: "transform.rotation.z")
        // A colour matrix, read by the fragment shader from the instance's words.
        let filtered = makeLayer(CGRect(x: 56, y: 30, width: 8, height: 6), nil, in: root)
        filtered.contents = image
        filtered.filters = [CIFilter(name: "CIColorMatrix", parameters: [
            "inputRVector": CIVector(x: 0, y: 0, z: 1, w: 0), "inputGVector": CIVector(x: 0, y: 0.5, z: 0, w: 0),
            "inputBVector": CIVector(x: 1, y: 0, z: 0, w: 0), "inputBiasVector": CIVector(x: 0, y: 0.25, z: 0, w: 0),
        ])!]
        let turned = makeLayer(CGRect(x: 36, y: 36, width: 22, height: 22), CGColor(red: 1, green: 0, blue: 1, alpha: 1), in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 60
        turned.transform = CATransform3DRotate(perspective, .pi / 5, 0, 1, 0)
        return root
    }

    func testTheStorageBufferAndTheTexelViewDrawTheSamePixels() throws {
        let viaTexels = try makeRenderer()
        if viaTexels.rendersOnCPU {
            XCTAssertTrue(viaTexels.readsInstancesAsTexels, "lavapipe reads instances through the texel view")
        }
        // A GPU whose storage buffers reach further than a texel view can (NVIDIA's) reads the storage
        // buffer by itself: the view is chosen by hand there, the scene's few instances lying well within it.
        viaTexels.readsInstancesAsTexels = true
        viaTexels.layer = makeScene()
        let texelImage = try renderFrame(viaTexels)

        let viaStorage = try makeRenderer()
        viaStorage.readsInstancesAsTexels = false
        viaStorage.layer = makeScene()
        let storageImage = try renderFrame(viaStorage)

        assertPixels(texelImage, "texel view vs storage buffer") { x, y in PixelRGBA(storageImage, x, y) }
        // Not an empty picture drawn twice: the scene's layers show.
        XCTAssertEqual(PixelRGBA(texelImage, 12, 48).g, 255, "the clip's green")
        XCTAssertGreaterThan(PixelRGBA(texelImage, 40, 16).r, 128, "the gradient's red corner")
    }
}
