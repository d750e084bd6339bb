import Foundation
@testable import LayerKitVulkan
import XCTest

/// Device choice without a GPU: candidates are plain values.
final class DeviceSelectionTests: XCTestCase {
    func candidate(_ name: String, _ kind: PhysicalDeviceCandidate.Kind, graphics: Bool = true) -> PhysicalDeviceCandidate {
        PhysicalDeviceCandidate(handle: nil, name: name, kind: kind, graphicsQueueFamily: graphics ? 0 : nil)
    }

    func testPrefersDiscreteThenIntegratedThenVirtualThenCPU() throws {
        let cpu = candidate("llvmpipe", .cpu), virtual = candidate("virgl", .virtual)
        let integrated = candidate("Intel UHD", .integrated), discrete = candidate("NVIDIA H100", .discrete)
        XCTAssertEqual(try DeviceSelection.choose(from: [cpu, virtual, integrated, discrete], override: nil).name, "NVIDIA H100")
        XCTAssertEqual(try DeviceSelection.choose(from: [cpu, virtual, integrated], override: nil).name, "Intel UHD")
        XCTAssertEqual(try DeviceSelection.choose(from: [cpu, virtual], override: nil).name, "virgl")
        XCTAssertEqual(try DeviceSelection.choose(from: [cpu], override: nil).name, "llvmpipe")
    }

    func testOverrideIsACaseInsensitiveSubstring() throws {
        let devices = [candidate("NVIDIA H100", .discrete), candidate("llvmpipe (LLVM 15)", .cpu)]
        XCTAssertEqual(try DeviceSelection.choose(from: devices, override: "LLVMPIPE").name, "llvmpipe (LLVM 15)")
        XCTAssertEqual(try DeviceSelection.choose(from: devices, override: "").name, "NVIDIA H100")
    }

    func testOverrideMatchingNothingNamesTheDevices() {
        XCTAssertThrowsError(try DeviceSelection.choose(from: [candidate("llvmpipe", .cpu)], override: "radeon")) { error in
            guard case let VulkanError.noUsableDevice(detail) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertTrue(detail.contains("llvmpipe"), detail)
        }
    }

    func testDevicesWithoutGraphicsAreSkipped() throws {
        let devices = [candidate("compute only", .discrete, graphics: false), candidate("llvmpipe", .cpu)]
        XCTAssertEqual(try DeviceSelection.choose(from: devices, override: nil).name, "llvmpipe")
        XCTAssertThrowsError(try DeviceSelection.choose(from: [devices[0]], override: nil)) { error in
            guard case VulkanError.noUsableDevice = error else { return XCTFail("unexpected \(error)") }
        }
    }

    func testNoDevicesMeansNoDriver() {
        XCTAssertThrowsError(try DeviceSelection.choose(from: [], override: nil)) { error in
            guard case VulkanError.noVulkanDriver = error else { return XCTFail("unexpected \(error)") }
            XCTAssertTrue("\(error)".contains("mesa-vulkan-drivers"))
        }
    }

    func testContextHonoursTheDeviceOverride() throws {
        let context = try VulkanContext(applicationName: "DeviceSelectionTests", validation: true, pipelineCache: .none)
        let name = context.deviceName
        XCTAssertFalse(name.isEmpty)
        let chosen = try VulkanContext(applicationName: "DeviceSelectionTests", validation: true, deviceName: String(name.prefix(4)), pipelineCache: .none)
        XCTAssertEqual(chosen.deviceName, name)
        XCTAssertThrowsError(try VulkanContext(applicationName: "DeviceSelectionTests", deviceName: "no-such-device-\(UUID())", pipelineCache: .none)) { error in
            guard case let VulkanError.noUsableDevice(detail) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertTrue(detail.contains(name), detail)
        }
        XCTAssertEqual(context.validationMessages + chosen.validationMessages, [])
    }
}
