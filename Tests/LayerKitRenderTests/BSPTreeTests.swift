import XCTest
@testable import LayerKitRender

/// BSP tree, thick-plane classification and the plane sorter on polygons whose pieces are worked out by
/// hand. Depth space: the viewer is at +z, so painter's order is far (small z) to near.
final class BSPTreeTests: XCTestCase {
    /// The square x, y ∈ [−10, 10] at depth `z`, wound counter-clockwise seen from +z (normal +z).
    func square(z: Double, order: Int, dx: Double = 0) -> DrawPolygon {
        DrawPolygon(points: [SIMD3(-10 + dx, -10, z), SIMD3(10 + dx, -10, z), SIMD3(10 + dx, 10, z), SIMD3(-10 + dx, 10, z)], order: order)
    }

    /// The rectangle in the plane x = 0: y ∈ [−10, 10], z ∈ [z0, z1].
    func wall(z0: Double, z1: Double, order: Int) -> DrawPolygon {
        DrawPolygon(points: [SIMD3(0, -10, z0), SIMD3(0, 10, z0), SIMD3(0, 10, z1), SIMD3(0, -10, z1)], order: order)
    }

    func testNormalAndAreaOfASquare() {
        let s = square(z: 3, order: 0)
        XCTAssertEqual(s.normal, SIMD3(0, 0, 1))
        XCTAssertEqual(s.area, 400, accuracy: 1e-9)
        XCTAssertTrue(s.facesViewer)
    }

    func testAWallThroughASquareIsSplitIntoPiecesOfTheAreasEachSideOfItsPlane() {
        // The wall spans z −10…30 (20 × 40 = 800); the square's plane z = 0 cuts it 20 × 10 behind and
        // 20 × 30 in front.
        let tree = BSPTree([square(z: 0, order: 0), wall(z0: -10, z1: 30, order: 1)])
        XCTAssertEqual(tree.splitCount, 1)
        let order = tree.paintersOrder
        XCTAssertEqual(order.map(\.order), [1, 0, 1], "the far piece, the square, the near piece")
        XCTAssertEqual(order[0].area, 200, accuracy: 1e-9)
        XCTAssertEqual(order[2].area, 600, accuracy: 1e-9)
        XCTAssertTrue(order[0].points.allSatisfy { $0.z <= 0 })
        XCTAssertTrue(order[2].points.allSatisfy { $0.z >= 0 })
        XCTAssertTrue(order[0].isSplit && order[2].isSplit && !order[1].isSplit)
    }

    func testTheSplitDoesNotDependOnWhichPolygonIsTheRoot() {
        // The wall as root: its plane x = 0 cuts the square into two 10 × 20 halves; the wall faces −x
        // (edge-on to the viewer), so the order of the halves is either, but both are there.
        let tree = BSPTree([wall(z0: -10, z1: 30, order: 0), square(z: 0, order: 1)])
        XCTAssertEqual(tree.splitCount, 1)
        let pieces = tree.paintersOrder.filter { $0.order == 1 }
        XCTAssertEqual(pieces.map(\.area), [200, 200])
    }

    func testPlanesMeetingAtAnEdgeAreNotSplit() {
        // A cube's neighbouring faces: the wall x = 0 spans z 0…20 and touches the square along z = 0.
        let tree = BSPTree([square(z: 0, order: 0, dx: 10), wall(z0: 0, z1: 20, order: 1)])
        XCTAssertEqual(tree.splitCount, 0)
        XCTAssertEqual(tree.paintersOrder.map(\.order), [0, 1], "the wall lies in front of the square")
    }

    func testAStraddleWithinTheThickPlaneCountsAsOnThePlane() {
        // 0.04 either side of z = 0 is within the 0.05 threshold: coplanar, not split.
        let tilted = DrawPolygon(points: [SIMD3(-10, -10, -0.04), SIMD3(10, -10, 0.04), SIMD3(10, 10, 0.04), SIMD3(-10, 10, -0.04)], order: 1)
        let tree = BSPTree([square(z: 0, order: 0), tilted])
        XCTAssertEqual(tree.splitCount, 0)
        XCTAssertEqual(tree.paintersOrder.map(\.order), [0, 1])
    }

    func testCoplanarPolygonsDrawInDrawOrder() {
        let tree = BSPTree([square(z: 5, order: 2), square(z: 5, order: 0, dx: 4), square(z: 5, order: 1, dx: -4)])
        XCTAssertEqual(tree.paintersOrder.map(\.order), [0, 1, 2])
    }

    func testPolygonsFacingAwayAreStillOrderedFarToNear() {
        // Wound clockwise seen from +z: normal −z. The nearer one (z = 4) still draws last.
        func backwards(z: Double, order: Int) -> DrawPolygon {
            DrawPolygon(points: square(z: z, order: order).points.reversed(), order: order)
        }
        XCTAssertEqual(BSPTree([backwards(z: 4, order: 0), backwards(z: -4, order: 1)]).paintersOrder.map(\.order), [1, 0])
        XCTAssertEqual(BSPTree([backwards(z: -4, order: 0), backwards(z: 4, order: 1)]).paintersOrder.map(\.order), [0, 1])
    }

    func testSplittingATriangleGivesATriangleAndAQuadrilateral() {
        // The triangle (0,0,−10), (20,0,10), (0,20,10) crossing z = 0 where its z = 0: along the line
        // from (10,0,0) to (0,10,0) (z = x + y − 10 on its plane). Projected on x–y: the part with
        // x + y < 10 is a triangle of area 50, the rest a quadrilateral of 200 − 50 = 150; the tilt of the
        // plane (normal ∝ (−1, −1, 1)) scales areas by √3.
        let triangle = DrawPolygon(points: [SIMD3(0, 0, -10), SIMD3(20, 0, 10), SIMD3(0, 20, 10)], order: 1)
        let (front, back) = square(z: 0, order: 0).split(triangle)
        XCTAssertEqual(back?.points.count, 3)
        XCTAssertEqual(front?.points.count, 4)
        XCTAssertEqual(back?.area ?? 0, 50 * 3.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(front?.area ?? 0, 150 * 3.0.squareRoot(), accuracy: 1e-9)
    }

    // MARK: - PlaneSorter

    func testParallelPlanesApartInDepthAreSortedWithoutATree() {
        for planes in [[square(z: 10, order: 0), square(z: -10, order: 1, dx: 5)], [square(z: -10, order: 0, dx: 5), square(z: 10, order: 1)]] {
            let result = PlaneSorter.paintersOrder(planes)
            XCTAssertFalse(result.usedBSPTree)
            XCTAssertEqual(result.polygons.map { $0.points[0].z }, [-10, 10], "far first whatever the draw order")
        }
    }

    func testPlanesThatDoNotOverlapOnScreenNeedNoTree() {
        // Side by side at different depths, one crossing the other's depth range: no pixel shared.
        let left = DrawPolygon(points: [SIMD3(-30, -10, -5), SIMD3(-15, -10, 5), SIMD3(-15, 10, 5), SIMD3(-30, 10, -5)], order: 0)
        let result = PlaneSorter.paintersOrder([left, square(z: 0, order: 1)])
        XCTAssertFalse(result.usedBSPTree)
        XCTAssertEqual(result.polygons.count, 2)
    }

    func testIntersectingPlanesGoThroughTheTreeAndAreSplit() {
        let result = PlaneSorter.paintersOrder([square(z: 0, order: 0), wall(z0: -10, z1: 30, order: 1)])
        XCTAssertTrue(result.usedBSPTree)
        XCTAssertEqual(result.splitCount, 1)
        XCTAssertEqual(result.polygons.count, 3)
    }
}

extension BSPTreeTests {
    func testAContextTooLargeForATreeIsSortedByCentres() {
        // Walls crossing a square, beyond the tree's limit: no splits, far to near by centre depth.
        var planes = [square(z: 0, order: 0)]
        for k in 1...PlaneSorter.maximumTreePlanes {
            let z0 = -10 - Double(k % 7)
            planes.append(wall(z0: z0, z1: 30, order: k))
        }
        let result = PlaneSorter.paintersOrder(planes)
        XCTAssertFalse(result.usedBSPTree)
        XCTAssertEqual(result.polygons.count, planes.count)
        let centres = result.polygons.map { $0.points.reduce(0) { $0 + $1.z } / 4 }
        XCTAssertEqual(centres, centres.sorted())
        XCTAssertEqual(result.polygons.first?.order, 0, "the square's centre (z = 0) is the farthest")
    }
}

extension BSPTreeTests {
    func testPastItsSplitBudgetAStraddlingPolygonGoesWholeToItsCentroidsSide() {
        // The wall z −10…30 has its centroid at z = 10, in front of the square: drawn after it, whole.
        let tree = BSPTree([square(z: 0, order: 0), wall(z0: -10, z1: 30, order: 1)], splitBudget: 0)
        XCTAssertEqual(tree.splitCount, 0)
        XCTAssertEqual(tree.paintersOrder.map(\.order), [0, 1])
        XCTAssertFalse(tree.paintersOrder.contains { $0.isSplit })
    }
}
