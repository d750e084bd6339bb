import XCTest
@testable import LayerKit
@testable import LayerKitRender

/// Materials (`Material`): what each kind of draw must compute per fragment, worked out from Core
/// Animation's properties by hand, and the join a batch of mixed draws runs. No GPU: the pixel tests of
/// LayerKitVulkanTests check that every material draws what the whole shader drew.
final class MaterialTests: XCTestCase {
    private let image = TinyScene.solidImage(side: 8, (128, 0, 0, 255), opaque: true)

    /// The material of the one draw `configure` makes of a 20×20 layer at (2, 2).
    private func material(_ configure: (CALayer) -> Void) -> Material? {
        let scene = TinyScene()
        let layer = scene.layer(CGRect(x: 2, y: 2, width: 20, height: 20), TinyScene.blue)
        configure(layer)
        let items = scene.compiled().framePass.items.filter { $0.layer == layer.layerID }
        XCTAssertEqual(items.count, 1)
        return items.first.map(Material.init)
    }

    func testASquareHardEdgedLayerComputesNoCoverage() {
        XCTAssertEqual(material { _ in }, Material(paint: [], coverage: .none))
        XCTAssertEqual(material { $0.opacity = 0.5 }, Material(paint: [], coverage: .none), "opacity is a colour, not coverage")
        XCTAssertEqual(material { $0.setValue(CGFloat.pi / 7, forKeyPath: "transform.rotation.z") }, Material(paint: [], coverage: .none),
                       "rotated without edge antialiasing: the rasterizer's own edges")
    }

    func testRoundedAntialiasedBorderedAndClippedLayersComputeWhatTheyNeed() {
        XCTAssertEqual(material { $0.cornerRadius = 4 }, Material(paint: [], coverage: .similarShape))
        XCTAssertEqual(material { $0.allowsEdgeAntialiasing = true; $0.setValue(0.3, forKeyPath: "transform.rotation.z") },
                       Material(paint: [], coverage: .similarShape))
        XCTAssertEqual(material { $0.borderWidth = 2; $0.backgroundColor = nil; $0.borderColor = TinyScene.blue },
                       Material(paint: [], coverage: .shapeBorderClip))
    }

    func testImagesSampleAndUntexturedDrawsDoNot() {
        XCTAssertEqual(material { $0.backgroundColor = nil; $0.contents = self.image }, Material(paint: [.textured], coverage: .none))
        XCTAssertEqual(material { $0.backgroundColor = nil; $0.contents = self.image; $0.cornerRadius = 3; $0.masksToBounds = true },
                       Material(paint: [.textured], coverage: .shapeBorderClip), "masksToBounds clips the image to the rounded bounds")
        XCTAssertEqual(material { $0.backgroundColor = TinyScene.blue }?.paint, [])
    }

    func testDebugViewsAndStencilShapesRunTheWholeShader() {
        var instance = LayerInstance(localToClip: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)),
                                     quad: SIMD4(0, 0, 1, 1), color: SIMD4(1, 1, 1, 1), shape: SIMD4(0, 0, 1, 1))
        XCTAssertEqual(Material(instance), Material(paint: [], coverage: .none))
        instance.flags.insert(.overdrawHeatMap)
        XCTAssertEqual(Material(instance), .general)
        instance.flags = [.countFragments]
        XCTAssertEqual(Material(instance), .general)
        instance.flags = []
        instance.quad = SIMD4(-1, 0, 1, 1)
        XCTAssertEqual(Material(instance).coverage, .affineShape, "a quad larger than its shape must cut at the shape")
        instance.flags = [.similarityMap]
        XCTAssertEqual(Material(instance).coverage, .similarShape)
    }

    func testShapeCoverageTakesDerivativesOnlyWhereTheMapProjects() {
        // Rounded and antialiased, under a 2D map: the map's pixel metric serves the whole draw; under a
        // similarity (rotated, uniformly scaled, mirrored) one scale does.
        XCTAssertEqual(material { $0.cornerRadius = 4; $0.setValue(CGFloat(0.4), forKeyPath: "transform.rotation.z") }?.coverage, .similarShape)
        XCTAssertEqual(material { $0.cornerRadius = 4; $0.transform = CATransform3DMakeScale(-1.5, 1.5, 1) }?.coverage, .similarShape)
        XCTAssertEqual(material { $0.cornerRadius = 4; $0.transform = CATransform3DMakeScale(2, 0.5, 1) }?.coverage, .affineShape)
        XCTAssertEqual(material {
            $0.cornerRadius = 4
            $0.transform = CATransform3DConcat(CATransform3DMakeScale(2, 0.5, 1), CATransform3DMakeRotation(0.4, 0, 0, 1))
        }?.coverage, .affineShape)
        // Under perspective the layer-space step of a pixel varies across the draw: derivatives per fragment.
        XCTAssertEqual(material {
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / 200
            $0.cornerRadius = 4
            $0.transform = CATransform3DRotate(perspective, 0.5, 0, 1, 0)
        }?.coverage, .shape)
        // A shadow blurs the shape with the derivative coverage's inputs.
        var shadow = LayerInstance(localToClip: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)),
                                   quad: SIMD4(0, 0, 1, 1), color: SIMD4(1, 1, 1, 1), shape: SIMD4(0, 0, 1, 1), flags: [.shadow])
        XCTAssertEqual(Material(shadow).coverage, .shape)
        shadow.flags = [.antialiasEdges]
        XCTAssertEqual(Material(shadow).coverage, .affineShape)
        // The similarity flag says nothing where the map projects.
        shadow.flags = [.antialiasEdges, .similarityMap]
        shadow.localToClip.0.w = 0.01
        XCTAssertEqual(Material(shadow).coverage, .shape)
        // A batch of both runs the derivative coverage.
        XCTAssertEqual(Material(paint: [], coverage: .affineShape).joined(with: Material(paint: [], coverage: .shape)).coverage, .shape)
        XCTAssertEqual(Material(paint: [], coverage: .affineShape).joined(with: Material(paint: [], coverage: .none)).coverage, .affineShape)
        XCTAssertEqual(Material(paint: [], coverage: .similarShape).joined(with: Material(paint: [], coverage: .affineShape)).coverage, .affineShape)
    }

    func testABatchOfMixedDrawsRunsTheJoinOfTheirMaterials() {
        // Three untextured layers side by side, one square, one rounded, one bordered: one batch whose
        // material covers all three.
        let scene = TinyScene()
        scene.layer(CGRect(x: 0, y: 0, width: 8, height: 8), TinyScene.blue)
        scene.layer(CGRect(x: 10, y: 0, width: 8, height: 8), TinyScene.blue).cornerRadius = 3
        let bordered = scene.layer(CGRect(x: 20, y: 0, width: 8, height: 8), TinyScene.blue)
        bordered.borderWidth = 1
        let pass = scene.compiled().framePass
        XCTAssertEqual(pass.batches.count, 1)
        XCTAssertEqual(pass.batches.first?.material, Material(paint: [], coverage: .shapeBorderClip))
        XCTAssertEqual(Material(paint: [.textured], coverage: .none).joined(with: Material(paint: [.clampedUV], coverage: .shape)),
                       Material(paint: [.textured, .clampedUV], coverage: .shape))
    }
}
