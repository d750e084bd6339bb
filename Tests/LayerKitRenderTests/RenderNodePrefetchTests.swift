import CMalloc
import XCTest
@testable import LayerKitRender

/// `RenderNode.prefetch(_:)` fetches a whole node: the block the heap gave a node holds at most
/// `prefetchedBytes`, and not so few that most of what is fetched lies beyond it.
final class RenderNodePrefetchTests: XCTestCase {
    func testPrefetchingCoversAWholeNodeAndLittleMore() {
        let node = RenderNode(id: LayerID.next())
        let block = withExtendedLifetime(node) { malloc_usable_size(Unmanaged.passUnretained(node).toOpaque()) }
        XCTAssertLessThanOrEqual(block, RenderNode.prefetchedBytes)
        XCTAssertGreaterThan(block, RenderNode.prefetchedBytes / 2)
    }
}
