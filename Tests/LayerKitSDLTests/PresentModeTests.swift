import XCTest
@testable import LayerKitVulkan

final class PresentModeTests: XCTestCase {
    func testEachNamedModeParsesWithoutADiagnostic() {
        XCTAssertEqual(PresentMode.parse("fifo").mode, .fifo)
        XCTAssertEqual(PresentMode.parse("mailbox").mode, .mailbox)
        XCTAssertEqual(PresentMode.parse("immediate").mode, .immediate)
        XCTAssertEqual(PresentMode.parse(" Immediate ").mode, .immediate, "case and surrounding spaces do not matter")
        for value in ["fifo", "mailbox", "immediate"] {
            XCTAssertNil(PresentMode.parse(value).diagnostic, value)
        }
    }

    func testUnsetOrEmptyMeansFIFOSilently() {
        XCTAssertEqual(PresentMode.parse(nil).mode, .fifo)
        XCTAssertNil(PresentMode.parse(nil).diagnostic)
        XCTAssertEqual(PresentMode.parse("").mode, .fifo)
        XCTAssertNil(PresentMode.parse("").diagnostic)
    }

    func testGarbageFallsBackToFIFOWithANamedDiagnostic() {
        let (mode, diagnostic) = PresentMode.parse("vsync-please")
        XCTAssertEqual(mode, .fifo)
        XCTAssertEqual(diagnostic, .unrecognizedPresentMode(value: "vsync-please"))
        XCTAssertEqual(diagnostic?.name, "unrecognizedPresentMode")
        // The log line names the valid values.
        let text = diagnostic?.description ?? ""
        for valid in ["fifo", "mailbox", "immediate", "LK_PRESENT_MODE=vsync-please"] {
            XCTAssertTrue(text.contains(valid), "\"\(text)\" names \(valid)")
        }
    }

    func testAnUnsupportedModeFallsBackToFIFO() {
        XCTAssertEqual(PresentMode.mailbox.resolved(supported: [.fifo, .mailbox]).mode, .mailbox)
        XCTAssertNil(PresentMode.mailbox.resolved(supported: [.fifo, .mailbox]).diagnostic)
        let (mode, diagnostic) = PresentMode.immediate.resolved(supported: [.fifo, .mailbox])
        XCTAssertEqual(mode, .fifo)
        XCTAssertEqual(diagnostic, .presentModeUnsupported(requested: .immediate))
        // FIFO is always available, even if a driver forgot to list it.
        XCTAssertEqual(PresentMode.fifo.resolved(supported: []).mode, .fifo)
        XCTAssertNil(PresentMode.fifo.resolved(supported: []).diagnostic)
    }
}
