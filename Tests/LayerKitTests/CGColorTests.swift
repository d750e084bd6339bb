import Foundation
import XCTest
@testable import LayerKit

final class CGColorTests: XCTestCase {
    func testRGBColorHasFourComponentsInSRGB() {
        let c = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        XCTAssertEqual(c.components, [0.1, 0.2, 0.3, 0.4])
        XCTAssertEqual(c.numberOfComponents, 4)
        XCTAssertEqual(c.alpha, 0.4)
        XCTAssertEqual(c.colorSpace?.name, CGColorSpace.sRGB)
        XCTAssertEqual(c.colorSpace?.model, .rgb)
        XCTAssertEqual(c.colorSpace?.numberOfComponents, 3)
    }

    func testGrayColorKeepsGrayComponents() {
        let c = CGColor(gray: 0.25, alpha: 0.5)
        XCTAssertEqual(c.components, [0.25, 0.5])
        XCTAssertEqual(c.numberOfComponents, 2)
        XCTAssertEqual(c.alpha, 0.5)
        XCTAssertEqual(c.colorSpace?.name, CGColorSpace.genericGrayGamma2_2)
        XCTAssertEqual(c.colorSpace?.model, .monochrome)
    }

    func testNamedColorsAreGrayAsInCoreGraphics() {
        XCTAssertEqual(CGColor.black.components, [0, 1])
        XCTAssertEqual(CGColor.white.components, [1, 1])
        XCTAssertEqual(CGColor.clear.components, [0, 0])
        XCTAssertEqual(CGColor.black.colorSpace?.model, .monochrome)
    }

    func testCopyWithAlphaReplacesOnlyAlpha() {
        let rgb = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        let faded = try! XCTUnwrap(rgb.copy(alpha: 0.25))
        XCTAssertEqual(faded.components, [1, 0.5, 0, 0.25])
        XCTAssertEqual(faded.colorSpace, rgb.colorSpace)
        XCTAssertEqual(rgb.alpha, 1, "the original is immutable")

        let gray = try! XCTUnwrap(CGColor.white.copy(alpha: 0.5))
        XCTAssertEqual(gray.components, [1, 0.5])
        XCTAssertEqual(gray.colorSpace?.model, .monochrome)
        XCTAssertEqual(CGColor.white.copy(alpha: 7)?.alpha, 1, "alpha is clamped")
    }

    func testEqualityIsByValueAndSpace() {
        let a = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        let b = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        XCTAssertFalse(a === b)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.9))
        // Same look, different space: not equal, as CGColorEqualToColor.
        XCTAssertNotEqual(CGColor(gray: 0.5, alpha: 1), CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        XCTAssertEqual(CGColor(gray: 0, alpha: 1), CGColor.black)
        XCTAssertEqual(Set([a, b, CGColor.black]).count, 2)
    }

    func testComponentsAreClampedToUnitRange() {
        let c = CGColor(red: 1.5, green: -0.5, blue: .nan, alpha: 2)
        XCTAssertEqual(c.components, [1, 0, 0, 1])
    }

    func testStraightAndPremultipliedRGBAForRenderer() {
        let rgb = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        XCTAssertEqual(rgb.premultipliedRGBA, SIMD4<Float>(0.5, 0.25, 0, 0.5))
        let straight = rgb.rgba
        XCTAssertEqual([straight.r, straight.g, straight.b, straight.a], [1, 0.5, 0, 0.5])

        // Gray g widens to (g, g, g): (0.5, α 0.5) premultiplies to 0.25 in each channel.
        let gray = CGColor(gray: 0.5, alpha: 0.5)
        XCTAssertEqual(gray.premultipliedRGBA, SIMD4<Float>(0.25, 0.25, 0.25, 0.5))
        let g = gray.rgba
        XCTAssertEqual([g.r, g.g, g.b, g.a], [0.5, 0.5, 0.5, 0.5])
        XCTAssertEqual(CGColor.clear.premultipliedRGBA, .zero)
    }

    func testColorSpaceByNameAndComponentPointer() {
        XCTAssertNil(CGColorSpace(name: "kCGColorSpaceDisplayP3"))
        let srgb = try! XCTUnwrap(CGColorSpace(name: CGColorSpace.sRGB))
        XCTAssertEqual(srgb, CGColorSpaceCreateDeviceRGB())
        let components: [CGFloat] = [0.1, 0.2, 0.3, 0.4]
        let c = try! XCTUnwrap(components.withUnsafeBufferPointer { CGColor(colorSpace: srgb, components: $0.baseAddress!) })
        XCTAssertEqual(c, CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        let grayComponents: [CGFloat] = [0.7, 1]
        let g = try! XCTUnwrap(grayComponents.withUnsafeBufferPointer {
            CGColor(colorSpace: CGColorSpaceCreateDeviceGray(), components: $0.baseAddress!)
        })
        XCTAssertEqual(g, CGColor(gray: 0.7, alpha: 1))
    }
}
