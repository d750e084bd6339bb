import XCTest
final class PlaceholderLayerKitRenderTests: XCTestCase { func testBuilds() {} }
