import Foundation
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

/// A window whose device is lost makes its rendering again — device, surface, swapchain, render thread —
/// from the model, and shows what it showed before.
final class LayerWindowDeviceLossTests: LayerWindowTestCase {
    func testTheWindowShowsTheSameFrameOnANewDeviceAfterALoss() throws {
        let window = try makeWindow()
        var told = 0
        window.onDeviceLost = { told += 1 }
        window.rootLayer.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.5, alpha: 1)
        let card = addLayer(CGRect(x: 10, y: 10, width: 60, height: 40), CGColor(red: 1, green: 0.6, blue: 0.1, alpha: 1), in: window.rootLayer)
        card.cornerRadius = 8
        card.shadowOpacity = 0.5
        card.shadowRadius = 4
        let blurred = addLayer(CGRect(x: 90, y: 50, width: 40, height: 40), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: window.rootLayer)
        blurred.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 3])!]
        let group = addLayer(CGRect(x: 10, y: 60, width: 60, height: 50), nil, in: window.rootLayer)
        group.opacity = 0.5
        addLayer(CGRect(x: 0, y: 0, width: 40, height: 40), CGColor(red: 0, green: 0.8, blue: 0.2, alpha: 1), in: group)
        addLayer(CGRect(x: 20, y: 10, width: 40, height: 40), CGColor(red: 0.8, green: 0, blue: 0.8, alpha: 1), in: group)
        let before = try window.snapshot()

        window.loseDeviceAtNextSubmit()
        let after = try window.snapshot()
        XCTAssertEqual(window.deviceLossesRecovered, 1)
        XCTAssertEqual(told, 1)
        XCTAssertEqual(differingPixels(before, after), 0, "the same frame, drawn again from the model on the new device")

        // The window goes on: a change after the loss is drawn.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        card.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.commit()
        let changed = try window.snapshot()
        XCTAssertEqual(changed.rgb(40, 30), RGB(0, 0, 1))
    }
}
