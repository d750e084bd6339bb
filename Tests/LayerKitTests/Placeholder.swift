import XCTest
final class PlaceholderLayerKitTests: XCTestCase { func testBuilds() {} }
