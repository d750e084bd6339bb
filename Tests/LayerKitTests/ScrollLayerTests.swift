import XCTest
@testable import LayerKit

/// CAScrollLayer and the scrolling queries on CALayer, with origins worked out by hand.
final class ScrollLayerTests: XCTestCase {
    private func makeScroller() -> (CAScrollLayer, CALayer) {
        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        let content = CALayer()
        content.anchorPoint = .zero
        content.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        scroller.addSublayer(content)
        return (scroller, content)
    }

    func testAScrollLayerClipsByDefault() {
        XCTAssertTrue(CAScrollLayer().masksToBounds)
        XCTAssertEqual(CAScrollLayer().scrollMode, .both)
    }

    func testScrollToPointMovesTheBoundsOrigin() {
        let (scroller, _) = makeScroller()
        scroller.scroll(to: CGPoint(x: 30, y: 40))
        XCTAssertEqual(scroller.bounds, CGRect(x: 30, y: 40, width: 100, height: 50))
    }

    func testScrollModeLimitsTheDirections() {
        let (scroller, _) = makeScroller()
        scroller.scrollMode = .horizontally
        scroller.scroll(to: CGPoint(x: 30, y: 40))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 30, y: 0))
        scroller.scrollMode = .none
        scroller.scroll(to: CGPoint(x: 90, y: 90))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 30, y: 0))
    }

    func testScrollToRectMovesTheLeastDistance() {
        let (scroller, _) = makeScroller()
        // x: 150…180 lies right of 0…100 → origin.x = 180 − 100 = 80; y: 10…20 is inside 0…50 → stays 0.
        scroller.scroll(to: CGRect(x: 150, y: 10, width: 30, height: 10))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 80, y: 0))
        // A rect larger than the bounds shows its top-left.
        scroller.scroll(to: CGRect(x: 5, y: 7, width: 300, height: 200))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 5, y: 7))
    }

    func testScrollRectToVisibleFromASublayerUsesItsCoordinates() {
        let (scroller, content) = makeScroller()
        let item = CALayer()
        item.anchorPoint = .zero
        item.position = CGPoint(x: 200, y: 100)
        item.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        content.addSublayer(item)
        // The item spans x 200…220, y 100…120 in the scroller: origin (120, 70).
        item.scrollRectToVisible(item.bounds)
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 120, y: 70))
        // scroll(_:) puts a point of the item at the top-left: (200 + 5, 100 + 5).
        item.scroll(CGPoint(x: 5, y: 5))
        XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 205, y: 105))
    }

    func testVisibleRectIsTheScrolledWindowInTheLayersCoordinates() {
        let (scroller, content) = makeScroller()
        scroller.scroll(to: CGPoint(x: 30, y: 40))
        XCTAssertEqual(content.visibleRect, CGRect(x: 30, y: 40, width: 100, height: 50))
        XCTAssertEqual(scroller.visibleRect, scroller.bounds)
    }
}
