import XCTest
import LayerKit
@testable import LayerKitRender

/// `RenderNode.sublayerNodes(in:)`: a layer's sublayers as nodes, kept between frames, always what
/// looking each one up in the tree now gives.
final class SublayerNodesTests: XCTestCase {
    private func ids(_ nodes: [RenderNode]) -> [LayerID] { nodes.map(\.id) }

    func testTheKeptNodesFollowEditsOfTheListAndOfTheTreesMembers() throws {
        let root = CALayer()
        let a = CALayer(), b = CALayer(), c = CALayer()
        root.addSublayer(a)
        root.addSublayer(b)
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        let node = try XCTUnwrap(tree[root.layerID])
        XCTAssertEqual(ids(node.sublayerNodes(in: tree)), [a.layerID, b.layerID])
        XCTAssertTrue(node.sublayerNodes(in: tree).elementsEqual(node.sublayerNodes(in: tree), by: ===), "kept")

        // The list names a layer the tree does not hold yet: left out until a packet brings it.
        node.sublayers = [a.layerID, c.layerID, b.layerID]
        XCTAssertEqual(ids(node.sublayerNodes(in: tree)), [a.layerID, b.layerID])
        tree.apply(CommitPacket.snapshot(of: c))
        XCTAssertEqual(ids(node.sublayerNodes(in: tree)), [a.layerID, c.layerID, b.layerID])
        XCTAssertTrue(node.sublayerNodes(in: tree)[1] === tree[c.layerID])

        // A released layer's node leaves with it.
        tree.apply(CommitPacket(changes: [], released: [a.layerID]))
        XCTAssertEqual(ids(node.sublayerNodes(in: tree)), [c.layerID, b.layerID])
    }
}
