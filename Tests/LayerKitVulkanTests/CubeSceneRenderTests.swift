import Foundation
import LayerKit
import LayerKitScenes
@testable import LayerKitVulkan
import XCTest

/// The `cube` benchmark scene rendered headless, its crossing planes checked pixel by pixel against ray
/// casting worked out here: at each pixel, the nearer plane's colour over the farther one's.
///
/// Geometry (CubeScene's definition): the eye at (640, 360, 800) in stage space looks at the stage plane
/// z = 0; plane `p` is the 320 × 200 rectangle centred at (920, 360) turned by
/// `Ry(2π·t/10 + p·π/2)·Rx(−π/12)` (row vectors: `Ry(a)` takes (x, y, z) to
/// (x cos a + z sin a, y, −x sin a + z cos a), `Rx(a)` takes it to (x, y cos a − z sin a, y sin a + z cos a)).
final class CubeSceneRenderTests: CARendererTestCase {
    func testCrossingPlanesShowTheNearerColourOnEachSideOfTheirIntersection() throws {
        let startTime = 1000.0
        CATransaction.flush()
        let scene = CubeScene(startTime: startTime)
        let renderer = try makeRenderer(width: 1280, height: 720)
        renderer.layer = scene.root
        let premultiplied = CubeScene.planeColors.map { SIMD4($0.x * $0.w, $0.y * $0.w, $0.z * $0.w, $0.w) }
        let eye = SIMD3<Double>(640, 360, 800)

        for t in [0.37, 3.3] {
            let image = try renderFrame(renderer, atTime: startTime + t)
            // Each plane: its centre, its local x and y axes in stage space, and its normal.
            let planes = (0..<2).map { p -> (origin: SIMD3<Double>, u: SIMD3<Double>, v: SIMD3<Double>) in
                let a = 2 * Double.pi * t / 10 + Double(p) * .pi / 2, b = -Double.pi / 12
                func turn(_ q: SIMD3<Double>) -> SIMD3<Double> {
                    let y = SIMD3(q.x * cos(a) + q.z * sin(a), q.y, -q.x * sin(a) + q.z * cos(a))
                    return SIMD3(y.x, y.y * cos(b) - y.z * sin(b), y.y * sin(b) + y.z * cos(b))
                }
                return (SIMD3(920, 360, 0), turn(SIMD3(1, 0, 0)), turn(SIMD3(0, 1, 0)))
            }
            /// Where the ray through pixel centre (X, Y) meets plane p: its depth z, and whether it lands more
            /// than 3 units inside the rectangle.
            func hit(_ plane: (origin: SIMD3<Double>, u: SIMD3<Double>, v: SIMD3<Double>), _ X: Double, _ Y: Double) -> (z: Double, inside: Bool, nearEdge: Bool)? {
                let direction = SIMD3(X, Y, 0) - eye
                let n = SIMD3(plane.u.y * plane.v.z - plane.u.z * plane.v.y, plane.u.z * plane.v.x - plane.u.x * plane.v.z,
                              plane.u.x * plane.v.y - plane.u.y * plane.v.x)
                let denominator = (n * direction).sum()
                guard abs(denominator) > 1e-9 else { return nil }
                let s = (n * (plane.origin - eye)).sum() / denominator
                let point = eye + direction * s
                let local = SIMD2(((point - plane.origin) * plane.u).sum(), ((point - plane.origin) * plane.v).sum())
                let margin = min(160 - abs(local.x), 100 - abs(local.y))
                return (point.z, margin > 0, abs(margin) < 3)
            }
            var checked = 0, bothDrawn = 0
            assertPixels(image, "planes at t = \(t)", tolerance: 2) { x, y in
                guard x >= 700, x < 1140, y >= 200, y < 520, x % 3 == 0, y % 3 == 0 else { return nil }
                let (X, Y) = (Double(x) + 0.5, Double(y) + 0.5)
                guard let h0 = hit(planes[0], X, Y), let h1 = hit(planes[1], X, Y), !h0.nearEdge, !h1.nearEdge else { return nil }
                var color = SIMD4<Double>.zero
                var layers = [(h0, premultiplied[0]), (h1, premultiplied[1])].filter { $0.0.inside }
                if layers.count == 2 {
                    guard abs(h0.z - h1.z) > 3 else { return nil }  // too close to the intersection line to call
                    layers.sort { $0.0.z < $1.0.z }
                    bothDrawn += 1
                }
                for (_, c) in layers { color = c + color * (1 - c.w) }
                checked += 1
                return PixelRGBA(premultiplied: color.x, color.y, color.z, color.w)
            }
            XCTAssertGreaterThan(bothDrawn, 500, "pixels where the planes overlap, both sides of the line, t = \(t)")
            XCTAssertGreaterThan(checked, 2000)
        }
        withExtendedLifetime(scene) {}
    }
}
