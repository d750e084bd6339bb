import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// CAGradientLayer's model: Core Animation's defaults, key-value coding, implicit animations of every
/// animatable property, refusing bad input, and what the commit carries.
final class CAGradientLayerTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func testDefaultsAreCoreAnimations() {
        let gradient = CAGradientLayer()
        XCTAssertNil(gradient.colors)
        XCTAssertNil(gradient.locations)
        XCTAssertEqual(gradient.startPoint, CGPoint(x: 0.5, y: 0))
        XCTAssertEqual(gradient.endPoint, CGPoint(x: 0.5, y: 1))
        XCTAssertEqual(gradient.type, .axial)
        XCTAssertEqual(CAGradientLayerType.axial.rawValue, "axial")
        XCTAssertEqual(CAGradientLayerType.radial.rawValue, "radial")
        XCTAssertEqual(CAGradientLayerType.conic.rawValue, "conic")
    }

    func testPropertiesAreReachedByKeyValueCoding() throws {
        let gradient = CAGradientLayer()
        gradient.setValue([CGColor.white, CGColor.black], forKey: "colors")
        let colors = try XCTUnwrap(gradient.colors as? [CGColor])
        XCTAssertEqual(colors, [.white, .black])
        gradient.locations = [0.25, 0.75]
        XCTAssertEqual((gradient.value(forKey: "locations") as? [NSNumber])?.map(\.doubleValue), [0.25, 0.75])
        gradient.setValue(CGPoint(x: 0, y: 0.5), forKey: "startPoint")
        XCTAssertEqual(gradient.startPoint, CGPoint(x: 0, y: 0.5))
        XCTAssertEqual(gradient.value(forKeyPath: "endPoint.y") as? CGFloat, 1)
        gradient.setValue("conic", forKey: "type")
        XCTAssertEqual(gradient.type, .conic)
        gradient.type = .radial
        XCTAssertEqual((gradient.value(forKey: "type") as? CAGradientLayerType)?.rawValue, "radial")
    }

    func testEveryAnimatablePropertyAnimatesImplicitlyButTypeDoesNot() throws {
        let root = CALayer()
        let gradient = CAGradientLayer()
        root.addSublayer(gradient)
        CATransaction.flush()
        gradient.colors = [CGColor.white, CGColor.black]
        gradient.locations = [0, 1]
        gradient.startPoint = .zero
        gradient.endPoint = CGPoint(x: 1, y: 1)
        gradient.type = .radial
        for key in ["colors", "locations", "startPoint", "endPoint"] {
            let animation = try XCTUnwrap(gradient.animation(forKey: key) as? CABasicAnimation, key)
            XCTAssertEqual(animation.keyPath, key)
        }
        XCTAssertNil(gradient.animation(forKey: "type"))
        CATransaction.flush()
    }

    /// Under a root paused at t = 1000.5 (speed 0, timeOffset), animations that began at 1000 for 1 s are
    /// halfway: colors and locations element by element, the start point component-wise.
    func testPresentationShowsColorsLocationsAndPointsPartWay() throws {
        let root = CALayer()
        root.speed = 0
        root.timeOffset = 1000.5
        let gradient = CAGradientLayer()
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.locations = [0, 1]
        root.addSublayer(gradient)
        CATransaction.flush()
        func animation(_ key: String, from: Any, to: Any) -> CABasicAnimation {
            let animation = CABasicAnimation(keyPath: key)
            animation.fromValue = from
            animation.toValue = to
            animation.beginTime = 1000
            animation.duration = 1
            return animation
        }
        gradient.add(animation("colors", from: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)],
                               to: [CGColor(red: 0, green: 1, blue: 0, alpha: 0), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]), forKey: "colors")
        gradient.add(animation("locations", from: [0, 1], to: [0.5, 0.7]), forKey: "locations")
        gradient.add(animation("startPoint", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 1, y: 0.5)), forKey: "startPoint")
        CATransaction.flush()
        let presentation = try XCTUnwrap(gradient.presentation())
        let colors = try XCTUnwrap(presentation.colors as? [CGColor]).map(\.rgba)
        XCTAssertEqual(colors.count, 2)
        XCTAssertEqual(colors[0].r, 0.5, accuracy: 1e-9)
        XCTAssertEqual(colors[0].g, 0.5, accuracy: 1e-9)
        XCTAssertEqual(colors[0].a, 0.5, accuracy: 1e-9)
        XCTAssertEqual(colors[1].r, 0.5, accuracy: 1e-9)
        XCTAssertEqual(colors[1].b, 1, accuracy: 1e-9)
        let locations = try XCTUnwrap(presentation.locations).map(\.doubleValue)
        XCTAssertEqual(locations[0], 0.25, accuracy: 1e-9)
        XCTAssertEqual(locations[1], 0.85, accuracy: 1e-9)
        XCTAssertEqual(presentation.startPoint.x, 0.5, accuracy: 1e-9)
        XCTAssertEqual(presentation.startPoint.y, 0.25, accuracy: 1e-9)
        XCTAssertEqual(gradient.locations?.map(\.doubleValue), [0, 1], "the model keeps its own")
    }

    func testColorsThatAreNotCGColorsAreRefusedWithADiagnostic() {
        let gradient = CAGradientLayer()
        gradient.colors = [CGColor.white]
        let capture = DiagnosticCapture()
        gradient.colors = [CGColor.black, "red"]
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertEqual((gradient.colors as? [CGColor]), [.white], "the previous value stays")
    }

    func testNonFiniteLocationsAreRefusedWithADiagnostic() {
        let gradient = CAGradientLayer()
        gradient.locations = [0, 1]
        let capture = DiagnosticCapture()
        gradient.locations = [0, NSNumber(value: Double.nan)]
        XCTAssertEqual(capture.names, ["nonFiniteGeometry"])
        XCTAssertEqual(gradient.locations?.map(\.doubleValue), [0, 1])
    }

    func testAChangeCommitsEveryGradientPropertyTogether() throws {
        let gradient = CAGradientLayer()
        CATransaction.flush()
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)]
        let packet = CommitPacket.collect()
        let change = try XCTUnwrap(packet.changes.first { $0.layer == gradient.layerID })
        let values = Dictionary(change.customValues.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(Set(values.keys), Set(CAGradientLayer.declaredKeys + [LayerRenderKind.propertyKey]))
        XCTAssertEqual(values[LayerRenderKind.propertyKey], .some(.discrete(DiscreteValue("gradient"))))
        XCTAssertEqual(values["colors"], .some(.colors([SIMD4(1, 0, 0, 0.5)])))
        XCTAssertEqual(values["startPoint"], .some(.point(CGPoint(x: 0.5, y: 0))), "defaults included")
        XCTAssertEqual(values["endPoint"], .some(.point(CGPoint(x: 0.5, y: 1))))
        XCTAssertEqual(values["type"], .some(.discrete(DiscreteValue("axial"))), "the type as its string")
        XCTAssertEqual(values["locations"], .some(nil), "nil is sent as nil")
    }
}
