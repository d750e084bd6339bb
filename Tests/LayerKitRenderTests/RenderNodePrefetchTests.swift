import XCTest
@testable import LayerKitRender

/// `RenderNode`'s prefetches fetch the fields a frame reads: each group of them ends within the bytes
/// fetched for it, and not so far before that a whole cache line is fetched for nothing.
final class RenderNodePrefetchTests: XCTestCase {
    private let line = 64

    /// Where a field of `node` ends, from the object's start (a stored property of a final class is
    /// accessed in place, so its address lies within the object).
    private func end<Value>(of field: inout Value, in node: RenderNode) -> Int {
        let start = UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque())
        return withUnsafeMutablePointer(to: &field) { Int(UInt(bitPattern: $0) - start) } + MemoryLayout<Value>.size
    }

    func testThePlacementGroupEndsWhereItsPrefetchDoes() {
        let node = RenderNode(id: LayerID.next())
        withExtendedLifetime(node) {
            let ends = [end(of: &node.bounds, in: node), end(of: &node.placement, in: node),
                        end(of: &node.isDoubleSided, in: node), end(of: &node.customPropertyStorage, in: node)]
            XCTAssertLessThanOrEqual(ends.max()!, RenderNode.placementBytes)
            XCTAssertGreaterThan(ends.max()!, RenderNode.placementBytes - line)
        }
    }

    func testTheFrameGroupEndsWhereItsPrefetchDoes() {
        let node = RenderNode(id: LayerID.next())
        withExtendedLifetime(node) {
            let ends = [end(of: &node.beginTime, in: node), end(of: &node.timeOffset, in: node), end(of: &node.speed, in: node),
                        end(of: &node.changeStamp, in: node), end(of: &node.contentStamp, in: node),
                        end(of: &node.plainLeafPlan, in: node)]
            XCTAssertGreaterThanOrEqual(ends.min()!, RenderNode.placementBytes)
            XCTAssertLessThanOrEqual(ends.max()!, RenderNode.frameBytes)
            XCTAssertGreaterThan(ends.max()!, RenderNode.frameBytes - line)
        }
    }

    func testTheRecordFollowsTheFrameGroup() {
        let node = RenderNode(id: LayerID.next())
        withExtendedLifetime(node) {
            let recordEnd = end(of: &node.retained, in: node)
            XCTAssertEqual(recordEnd - MemoryLayout<RetainedNodeRecord>.size, RenderNode.frameBytes)
            XCTAssertEqual(recordEnd, RenderNode.recordBytes)
        }
    }
}
