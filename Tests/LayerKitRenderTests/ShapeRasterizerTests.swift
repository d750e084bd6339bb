import XCTest
@testable import LayerKitRender

/// Shape layers on the render side without a GPU: what the graph builder draws for them, what the
/// rasterizer draws and caches, and animations of shape properties evaluated on the render tree.
final class ShapeRasterizerTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func builder(size: Int = 200) -> RenderGraphBuilder {
        RenderGraphBuilder(targetWidth: size, targetHeight: size, viewport: CGRect(x: 0, y: 0, width: size, height: size), scale: 1)
    }

    private func tree(_ root: CALayer) -> RenderTree {
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        CATransaction.flush()
        return tree
    }

    private func shapeItems(_ graph: RenderGraph) -> [DrawItem] {
        graph.passes.last!.items.filter { $0.texture != nil }
    }

    /// An app's layer with properties named like a shape's (or a gradient's) is drawn as a plain layer:
    /// the render side goes by the committed `LayerRenderKind`, not by property names.
    func testAnAppLayerWithShapeAndGradientPropertyNamesIsNoShapeOrGradient() throws {
        final class LookalikeLayer: CALayer {
            override class func needsDisplay(forKey key: String) -> Bool { false }
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let lookalike = LookalikeLayer()
        lookalike.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
        lookalike.setValue(CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40)), forKey: "path")
        lookalike.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKey: "fillColor")
        lookalike.setValue("axial", forKey: "type")
        lookalike.setValue(CGPoint(x: 0, y: 0), forKey: "startPoint")
        lookalike.setValue([CGColor(red: 0, green: 1, blue: 0, alpha: 1)], forKey: "colors")
        root.addSublayer(lookalike)
        let tree = tree(root)
        XCTAssertNotNil(tree[lookalike.layerID]?.customProperties.path("path"), "the property reached the render tree")
        let graph = builder().build(tree: tree, root: root.layerID)
        XCTAssertEqual(graph.passes.last!.items.count, 0, "no shape image and no gradient paint")
    }

    func testTheSamePathOnAHundredLayersIsRasterizedOnce() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 12, height: 12), transform: nil)
        for i in 0..<100 {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: CGFloat(i % 10) * 20, y: CGFloat(i / 10) * 20, width: 12, height: 12)
            shape.path = path
            shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(shape)
        }
        let tree = tree(root)
        let builder = builder()
        let graph = builder.build(tree: tree, root: root.layerID)
        let items = shapeItems(graph)
        XCTAssertEqual(items.count, 100)
        XCTAssertEqual(Set(items.compactMap { $0.texture?.image.map(ObjectIdentifier.init) }).count, 1, "one image for all")
        XCTAssertEqual(builder.shapeRasterizer.statistics.rasterizations, 1)
        XCTAssertEqual(builder.shapeRasterizer.statistics.cacheHits, 99)
        // The next frame draws nothing new.
        _ = builder.build(tree: tree, root: root.layerID, time: 1)
        XCTAssertEqual(builder.shapeRasterizer.statistics.rasterizations, 1)
        XCTAssertEqual(builder.shapeRasterizer.statistics.cacheHits, 199)
    }

    func testAFilledRectangleCoversExactlyItsPixels() throws {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
        shape.path = CGPath(rect: CGRect(x: 4, y: 6, width: 10, height: 5))
        let tree = tree(shape)
        let builder = builder()
        let item = try XCTUnwrap(shapeItems(builder.build(tree: tree, root: shape.layerID)).first)
        let image = try XCTUnwrap(item.texture?.image)
        // The quad covers the image 1:1 at scale 1, from the path's box outset by one pixel.
        XCTAssertEqual(item.instance.quad, SIMD4(3, 5, 15, 12))
        XCTAssertEqual([image.width, image.height], [12, 7])
        for y in 0..<7 {
            for x in 0..<12 {
                let inside = (1..<11).contains(x) && (1..<6).contains(y)
                let p = image.pixel(x: x, y: y)
                XCTAssertEqual([p.r, p.g, p.b, p.a], inside ? [0, 0, 0, 255] : [0, 0, 0, 0], "(\(x), \(y))")
            }
        }
    }

    func testAZoomedShapeIsRasterizedAtItsOnScreenScale() throws {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        shape.path = CGPath(rect: CGRect(x: 2, y: 2, width: 10, height: 10))
        shape.transform = CATransform3DMakeScale(4, 4, 1)
        let tree = tree(shape)
        let builder = builder()
        let item = try XCTUnwrap(shapeItems(builder.build(tree: tree, root: shape.layerID)).first)
        let image = try XCTUnwrap(item.texture?.image)
        // The 10-unit box at 4 pixels per unit, and a pixel of margin each side: 42 pixels, from 7/4 to 49/4.
        XCTAssertEqual([image.width, image.height], [42, 42])
        XCTAssertEqual(item.instance.quad, SIMD4(1.75, 1.75, 12.25, 12.25))
        XCTAssertEqual(ShapeRasterizer.quantized(4), 4)
        XCTAssertEqual(ShapeRasterizer.quantized(1), 1)
        XCTAssertEqual(ShapeRasterizer.quantized(1.04), 1)
    }

    func testNothingIsDrawnForAnEmptyPathNoPathOrNoPaint() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        let noPath = CAShapeLayer()
        let empty = CAShapeLayer()
        empty.path = CGMutablePath()
        let unpainted = CAShapeLayer()
        unpainted.path = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5))
        unpainted.fillColor = nil
        unpainted.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        unpainted.lineWidth = 0
        for layer in [noPath, empty, unpainted] { root.addSublayer(layer) }
        let tree = tree(root)
        let builder = builder()
        XCTAssertEqual(shapeItems(builder.build(tree: tree, root: root.layerID)).count, 0)
        XCTAssertEqual(builder.shapeRasterizer.statistics.rasterizations, 0)
    }

    func testStrokeEndAnimatesOnTheRenderTree() throws {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 50, height: 20)
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 5, y: 10))
        line.addLine(to: CGPoint(x: 45, y: 10))
        shape.path = line
        shape.fillColor = nil
        shape.strokeColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        shape.lineWidth = 4
        var tree = tree(shape)
        let animation = CABasicAnimation(keyPath: "strokeEnd")
        animation.fromValue = 0
        animation.toValue = 1
        animation.beginTime = 10
        animation.duration = 2
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        shape.add(animation, forKey: "write-on")
        tree.apply(CommitPacket.collect())
        let builder = builder()
        /// The layer x where the stroke's ink ends at `time`.
        func inkEnd(at time: Double) throws -> CGFloat {
            let item = try XCTUnwrap(shapeItems(builder.build(tree: tree, root: shape.layerID, time: time)).first)
            let image = try XCTUnwrap(item.texture?.image)
            let row = image.height / 2
            let last = try XCTUnwrap((0..<image.width).last { image.pixel(x: $0, y: row).a > 127 })
            return CGFloat(item.instance.quad.x) + CGFloat(last + 1)
        }
        // Linear from 0 to 1 over 10…12 s: at 11 s half of the 40-point line, ending at x = 25.
        XCTAssertEqual(try inkEnd(at: 11), 25, accuracy: 1)
        XCTAssertEqual(try inkEnd(at: 11.5), 35, accuracy: 1)
        XCTAssertEqual(builder.shapeRasterizer.statistics.rasterizations, 2)
        // Model value once the animation is over: the whole line.
        XCTAssertEqual(try inkEnd(at: 13), 45, accuracy: 1)
    }

    func testAFillAnimatedToNilFadesThroughHalfAlpha() throws {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        shape.path = CGPath(rect: CGRect(x: 2, y: 2, width: 10, height: 10))
        var tree = tree(shape)
        shape.fillColor = nil
        let fade = CABasicAnimation(keyPath: "fillColor")
        fade.fromValue = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        fade.beginTime = 10
        fade.duration = 2
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        shape.add(fade, forKey: "fade")
        tree.apply(CommitPacket.collect())
        let builder = builder()
        // Half way from opaque black to nil (clear): alpha 0.5 inside the rect.
        let item = try XCTUnwrap(shapeItems(builder.build(tree: tree, root: shape.layerID, time: 11)).first)
        XCTAssertEqual(Double(try XCTUnwrap(item.texture?.image).pixel(x: 5, y: 5).a), 127.5, accuracy: 1)
        // After it: no fill, nothing drawn.
        XCTAssertTrue(shapeItems(builder.build(tree: tree, root: shape.layerID, time: 13)).isEmpty)
    }

    func testStyleDefaultsApplyToKeysNeverCommitted() {
        var properties = CustomPropertyValues()
        properties["path"] = .path(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let style = ShapeStyle(properties)
        XCTAssertEqual(style.fillColor, SIMD4(0, 0, 0, 1))
        XCTAssertNil(style.strokeColor)
        XCTAssertEqual(style.lineWidth, 1)
        XCTAssertEqual(style.miterLimit, 10)
        XCTAssertEqual(style.strokeEnd, 1)
        properties["fillColor"] = nil
        XCTAssertNil(ShapeStyle(properties).fillColor, "committed as nil is not the default")
    }
}
