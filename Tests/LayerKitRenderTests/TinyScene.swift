import XCTest
@testable import LayerKitRender

/// A tiny scene builder for graph tests (STYLE.md guideline 10): layers in a target of `width`×`height`
/// pixels at one pixel per point, built into a graph and compiled the way the render server does, so
/// tests count what culling and batching did by hand.
struct TinyScene {
    let root: CALayer
    let width: Int
    let height: Int
    /// Whether settled groups and effects are drawn from cached bitmaps (`RenderGraphBuilder.cachesGroups`);
    /// off where a test counts the passes a frame draws from scratch.
    var cachesGroups = true
    /// What the frame's target holds before the first draw (`RenderGraphBuilder.targetContents`).
    var targetContents = TargetContents.cleared

    init(width: Int = 64, height: Int = 64) {
        self.width = width
        self.height = height
        root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
    }

    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let halfRed = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)

    /// A layer at `frame` in `parent` (the root by default).
    @discardableResult
    func layer(_ frame: CGRect, _ color: CGColor? = nil, in parent: CALayer? = nil) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        (parent ?? root).addSublayer(layer)
        return layer
    }

    /// A layer showing `image` at `frame`.
    @discardableResult
    func imageLayer(_ frame: CGRect, _ image: CGImage, in parent: CALayer? = nil) -> CALayer {
        let layer = self.layer(frame, nil, in: parent)
        layer.contents = image
        return layer
    }

    /// The builder's graph, uncompiled (items in painter's order, nothing culled).
    func built() -> RenderGraph {
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        var builder = RenderGraphBuilder(targetWidth: width, targetHeight: height,
                                         viewport: CGRect(x: 0, y: 0, width: width, height: height), scale: 1)
        builder.cachesGroups = cachesGroups
        builder.targetContents = targetContents
        return builder.build(tree: tree, root: root.layerID)
    }

    /// The graph as the render server draws it: built, then compiled by `compiler`.
    func compiled(_ compiler: DrawListCompiler = DrawListCompiler(), file: StaticString = #filePath, line: UInt = #line) -> RenderGraph {
        let graph = compiler.compile(built())
        XCTAssertEqual(graph.invariantViolations, [], "\(graph)", file: file, line: line)
        return graph
    }

    /// A `side`×`side` image of one premultiplied color.
    static func solidImage(side: Int = 8, _ rgba: (UInt8, UInt8, UInt8, UInt8), opaque: Bool = true) -> CGImage {
        let bytes = (0..<(side * side)).flatMap { _ in [rgba.0, rgba.1, rgba.2, rgba.3] }
        return CGImage(width: side, height: side, bytesPerRow: side * 4, premultipliedRGBA: bytes,
                       alphaInfo: opaque ? .noneSkipLast : .premultipliedLast)!
    }
}

extension RenderGraph {
    /// The frame's pass (the last).
    var framePass: RenderPass { passes[passes.count - 1] }
}
