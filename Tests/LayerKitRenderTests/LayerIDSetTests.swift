import XCTest
@testable import LayerKit
@testable import LayerKitRender

/// `LayerIDSet` holds exactly the IDs inserted, whatever their order and spread: checked against the
/// standard library's `Set` over IDs inserted ascending, descending (the bitmap widens below), in a
/// scattered order, with repeats, alternating between words, near ID 0, and spread past the bitmap's span
/// (a hashed set then).
final class LayerIDSetTests: XCTestCase {
    private func check(_ ids: [UInt64], file: StaticString = #filePath, line: UInt = #line) {
        var set = LayerIDSet()
        for id in ids { set.insert(LayerID(rawValue: id)) }
        let expected = Set(ids)
        XCTAssertEqual(set.count, expected.count, file: file, line: line)
        XCTAssertEqual(Set(set.elements), expected, file: file, line: line)
        XCTAssertEqual(set.elements.count, expected.count, "each element once", file: file, line: line)
        let probes = Set(ids.flatMap { [$0, $0 &+ 1, $0 &- 1, $0 &+ 64, $0 &- 64] })
        for probe in probes { XCTAssertEqual(set.contains(probe), expected.contains(probe), "\(probe)", file: file, line: line) }
    }

    func testAscendingDescendingScatteredAndRepeated() {
        check(Array(1_000..<3_000))
        check(Array((1_000..<3_000).reversed()))
        check((0..<2_000).map { UInt64(5_000 + ($0 * 7_919) % 2_000) } + [5_000, 5_001, 5_000])
        check([70, 3, 1, 200, 64, 63, 0])
        // Runs within one word are held apart until an insert leaves it: alternating words, and IDs
        // inserted again once their word was written, count once.
        check([0, 64, 1, 65, 0, 64, 2, 2, 66])
    }

    func testIDsSpreadPastTheSpanGoToAHashedSet() {
        let far = LayerIDSet.maximumSpan * 3
        check([10, 11, far, 12, far + 5, 100])
        check([far + 5, 10, 11])
        check([])
    }
}
