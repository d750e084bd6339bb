import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// CAShapeLayer's model: Core Animation's defaults, key-value coding, which properties animate
/// implicitly (all but `path`), copying the path, refusing bad input, and what the commit carries.
final class CAShapeLayerTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func testDefaultsAreCoreAnimations() {
        let shape = CAShapeLayer()
        XCTAssertNil(shape.path)
        XCTAssertEqual(shape.fillColor, CGColor.black)
        XCTAssertEqual(shape.fillRule, .nonZero)
        XCTAssertNil(shape.strokeColor)
        XCTAssertEqual(shape.lineWidth, 1)
        XCTAssertEqual(shape.lineCap, .butt)
        XCTAssertEqual(shape.lineJoin, .miter)
        XCTAssertEqual(shape.miterLimit, 10)
        XCTAssertNil(shape.lineDashPattern)
        XCTAssertEqual(shape.lineDashPhase, 0)
        XCTAssertEqual(shape.strokeStart, 0)
        XCTAssertEqual(shape.strokeEnd, 1)
    }

    func testPropertiesAreReachedByKeyValueCoding() {
        let shape = CAShapeLayer()
        shape.setValue(3, forKey: "lineWidth")
        XCTAssertEqual(shape.lineWidth, 3)
        shape.strokeEnd = 0.25
        XCTAssertEqual(shape.value(forKey: "strokeEnd") as? CGFloat, 0.25)
        shape.lineDashPattern = [4, 2]
        XCTAssertEqual(shape.lineDashPattern, [4, 2])
        shape.setValue("even-odd", forKey: "fillRule")
        XCTAssertEqual(shape.fillRule, .evenOdd)
    }

    func testAFillColorSetToNilStaysNil() {
        let shape = CAShapeLayer()
        shape.fillColor = nil
        XCTAssertNil(shape.fillColor, "nil must not fall back to the black default")
        XCTAssertNil(shape.value(forKey: "fillColor"))
        shape.fillColor = .white
        XCTAssertEqual(shape.fillColor, .white)
    }

    func testThePathIsCopiedWhenSet() throws {
        let mutable = CGMutablePath()
        mutable.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        let shape = CAShapeLayer()
        shape.path = mutable
        mutable.addRect(CGRect(x: 20, y: 20, width: 5, height: 5))
        let stored = try XCTUnwrap(shape.path)
        XCTAssertFalse(stored is CGMutablePath)
        XCTAssertEqual(stored, CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
    }

    func testEveryPropertyButPathAnimatesImplicitly() {
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        CATransaction.flush()
        shape.strokeEnd = 0.5
        shape.fillColor = .white
        shape.lineWidth = 4
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(Set(shape.animationKeys() ?? []), ["strokeEnd", "fillColor", "lineWidth"])
        let strokeEnd = shape.animation(forKey: "strokeEnd") as? CABasicAnimation
        XCTAssertEqual(strokeEnd?.fromValue as? CGFloat, 1, "from the value on screen")
        // An explicit path animation (morphing) is accepted.
        let morph = CABasicAnimation(keyPath: "path")
        morph.toValue = CGPath(rect: CGRect(x: 5, y: 5, width: 10, height: 10))
        let capture = DiagnosticCapture()
        shape.add(morph, forKey: "morph")
        CATransaction.flush()
        XCTAssertEqual(capture.names, [])
        XCTAssertEqual(shape.animationKeys()?.contains("morph"), true)
    }

    func testColorsAnimateToAndFromNil() {
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        CATransaction.flush()
        let capture = DiagnosticCapture()
        shape.fillColor = nil
        shape.strokeColor = .white
        XCTAssertEqual(Set(shape.animationKeys() ?? []), ["fillColor", "strokeColor"])
        CATransaction.flush()
        XCTAssertEqual(capture.names, [], "a nil color is animated whole, from or to clear")
        XCTAssertEqual(Set(shape.animationKeys() ?? []), ["fillColor", "strokeColor"], "both committed")
    }

    func testNonFiniteValuesAreRefused() throws {
        let capture = DiagnosticCapture()
        let shape = CAShapeLayer()
        shape.lineWidth = 2
        shape.lineWidth = .nan
        shape.strokeEnd = .infinity
        XCTAssertEqual(shape.lineWidth, 2)
        XCTAssertEqual(shape.strokeEnd, 1)
        XCTAssertEqual(capture.names, ["nonFiniteGeometry", "nonFiniteGeometry"])
        // A path cannot hold a non-finite point: the path refuses it, so the layer never sees one.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: CGFloat.nan, y: 3))
        shape.path = path
        XCTAssertEqual(try XCTUnwrap(shape.path).elements.count, 1)
        XCTAssertEqual(capture.names.last, "nonFinitePathGeometry")
    }

    func testACommitCarriesEveryShapePropertyWhenOneChanges() throws {
        let shape = CAShapeLayer()
        CATransaction.flush()
        shape.strokeEnd = 0.75
        let packet = CommitPacket.collect()
        let change = try XCTUnwrap(packet.changes.first { $0.layer == shape.layerID })
        let values = Dictionary(change.customValues.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(Set(values.keys), Set(CAShapeLayer.declaredKeys + [LayerRenderKind.propertyKey]))
        XCTAssertEqual(values[LayerRenderKind.propertyKey], .some(.discrete(DiscreteValue("shape"))), "the class's kind goes with them")
        XCTAssertEqual(values["strokeEnd"], .some(.scalar(0.75)))
        XCTAssertEqual(values["fillColor"], .some(.color(SIMD4(0, 0, 0, 1))), "defaults included")
        XCTAssertEqual(values["strokeColor"], .some(nil), "nil is sent as nil")
        XCTAssertEqual(values["path"], .some(nil))
        XCTAssertEqual(values["lineCap"], .some(.discrete(DiscreteValue("butt"))), "enumerations as their strings")
    }

    func testASnapshotCarriesTheShape() throws {
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4))
        let packet = CommitPacket.snapshot(of: shape)
        let change = try XCTUnwrap(packet.changes.first)
        XCTAssertEqual(change.customValues.count, CAShapeLayer.declaredKeys.count + 1, "the declared keys and the kind")
        XCTAssertEqual(change.customValues.first { $0.key == "path" }?.value, .path(CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4))))
        CATransaction.flush()
    }

    func testAnAppsCustomPropertiesTravelByThemselves() throws {
        final class ProgressLayer: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
            }
        }
        let layer = ProgressLayer()
        CATransaction.flush()
        layer.setValue(CGFloat(0.5), forKey: "progress")
        layer.setValue(NSObject(), forKey: "opaqueThing")
        let packet = CommitPacket.collect()
        let change = try XCTUnwrap(packet.changes.first { $0.layer == layer.layerID })
        XCTAssertEqual(change.customValues.map(\.key), ["progress"], "objects stay on the model side")
    }
}
