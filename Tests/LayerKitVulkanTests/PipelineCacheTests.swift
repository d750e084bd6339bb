import Foundation
@testable import LayerKitVulkan
import XCTest

/// The on-disk pipeline cache: written by the first start, loaded by the second, ignored when corrupt.
final class PipelineCacheTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-pipeline-cache-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a context, builds the layer pipeline through a renderer, and returns what it saw.
    func start() throws -> (loaded: Bool, file: URL?, messages: [String]) {
        let context = try VulkanContext(applicationName: "PipelineCacheTests", validation: true, pipelineCache: .directory(directory))
        _ = try HeadlessRenderer(context: context, width: 4, height: 4)
        return (context.pipelineCacheLoadedFromDisk, context.pipelineCacheFile, context.validationMessages)
    }

    func testSecondStartLoadsTheCacheTheFirstWrote() throws {
        let first = try start()
        XCTAssertFalse(first.loaded)
        let file = try XCTUnwrap(first.file)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(first.messages, [])

        let second = try start()
        XCTAssertTrue(second.loaded)
        XCTAssertEqual(second.messages, [])
    }

    func testCorruptCacheFileIsIgnoredAndReplaced() throws {
        let file = try XCTUnwrap(try start().file)
        try Data("not a pipeline cache".utf8).write(to: file)

        let afterCorruption = try start()
        XCTAssertFalse(afterCorruption.loaded)
        XCTAssertEqual(afterCorruption.messages, [])
        XCTAssertTrue(try start().loaded, "the corrupt file was replaced by a valid one")
    }

    func testHeaderChecksRejectForeignAndTruncatedData() {
        let uuid = [UInt8](repeating: 7, count: 16)
        var header = Data()
        for word: UInt32 in [32, 1, 0x10de, 0x2204] { withUnsafeBytes(of: word.littleEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: uuid)
        XCTAssertNil(PipelineCache.headerProblem(header, vendorID: 0x10de, deviceID: 0x2204, uuid: uuid))
        XCTAssertNotNil(PipelineCache.headerProblem(header.prefix(20), vendorID: 0x10de, deviceID: 0x2204, uuid: uuid))
        XCTAssertNotNil(PipelineCache.headerProblem(header, vendorID: 0x1002, deviceID: 0x2204, uuid: uuid))
        XCTAssertNotNil(PipelineCache.headerProblem(header, vendorID: 0x10de, deviceID: 0x2204, uuid: [UInt8](repeating: 8, count: 16)))
    }

    func testDefaultDirectoryFollowsXDGThenHome() {
        XCTAssertEqual(PipelineCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])?.path, "/x/cache/layerkit")
        XCTAssertEqual(PipelineCache.defaultDirectory(environment: ["HOME": "/home/u"])?.path, "/home/u/.cache/layerkit")
        XCTAssertNil(PipelineCache.defaultDirectory(environment: [:]))
    }
}
