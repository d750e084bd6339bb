import Foundation
import XCTest
@testable import LayerKit

/// Actions: the lookup order (delegate → `actions` → `style["actions"]` → `defaultAction(forKey:)` →
/// the built-in implicit animation), `NSNull` stopping the search at every level, and when implicit
/// animations run (only on committed layers, not with actions disabled) and what they start from.
final class ActionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    // MARK: - Fixtures

    /// An action that records what it was run for.
    private final class RecordingAction: CAAction {
        let name: String
        var runs: [(event: String, layer: CALayer?)] = []
        init(_ name: String) { self.name = name }
        func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
            runs.append((event, anObject as? CALayer))
        }
    }

    private final class Delegate: CALayerDelegate {
        var answer: CAAction?
        var asked: [String] = []
        func action(for layer: CALayer, forKey event: String) -> CAAction? {
            asked.append(event)
            return answer
        }
    }

    /// The class-level answer of `DefaultActionLayer`, settable per test.
    nonisolated(unsafe) private static var classAction: CAAction?

    private final class DefaultActionLayer: CALayer {
        override class func defaultAction(forKey event: String) -> CAAction? {
            event == "position" ? ActionTests.classAction : nil
        }
    }

    override func tearDown() {
        Self.classAction = nil
        super.tearDown()
    }

    /// A `DefaultActionLayer` with an action at every level for "position".
    private func fullyStockedLayer() -> (DefaultActionLayer, Delegate, [String: RecordingAction]) {
        let actions = ["delegate": RecordingAction("delegate"), "actions": RecordingAction("actions"),
                       "style": RecordingAction("style"), "default": RecordingAction("default")]
        let layer = DefaultActionLayer()
        let delegate = Delegate()
        delegate.answer = actions["delegate"]
        layer.delegate = delegate
        layer.actions = ["position": actions["actions"]!]
        layer.style = ["actions": ["position": actions["style"]!]]
        Self.classAction = actions["default"]
        return (layer, delegate, actions)
    }

    /// A layer that has been committed once: a change puts it in the transaction, the flush commits it.
    private func committedLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        return layer
    }

    private func name(of action: CAAction?) -> String? {
        if let recording = action as? RecordingAction { return recording.name }
        if let basic = action as? CABasicAnimation { return "built-in \(basic.keyPath ?? "?")" }
        return action.map { "\(type(of: $0))" }
    }

    // MARK: - Lookup order

    func testLookupOrderIsDelegateActionsStyleDefaultBuiltIn() {
        let (layer, delegate, _) = fullyStockedLayer()
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "delegate")
        delegate.answer = nil
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "actions")
        layer.actions = nil
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "style")
        layer.style = nil
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "default")
        Self.classAction = nil
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "built-in position")
        XCTAssertEqual(delegate.asked.count, 5, "the delegate is asked first every time")
    }

    func testNSNullFromTheDelegateStopsTheSearch() {
        let (layer, delegate, _) = fullyStockedLayer()
        delegate.answer = NSNull()
        XCTAssertNil(layer.action(forKey: "position"))
    }

    func testNSNullInActionsStopsTheSearch() {
        let (layer, delegate, _) = fullyStockedLayer()
        delegate.answer = nil
        layer.actions = ["position": NSNull()]
        XCTAssertNil(layer.action(forKey: "position"))
    }

    func testNSNullInStyleActionsStopsTheSearch() {
        let (layer, delegate, _) = fullyStockedLayer()
        delegate.answer = nil
        layer.actions = nil
        layer.style = ["actions": ["position": NSNull()]]
        XCTAssertNil(layer.action(forKey: "position"))
    }

    func testNSNullFromDefaultActionStopsTheSearch() {
        let layer = DefaultActionLayer()
        Self.classAction = NSNull()
        XCTAssertNil(layer.action(forKey: "position"), "no built-in animation after NSNull")
    }

    func testNestedStyleIsSearched() {
        let layer = CALayer()
        let deep = RecordingAction("deep")
        layer.style = ["style": ["actions": ["opacity": deep]]]
        XCTAssertEqual(name(of: layer.action(forKey: "opacity")), "deep")
    }

    func testActionsForOtherKeysDoNotInterfere() {
        let layer = CALayer()
        layer.actions = ["opacity": RecordingAction("opacity")]
        XCTAssertEqual(name(of: layer.action(forKey: "position")), "built-in position")
    }

    func testNonAnimatablePropertiesHaveNoBuiltInAction() {
        let layer = CALayer()
        XCTAssertNil(layer.action(forKey: "name"))
        XCTAssertNil(layer.action(forKey: "speed"))
        XCTAssertNil(layer.action(forKey: "somethingElse"))
    }

    func testBuiltInActionUsesTheTransactionsDurationAndTimingFunction() {
        let layer = CALayer()
        layer.opacity = 0.3
        let plain = layer.action(forKey: "opacity") as? CABasicAnimation
        XCTAssertEqual(plain?.duration, 0.25)
        XCTAssertEqual(plain?.timingFunction, CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1), "Core Animation's default curve")
        XCTAssertEqual(plain?.fromValue as? Float, 0.3, "from the current (presentation) value")
        XCTAssertNil(plain?.toValue, "to the model value, whatever it becomes")
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.5)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        let custom = layer.action(forKey: "opacity") as? CABasicAnimation
        CATransaction.commit()
        XCTAssertEqual(custom?.duration, 1.5)
        XCTAssertEqual(custom?.timingFunction, CAMediaTimingFunction(name: .easeIn))
    }

    // MARK: - Running actions on property changes

    func testSettingAPropertyOfACommittedLayerRunsTheFoundAction() {
        let layer = CALayer()
        let recorder = RecordingAction("actions")
        layer.actions = ["position": recorder]
        CATransaction.flush()
        layer.position = CGPoint(x: 4, y: 5)
        XCTAssertEqual(recorder.runs.count, 1)
        XCTAssertEqual(recorder.runs.first?.event, "position")
        XCTAssertTrue(recorder.runs.first?.layer === layer)
        XCTAssertNil(layer.animationKeys(), "a custom action decides what happens: nothing here")
    }

    func testAnAnimationAsActionIsAddedUnderTheKey() {
        let layer = CALayer()
        let fade = CABasicAnimation()
        fade.duration = 3
        layer.actions = ["opacity": fade]
        CATransaction.flush()
        layer.opacity = 0.5
        XCTAssertEqual(layer.animationKeys(), ["opacity"])
        XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 3)
    }

    func testUncommittedLayersDoNotAnimate() {
        let layer = CALayer()
        let recorder = RecordingAction("actions")
        layer.actions = ["position": recorder]
        layer.position = CGPoint(x: 1, y: 1)
        layer.opacity = 0.5
        XCTAssertTrue(recorder.runs.isEmpty)
        XCTAssertNil(layer.animationKeys())
    }

    func testCommittedLayersAnimateImplicitly() {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 20)
        CATransaction.flush()
        layer.position = CGPoint(x: 30, y: 40)
        XCTAssertEqual(layer.animationKeys(), ["position"])
        let implicit = layer.animation(forKey: "position") as? CABasicAnimation
        XCTAssertEqual(implicit?.keyPath, "position")
        XCTAssertEqual(implicit?.fromValue as? CGPoint, CGPoint(x: 10, y: 20), "the value before the change")
        XCTAssertNil(implicit?.toValue)
        XCTAssertEqual(implicit?.duration, 0.25)
        XCTAssertEqual(layer.position, CGPoint(x: 30, y: 40), "the model has the new value at once")
    }

    func testDisableActionsSkipsTheSearch() {
        let layer = committedLayer()
        let delegate = Delegate()
        delegate.answer = RecordingAction("delegate")
        layer.delegate = delegate
        CATransaction.setDisableActions(true)
        layer.position = CGPoint(x: 3, y: 3)
        XCTAssertTrue(delegate.asked.isEmpty, "nobody is asked")
        XCTAssertTrue((delegate.answer as? RecordingAction)?.runs.isEmpty ?? false)
        CATransaction.flush()
    }

    func testDelegateNSNullSuppressesTheImplicitAnimation() {
        let layer = committedLayer()
        let delegate = Delegate()
        delegate.answer = NSNull()
        layer.delegate = delegate
        layer.position = CGPoint(x: 3, y: 3)
        XCTAssertEqual(delegate.asked, ["position"])
        XCTAssertNil(layer.animationKeys())
    }

    func testLayersAddedInTheSameTransactionDoNotAnimateTheirFirstValues() {
        let parent = committedLayer()
        let child = CALayer()
        child.position = CGPoint(x: 5, y: 5)
        child.opacity = 0.5
        parent.addSublayer(child)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        XCTAssertNil(child.animationKeys())
        CATransaction.flush()
        XCTAssertNil(child.animationKeys(), "committed without animations")
        child.opacity = 1
        XCTAssertEqual(child.animationKeys(), ["opacity"], "after its first commit it animates")
    }

    func testEachChangedPropertyGetsItsOwnImplicitAnimation() {
        let layer = committedLayer()
        layer.position = CGPoint(x: 1, y: 1)
        layer.opacity = 0.5
        layer.position = CGPoint(x: 2, y: 2)  // replaces the first position animation
        XCTAssertEqual(layer.animationKeys(), ["opacity", "position"])
    }

    func testImplicitAnimationStartsFromThePresentationValueMidAnimation() {
        // An explicit animation that has been running for 500 of its 1000 seconds: position.x 0 → 100,
        // now near 50 (a tenth of a point per second, so the time the test takes hardly matters).
        let layer = committedLayer()
        let slide = CABasicAnimation(keyPath: "position")
        slide.fromValue = CGPoint(x: 0, y: 0)
        slide.toValue = CGPoint(x: 100, y: 0)
        slide.duration = 1000
        slide.beginTime = CACurrentMediaTime() - 500
        layer.add(slide, forKey: "slide")
        CATransaction.flush()
        layer.position = CGPoint(x: 200, y: 0)
        let implicit = layer.animation(forKey: "position") as? CABasicAnimation
        let from = implicit?.fromValue as? CGPoint
        XCTAssertEqual(Double(from?.x ?? .nan), 50, accuracy: 0.5, "from where it is on screen, not the old model value 0")
        XCTAssertEqual(from?.y, 0)
    }

    func testImplicitAnimationFromValueFollowsAnEarlierImplicitAnimation() {
        // Two changes in a row: the second implicit animation starts from where the first one is shown
        // now. The first runs 2 → 10 over 1000 s, so "now" is its start give or take a few thousandths.
        let layer = CALayer()
        layer.cornerRadius = 2
        CATransaction.flush()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1000)
        layer.cornerRadius = 10
        CATransaction.commit()  // the implicit animation begins "now"
        layer.cornerRadius = 20
        let second = layer.animation(forKey: "cornerRadius") as? CABasicAnimation
        XCTAssertEqual(Double(second?.fromValue as? CGFloat ?? .nan), 2, accuracy: 0.01)
        XCTAssertEqual(layer.animationKeys(), ["cornerRadius"], "the second replaced the first under the same key")
    }

    func testCustomKeysRunActionsToo() {
        let layer = CALayer()
        let recorder = RecordingAction("custom")
        layer.actions = ["myValue": recorder]
        CATransaction.flush()
        layer.setValue(3, forKey: "myValue")
        XCTAssertEqual(recorder.runs.map(\.event), ["myValue"])
    }
}
