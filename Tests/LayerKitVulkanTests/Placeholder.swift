import XCTest
final class PlaceholderLayerKitVulkanTests: XCTestCase { func testBuilds() {} }
