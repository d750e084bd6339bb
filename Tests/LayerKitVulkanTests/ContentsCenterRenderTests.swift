import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `contentsCenter`: nine-part stretching. The corners keep their natural size, the edges stretch along
/// one axis, the centre along both.
///
/// The image is 12×12 in nine 4×4 regions of distinct colors, and `contentsCenter` is the middle third
/// (1/3, 1/3, 1/3, 1/3), so each corner is 4×4 pixels. The layer is 40×32 at (12, 16), gravity `resize`.
final class ContentsCenterRenderTests: CARendererTestCase {
    let layerFrame = CGRect(x: 12, y: 16, width: 40, height: 32)

    /// The region colors, row by row (top first).
    let regionColors: [[PixelRGBA]] = [
        [.red, .green, .blue],
        [.yellow, .cyan, .magenta],
        [.white, .black, PixelRGBA(128, 128, 128, 255)],
    ]

    func makeNinePartImage() -> CGImage {
        makeImage(width: 12, height: 12) { x, y in self.regionColors[y / 4][x / 4] }
    }

    func makeScene(filter: CALayerContentsFilter, contentsScale: CGFloat = 1) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.contents = makeNinePartImage()
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        layer.contentsScale = contentsScale
        layer.magnificationFilter = filter
        layer.minificationFilter = filter
        return root
    }

    /// The region (column, row) that target pixel (x, y) shows when the fixed edges are `edge` points:
    /// columns split at 12 + edge and 52 − edge, rows at 16 + edge and 48 − edge.
    func expectedRegion(_ x: Int, _ y: Int, edge: Int) -> (column: Int, row: Int)? {
        guard (12..<52).contains(x), (16..<48).contains(y) else { return nil }
        let column = x < 12 + edge ? 0 : x < 52 - edge ? 1 : 2
        let row = y < 16 + edge ? 0 : y < 48 - edge ? 1 : 2
        return (column, row)
    }

    func testCornersKeepNaturalSizeEdgesStretchAlongOneAxisCentreAlongBoth() throws {
        // Sampled `nearest`, every pixel is exactly its region's color: corners 4×4, the top and bottom
        // edges 32×4, the left and right edges 4×24, the centre 32×24.
        let image = try render(makeScene(filter: .nearest))
        assertPixels(image, "nine-part") { x, y in
            self.expectedRegion(x, y, edge: 4).map { self.regionColors[$0.row][$0.column] } ?? .clear
        }
    }

    func testNinePartRegionsWithTheDefaultLinearFilter() throws {
        // Linear filtering may blend across a seam within one texel of it; probe the middle of each piece.
        let image = try render(makeScene(filter: .linear))
        let columns = [(0, 14), (1, 32), (2, 50)]  // (region column, target x)
        let rows = [(0, 18), (1, 32), (2, 46)]      // (region row, target y)
        var probes: [Probe] = []
        for (row, y) in rows {
            for (column, x) in columns {
                probes.append(Probe("region (\(column), \(row))", x, y, regionColors[row][column]))
            }
        }
        probes.append(Probe("outside", 11, 32, .clear))
        probes.append(Probe("outside", 32, 48, .clear))
        assertPixels(image, "nine-part-linear", tolerance: 1, probes: probes)
    }

    func testContentsScaleTwoHalvesTheFixedEdges() throws {
        // 4 image pixels at contentsScale 2 are 2 points.
        let image = try render(makeScene(filter: .nearest, contentsScale: 2))
        assertPixels(image, "nine-part-scale-2") { x, y in
            self.expectedRegion(x, y, edge: 2).map { self.regionColors[$0.row][$0.column] } ?? .clear
        }
    }

    func testHorizontalThreePartStretchesOnlyTheMiddleColumn() throws {
        // A 12×4 image in three 4-pixel columns (red, green, blue), contentsCenter spanning the middle
        // column and the full height: the ends stay 4 wide, everything stretches vertically.
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.contents = makeImage(width: 12, height: 4) { x, _ in [PixelRGBA.red, .green, .blue][x / 4] }
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 0, width: 1.0 / 3, height: 1)
        layer.magnificationFilter = .nearest
        let image = try render(root)
        assertPixels(image, "three-part") { x, y in
            guard (12..<52).contains(x), (16..<48).contains(y) else { return .clear }
            return x < 16 ? .red : x < 48 ? .green : .blue
        }
    }
}
