import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// `CAConstraintLayoutManager`: frames worked out by hand for constraints against the superlayer and
/// against siblings (in dependency order, whatever the sublayer order), every pair of attributes on an
/// axis, one attribute alone, and the cycles and unknown names it refuses with a diagnostic.
final class ConstraintLayoutTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A superlayer with a constraint layout manager and `bounds`.
    private func superlayer(_ bounds: CGRect = CGRect(x: 0, y: 0, width: 200, height: 100)) -> CALayer {
        let layer = CALayer()
        layer.bounds = bounds
        layer.layoutManager = CAConstraintLayoutManager()
        return layer
    }

    /// A sublayer of `parent` named `name` with `frame` and `constraints`.
    @discardableResult
    private func sublayer(_ name: String, of parent: CALayer, frame: CGRect = .zero,
                          _ constraints: [CAConstraint] = []) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.frame = frame
        layer.constraints = constraints
        parent.addSublayer(layer)
        return layer
    }

    private func layOut(_ layer: CALayer) {
        layer.setNeedsLayout()
        layer.layoutIfNeeded()
    }

    private func c(_ attribute: CAConstraintAttribute, _ source: String, _ sourceAttribute: CAConstraintAttribute,
                   scale: CGFloat = 1, offset: CGFloat = 0) -> CAConstraint {
        CAConstraint(attribute: attribute, relativeTo: source, attribute: sourceAttribute, scale: scale, offset: offset)
    }

    // MARK: - Sublayer edits

    func testASublayerAddedAfterALayoutIsPlacedAtTheNextCommit() {
        let parent = superlayer()
        CATransaction.flush()
        XCTAssertFalse(parent.needsLayout())
        // Right half of the 200×100 superlayer, inset 10: x 110…190, y 10…90.
        let added = CALayer()
        added.constraints = [c(.minX, "superlayer", .midX, offset: 10), c(.maxX, "superlayer", .maxX, offset: -10),
                             c(.minY, "superlayer", .minY, offset: 10), c(.maxY, "superlayer", .maxY, offset: -10)]
        parent.addSublayer(added)
        XCTAssertTrue(parent.needsLayout(), "a sublayer edit marks the superlayer, as in Core Animation")
        CATransaction.flush()
        XCTAssertEqual(added.frame, CGRect(x: 110, y: 10, width: 80, height: 80))
        added.removeFromSuperlayer()
        XCTAssertTrue(parent.needsLayout(), "removing a sublayer marks the superlayer too")
    }

    // MARK: - The constraint value

    func testTheConvenienceInitializersDefaultToScaleOneAndOffsetZero() {
        let plain = CAConstraint(attribute: .minX, relativeTo: "a", attribute: .maxX)
        XCTAssertEqual(plain.attribute, .minX)
        XCTAssertEqual(plain.sourceName, "a")
        XCTAssertEqual(plain.sourceAttribute, .maxX)
        XCTAssertEqual(plain.scale, 1)
        XCTAssertEqual(plain.offset, 0)
        let offset = CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .width, offset: -4)
        XCTAssertEqual(offset.scale, 1)
        XCTAssertEqual(offset.offset, -4)
        XCTAssertEqual(CAConstraintAttribute.height.rawValue, 7, "Core Animation's raw values: minX 0 … height 7")
    }

    func testAddConstraintAppends() {
        let layer = CALayer()
        XCTAssertNil(layer.constraints)
        layer.addConstraint(c(.minX, "superlayer", .minX))
        layer.addConstraint(c(.width, "superlayer", .width))
        XCTAssertEqual(layer.constraints?.map(\.attribute), [.minX, .width])
        layer.constraints = []
        XCTAssertNil(layer.constraints)
    }

    // MARK: - Against the superlayer

    func testALayerCenteredInItsSuperlayer() {
        let root = superlayer() // 200 × 100
        let child = sublayer("child", of: root, frame: CGRect(x: 0, y: 0, width: 40, height: 20), [
            c(.midX, "superlayer", .midX), c(.midY, "superlayer", .midY),
        ])
        layOut(root)
        // Centre (100, 50), size kept: x = 100 - 20, y = 50 - 10.
        XCTAssertEqual(child.frame, CGRect(x: 80, y: 40, width: 40, height: 20))
    }

    func testWidthHalfOfTheSuperlayerKeepsTheMinEdge() {
        let root = superlayer(CGRect(x: 0, y: 0, width: 300, height: 100))
        let child = sublayer("child", of: root, frame: CGRect(x: 5, y: 7, width: 10, height: 10), [
            c(.width, "superlayer", .width, scale: 0.5),
        ])
        layOut(root)
        XCTAssertEqual(child.frame, CGRect(x: 5, y: 7, width: 150, height: 10), "0.5 × 300; x and the y axis untouched")
    }

    func testTheSuperlayerIsItsBoundsWithTheirOrigin() {
        let root = superlayer(CGRect(x: 100, y: 50, width: 200, height: 100))
        let child = sublayer("child", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.minX, "superlayer", .minX, offset: 5), c(.maxY, "superlayer", .maxY),
        ])
        layOut(root)
        XCTAssertEqual(child.frame, CGRect(x: 105, y: 140, width: 10, height: 10), "x 100 + 5; maxY 150 - height 10")
    }

    /// Every pair of attributes on one axis, superlayer 200 wide: the two values fix origin and size.
    func testEveryPairOfAttributesOnAnAxis() {
        let cases: [(CAConstraint, CAConstraint, x: CGFloat, width: CGFloat)] = [
            // min 10, max 150 → 10…150
            (c(.minX, "superlayer", .minX, offset: 10), c(.maxX, "superlayer", .maxX, offset: -50), 10, 140),
            // min 10, mid 60 → half width 50
            (c(.minX, "superlayer", .minX, offset: 10), c(.midX, "superlayer", .midX, offset: -40), 10, 100),
            // min 10, width 0.25 × 200
            (c(.minX, "superlayer", .minX, offset: 10), c(.width, "superlayer", .width, scale: 0.25), 10, 50),
            // mid 100, max 130 → half width 30
            (c(.midX, "superlayer", .midX), c(.maxX, "superlayer", .midX, offset: 30), 70, 60),
            // mid 100, width 80
            (c(.midX, "superlayer", .midX), c(.width, "superlayer", .width, offset: -120), 60, 80),
            // max 190, width 30
            (c(.maxX, "superlayer", .maxX, offset: -10), c(.width, "superlayer", .width, scale: 0, offset: 30), 160, 30),
        ]
        for (first, second, x, width) in cases {
            for pair in [[first, second], [second, first]] {
                let root = superlayer()
                let child = sublayer("child", of: root, frame: CGRect(x: 1, y: 2, width: 3, height: 4), pair)
                layOut(root)
                XCTAssertEqual(child.frame, CGRect(x: x, y: 2, width: width, height: 4), "\(pair)")
            }
        }
    }

    func testOneEdgeOrMiddleAloneKeepsTheSize() {
        let root = superlayer() // 200 × 100
        let maxOnly = sublayer("maxOnly", of: root, frame: CGRect(x: 0, y: 0, width: 30, height: 10), [
            c(.maxX, "superlayer", .maxX), c(.maxY, "superlayer", .maxY),
        ])
        let midOnly = sublayer("midOnly", of: root, frame: CGRect(x: 0, y: 0, width: 30, height: 10), [
            c(.midY, "superlayer", .height, scale: 0.25),
        ])
        layOut(root)
        XCTAssertEqual(maxOnly.frame, CGRect(x: 170, y: 90, width: 30, height: 10))
        XCTAssertEqual(midOnly.frame, CGRect(x: 0, y: 20, width: 30, height: 10), "midY 25, height 10")
    }

    func testMoreThanTwoAttributesUseTheFirstTwoGiven() {
        let root = superlayer()
        let child = sublayer("child", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.width, "superlayer", .width, scale: 0.5), // 100
            c(.maxX, "superlayer", .maxX),               // 200
            c(.minX, "superlayer", .minX),               // ignored
        ])
        layOut(root)
        XCTAssertEqual(child.frame, CGRect(x: 100, y: 0, width: 100, height: 10))
    }

    func testALaterConstraintOnTheSameAttributeReplacesTheEarlier() {
        let root = superlayer()
        let child = sublayer("child", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.minX, "superlayer", .minX, offset: 5),
            c(.minX, "superlayer", .minX, offset: 20),
        ])
        layOut(root)
        XCTAssertEqual(child.frame.minX, 20)
    }

    // MARK: - Against siblings

    func testPinnedToASiblingsMaxXPlusTen() {
        let root = superlayer()
        sublayer("a", of: root, frame: CGRect(x: 10, y: 10, width: 50, height: 30))
        let b = sublayer("b", of: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), [
            c(.minX, "a", .maxX, offset: 10), c(.minY, "a", .minY),
        ])
        layOut(root)
        XCTAssertEqual(b.frame, CGRect(x: 70, y: 10, width: 20, height: 20), "a.maxX 60 + 10; a.minY 10")
    }

    func testAChainThroughTwoSiblingsIsSolvedInDependencyOrder() {
        let root = superlayer() // 200 × 100
        // Sublayer order c, b, a: c reads b, which reads a, which reads the superlayer.
        let cLayer = sublayer("c", of: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), [
            c(.minX, "b", .maxX, offset: 10), c(.midY, "b", .midY),
        ])
        let bLayer = sublayer("b", of: root, frame: CGRect(x: 0, y: 0, width: 30, height: 40), [
            c(.minX, "a", .maxX, offset: 10), c(.minY, "a", .maxY),
        ])
        let aLayer = sublayer("a", of: root, frame: CGRect(x: 0, y: 0, width: 5, height: 5), [
            c(.minX, "superlayer", .minX, offset: 10), c(.width, "superlayer", .width, scale: 0.2),
            c(.minY, "superlayer", .minY, offset: 5), c(.height, "superlayer", .height, scale: 0.1),
        ])
        layOut(root)
        XCTAssertEqual(aLayer.frame, CGRect(x: 10, y: 5, width: 40, height: 10))
        XCTAssertEqual(bLayer.frame, CGRect(x: 60, y: 15, width: 30, height: 40), "a.maxX 50 + 10; a.maxY 15")
        XCTAssertEqual(cLayer.frame, CGRect(x: 100, y: 25, width: 20, height: 20), "b.maxX 90 + 10; b.midY 35 - 10")
    }

    func testASiblingReadOnTheOtherAxisIsSolvedFirst() {
        let root = superlayer()
        let follower = sublayer("follower", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.width, "leader", .height), // leader's vertical extent, solved first
        ])
        let leader = sublayer("leader", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.height, "superlayer", .height, scale: 0.5),
        ])
        layOut(root)
        XCTAssertEqual(leader.frame.height, 50)
        XCTAssertEqual(follower.frame, CGRect(x: 0, y: 0, width: 50, height: 10))
    }

    func testALayerMayReadItsOwnOtherAxis() {
        let root = superlayer()
        let square = sublayer("square", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.width, "square", .height), c(.height, "superlayer", .height, offset: -20),
        ])
        layOut(root)
        XCTAssertEqual(square.frame, CGRect(x: 0, y: 0, width: 80, height: 80))
    }

    func testTheFirstSiblingWithTheNameIsTheSource() {
        let root = superlayer()
        sublayer("twin", of: root, frame: CGRect(x: 10, y: 0, width: 10, height: 10))
        sublayer("twin", of: root, frame: CGRect(x: 100, y: 0, width: 10, height: 10))
        let child = sublayer("child", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.minX, "twin", .maxX),
        ])
        layOut(root)
        XCTAssertEqual(child.frame.minX, 20)
    }

    // MARK: - Refused

    func testACycleIsRefusedWithADiagnosticAndTheRestIsApplied() {
        let capture = DiagnosticCapture()
        let root = superlayer()
        let a = sublayer("a", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.minX, "b", .maxX, offset: 10), c(.minY, "superlayer", .minY, offset: 5),
        ])
        let b = sublayer("b", of: root, frame: CGRect(x: 100, y: 0, width: 20, height: 10), [
            c(.minX, "a", .maxX, offset: 10),
        ])
        layOut(root)
        // Solving a's x reads b's x, which reads a's x (in progress): b's constraint is refused, so b keeps
        // its frame (100…120) and a.minX = 120 + 10.
        XCTAssertEqual(capture.diagnostics.filter { $0.name == "constraintCycleRefused" },
                       [.constraintCycleRefused(layer: "'b'", source: "a", attribute: "minX")])
        XCTAssertEqual(b.frame, CGRect(x: 100, y: 0, width: 20, height: 10))
        XCTAssertEqual(a.frame, CGRect(x: 130, y: 5, width: 10, height: 10))
    }

    func testAConstraintOnItsOwnAxisIsACycle() {
        let capture = DiagnosticCapture()
        let root = superlayer()
        let layer = sublayer("self", of: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), [
            c(.width, "self", .width, scale: 2),
        ])
        layOut(root)
        XCTAssertEqual(capture.names.filter { $0 == "constraintCycleRefused" }, ["constraintCycleRefused"])
        XCTAssertEqual(layer.frame.width, 10)
    }

    func testAnUnknownSourceIsIgnoredWithADiagnostic() {
        let capture = DiagnosticCapture()
        let root = superlayer()
        let child = sublayer("child", of: root, frame: CGRect(x: 3, y: 0, width: 10, height: 10), [
            c(.minX, "nobody", .maxX), c(.minY, "superlayer", .minY, offset: 4),
        ])
        layOut(root)
        XCTAssertEqual(capture.diagnostics.filter { $0.name == "unknownConstraintSource" },
                       [.unknownConstraintSource(layer: "'child'", source: "nobody")])
        XCTAssertEqual(child.frame, CGRect(x: 3, y: 4, width: 10, height: 10))
    }

    // MARK: - In the layout pass

    func testResizingTheSuperlayerLaysTheConstraintsOutAgainAtTheCommit() {
        let root = superlayer()
        let child = sublayer("child", of: root, frame: .zero, [
            c(.minX, "superlayer", .minX, offset: 10), c(.maxX, "superlayer", .maxX, offset: -10),
            c(.midY, "superlayer", .midY), c(.height, "superlayer", .height, scale: 0.5),
        ])
        CATransaction.flush()
        XCTAssertEqual(child.frame, CGRect(x: 10, y: 25, width: 180, height: 50))
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        CATransaction.flush()
        XCTAssertEqual(child.frame, CGRect(x: 10, y: 10, width: 80, height: 20))
    }

    func testAnUnchangedFrameIsNotSetAgain() {
        let root = superlayer()
        let child = sublayer("child", of: root, frame: CGRect(x: 10, y: 0, width: 10, height: 10), [
            c(.minX, "superlayer", .minX, offset: 10),
        ])
        _ = LayerChangeLog.current.drain()
        layOut(root)
        XCTAssertFalse(LayerChangeLog.current.drain().contains { $0.layer === child }, "no change recorded")
    }
}
