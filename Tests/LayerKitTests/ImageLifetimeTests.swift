import XCTest
@testable import LayerKit

/// `ImageLifetime`: the token caches hold instead of a weak reference to an image.
final class ImageLifetimeTests: XCTestCase {
    func testTheLifetimeEndsWhenTheImageIsDeallocatedAndNotBefore() throws {
        var image: CGImage? = try XCTUnwrap(CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [1, 2, 3, 255]))
        let lifetime = try XCTUnwrap(image?.lifetime)
        // Holding the token keeps nothing alive but the token.
        weak let observed = image
        XCTAssertTrue(lifetime.isAlive)
        image = nil
        XCTAssertNil(observed)
        XCTAssertFalse(lifetime.isAlive)
    }

    func testEveryImageHasALifetimeOfItsOwn() throws {
        let a = try XCTUnwrap(CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [0, 0, 0, 255]))
        let b = CGImage(a, updating: PartialImageUpdate(base: a, x: 0, y: 0, width: 1, height: 1))
        XCTAssertFalse(a.lifetime === b.lifetime)
    }
}
