import XCTest
@testable import LayerKitRender

/// Fails unless `a` and `b` hold everything a backend draws from alike — passes, targets, items, draw
/// order, batches, culling — and every counter but the times and recompute counts: for tests that
/// compare two ways of making one frame.
func assertSameDraws(_ a: RenderGraph, _ b: RenderGraph, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.passes.count, b.passes.count, message, file: file, line: line)
    for (pa, pb) in zip(a.passes, b.passes) {
        XCTAssertEqual(pa.target, pb.target, message, file: file, line: line)
        XCTAssertEqual(pa.items.count, pb.items.count, message, file: file, line: line)
        let firstDifference = zip(pa.items, pb.items).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        XCTAssertNil(firstDifference, "\(message): items differ from index \(firstDifference ?? -1)", file: file, line: line)
        XCTAssertEqual(pa.drawOrder, pb.drawOrder, message, file: file, line: line)
        XCTAssertEqual(pa.batches, pb.batches, message, file: file, line: line)
        XCTAssertEqual(pa.depthOrdered, pb.depthOrdered, message, file: file, line: line)
        XCTAssertEqual(pa.culled, pb.culled, message, file: file, line: line)
    }
    var sa = a.statistics, sb = b.statistics
    sa.cpuTime = .init(); sb.cpuTime = .init()
    sa.layersRecomputed = 0; sb.layersRecomputed = 0
    sa.quadsRecompiled = 0; sb.quadsRecompiled = 0
    XCTAssertEqual(sa, sb, message, file: file, line: line)
}
