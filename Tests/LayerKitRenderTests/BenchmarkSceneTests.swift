import Foundation
import LayerKitScenes
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// The benchmark scenes of `LayerKitScenes` against their definitions (bench/SCENES.md and the scene
/// files' own): the layer counts, and where the render thread puts layers at chosen times `t`.
///
/// Each scene is built with its animations beginning at 1000 s, committed to a `FrameProducer` (1280×720,
/// scale 1), and its frame at `1000 + t` is read back from the draw items: a layer's shape corners go
/// through `localToClip` (and, for a layer drawn into an offscreen surface, through the quad compositing
/// that surface) to frame pixels. Expected corners are computed here from the formulas, independently of
/// the scenes' animations. Layers are found by colour or texture and position, not by draw order, so
/// culling and batching may reorder or drop hidden draws without breaking these tests.
final class BenchmarkSceneTests: XCTestCase {
    /// Positions agree to this many pixels (float32 instance data; every motion is exact).
    private let tolerance = 0.004

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    // MARK: - Layer counts

    func testEveryNamedSceneIsInTheCatalogue() {
        XCTAssertEqual(BenchmarkScenes.all.map { $0.name }, ["city", "stack", "translucent", "groups", "groups_live", "cube", "big",
                                                          "gradients", "empty", "ui", "effects", "replicated", "particles"])
        XCTAssertEqual(BenchmarkScenes.scene(named: "groups_live").map(ObjectIdentifier.init), ObjectIdentifier(LiveGroupsScene.self))
        XCTAssertNil(BenchmarkScenes.scene(named: "groups-live"))
    }

    func testSceneLayerCountsMatchTheirDefinitions() {
        let expected: [String: Int] = ["city": 6_000, "stack": 64, "translucent": 2_000, "groups": 1_200, "groups_live": 1_200,
                                       "cube": 11, "big": 100_000, "gradients": 1_000, "empty": 1,
                                       "ui": 1 + 6 * 12 * 3 + 1 + 1 + 5 + 1 + 12 + 8,
                                       "effects": 1 + 200 + 20 + 10, "replicated": 5, "particles": 1]
        for type in BenchmarkScenes.all {
            let scene = type.init(startTime: 1000)
            XCTAssertEqual(scene.layerCount, expected[type.name], type.name)
            XCTAssertEqual(Self.descendantCount(of: scene.root), expected[type.name], "\(type.name): layers below the root")
            XCTAssertEqual(scene.root.bounds, CGRect(x: 0, y: 0, width: 1280, height: 720), type.name)
            XCTAssertEqual(scene.root.frame, CGRect(x: 0, y: 0, width: 1280, height: 720), type.name)
        }
        CATransaction.flush()
    }

    func testGroupsHaveThreeChildrenAndGroupOpacity() {
        let scene = GroupsScene(startTime: 1000)
        XCTAssertEqual(scene.groups.count, 300)
        for group in scene.groups {
            XCTAssertEqual(group.sublayers?.count, 3)
            XCTAssertEqual(group.opacity, 0.5)
            XCTAssertTrue(group.allowsGroupOpacity)
            XCTAssertEqual(group.bounds.size, CGSize(width: 64, height: 64))
        }
    }

    func testBigSceneAnimatesOneLayerInAHundred() {
        let scene = BigScene(startTime: 1000)
        let layers = Self.descendants(of: scene.root)
        XCTAssertEqual(layers.count, 100_000)
        XCTAssertEqual(layers.filter { $0.animationKeys() != nil }.count, 1_000)
        XCTAssertEqual(scene.panels.count, 1_000)
        XCTAssertTrue(scene.panels.allSatisfy { $0.sublayers?.count == 99 })
    }

    // MARK: - The atlas

    func testAtlasIsTheCommittedFile() throws {
        let data = try Data(contentsOf: CityScene.atlasURL)
        XCTAssertEqual(SHA256.hex(of: [UInt8](data)), "3c9ce25dee47fdbf260e16adaf6957497b3847fc8bd5086192c11453bc76282f")
    }

    func testSHA256OfKnownMessages() {
        // FIPS 180-2 examples.
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testAtlasPixelsFollowMakeAtlasFormula() {
        let atlas = CityScene.loadAtlas()
        XCTAssertEqual(atlas.width, 256)
        XCTAssertEqual(atlas.height, 256)
        XCTAssertTrue(atlas.isOpaque)
        var mismatches = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let p = atlas.pixel(x: x, y: y)
                let expected = Self.atlasPixel(x: x, y: y)
                if p.r != expected.r || p.g != expected.g || p.b != expected.b || p.a != 255 {
                    if mismatches < 5 { XCTFail("atlas (\(x), \(y)): \(p), expected \(expected)") }
                    mismatches += 1
                }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    // MARK: - Positions at time t

    func testCityLayersBobAndRotateAsDefined() {
        let frames = SceneFrames(CityScene.self)
        let city = frames.scene as! CityScene
        XCTAssertTrue(city.layers.allSatisfy { ($0.contents as? CGImage) === city.atlas }, "one shared atlas image")
        for t in [0.37, 13.91] {
            let graph = frames.graph(at: t)
            for i in [99, 5900, 5950, 5999] {
                let col = Double(i % 100), row = Double(i / 100)
                let topLeft = SIMD2(26 + 12 * col, 16 + 11 * row + 10 * sin(2 * .pi * (t + Double(i) / 100)))
                let angle = 2 * .pi * (t / 4 + Double(i) / 6000)
                let k = i % 16
                let tile = SIMD4<Float>(Float(k % 4) * 0.25, Float(k / 4) * 0.25, Float(k % 4) * 0.25 + 0.25, Float(k / 4) * 0.25 + 0.25)
                let match = graph.bestMatch(Self.rotatedCorners(topLeft: topLeft, size: SIMD2(40, 40), angle: angle)) {
                    $0.texture?.image === city.atlas && $0.instance.uv == tile
                }
                XCTAssertLessThanOrEqual(match, tolerance, "city layer \(i) at t = \(t)")
            }
        }
    }

    func testEmptySceneMovesItsRectangleAcrossTheWindow() throws {
        let frames = SceneFrames(EmptyScene.self)
        for t in [0.0, 3.25, 12.5] {
            let graph = frames.graph(at: t)
            let item = try XCTUnwrap(graph.passes.last?.items.first)
            // x = (100 t) mod 1180 by SCENES.md's mod, worked out: 0, 325, 1250 − 1180 = 70.
            let x = ["0.0": 0.0, "3.25": 325.0, "12.5": 70.0]["\(t)"]!
            XCTAssertLessThanOrEqual(graph.bestMatch(Self.rotatedCorners(topLeft: SIMD2(x, 310), size: SIMD2(100, 100), angle: 0)) { _ in true },
                                     tolerance, "t = \(t)")
            XCTAssertEqual(item.instance.color, SIMD4(1, 1, 1, 1))
        }
    }

    /// Materials pay only for what the scenes' draws need: city's opaque hard-edged images sample and
    /// compute no coverage (stack draws nothing: its top layer is the clear), translucent's rounded antialiased rects compute
    /// their shape's coverage with one scale for their similarity map (no derivatives) and sample nothing, gradients evaluate stops without coverage.
    func testSceneBatchesRunTheMaterialsTheirDrawsNeed() {
        let expected: [(any BenchmarkScene.Type, Material)] = [
            (CityScene.self, Material(paint: [.textured], coverage: .none)),
            (TranslucentScene.self, Material(paint: [], coverage: .similarShape)),
            (EmptyScene.self, Material(paint: [], coverage: .none)),
        ]
        for (type, material) in expected {
            let graph = SceneFrames(type).graph(at: 1.5)
            let batches = graph.passes.last?.batches ?? []
            XCTAssertFalse(batches.isEmpty, type.name)
            for batch in batches { XCTAssertEqual(batch.material, material, type.name) }
        }
    }

    func testStackTopColorCyclesAndHiddenLayersKeepTheirColors() throws {
        let frames = SceneFrames(StackScene.self)
        for t in [0.37, 13.91] {
            let graph = frames.graph(at: t)
            let pass = try XCTUnwrap(graph.passes.last)
            let expected = StackScene.topColor(at: t)
            // Straight formula, computed here; alpha 1, so premultiplied is the same.
            let r = 0.5 + 0.5 * sin(2 * .pi * t), g = 0.5 + 0.5 * sin(2 * .pi * (t + 1.0 / 3)), b = 0.5 + 0.5 * sin(2 * .pi * (t + 2.0 / 3))
            XCTAssertEqual(expected, SIMD4(r, g, b, 1))
            // The top layer covers the window opaquely: it is drawn as the frame's clear, the 63 beneath culled.
            XCTAssertEqual(pass.clearPaintsLayer, (frames.scene as? StackScene)?.layers[63].layerID)
            XCTAssertTrue(pass.items.isEmpty)
            XCTAssertEqual(graph.statistics.quadsCulledOccluded, 63)
            for (channel, value) in [r, g, b, 1].enumerated() {
                XCTAssertEqual(Double(pass.clearColor[channel]), value, accuracy: 1e-3, "top colour channel \(channel) at t = \(t)")
            }
        }
    }

    func testTranslucentRectsDriftAndWrap() {
        let frames = SceneFrames(TranslucentScene.self)
        let palette: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1), SIMD3(1, 0, 1),
                                       SIMD3(1, 0.5, 0), SIMD3(1, 1, 1)]
        for t in [0.37, 13.91] {
            let graph = frames.graph(at: t)
            for i in [0, 7, 500, 1234, 1999] {
                let x0 = Double((211 * i) % 1280)
                let x = Self.mod(x0 + 100 * t, 1280)
                let y = Double((137 * i) % 657)
                let rgb = palette[i % 8] * 0.5
                let premultiplied = SIMD4<Float>(rgb.x, rgb.y, rgb.z, 0.5)
                let match = graph.bestMatch(Self.rotatedCorners(topLeft: SIMD2(x, y), size: SIMD2(64, 64), angle: 0)) {
                    $0.instance.color == premultiplied && $0.instance.shapeRadii == SIMD4(repeating: 12)
                }
                XCTAssertLessThanOrEqual(match, tolerance, "translucent layer \(i) at t = \(t)")
            }
        }
    }

    func testGroupChildrenMoveWithTheirGroups() {
        checkGroups(GroupsScene.self, blueX: { _, _ in 24 })
    }

    func testLiveGroupsSlideTheBlueChild() {
        checkGroups(LiveGroupsScene.self, blueX: { g, t in 24 * (0.5 + 0.5 * sin(2 * .pi * (t + Double(g) / 300))) })
    }

    private func checkGroups(_ type: GroupsScene.Type, blueX: (Int, Double) -> Double, file: StaticString = #filePath, line: UInt = #line) {
        // The children's geometry is read from the per-frame group surfaces' draws; cached groups hold
        // theirs in page space (GroupCacheRenderTests checks those pixels).
        let frames = SceneFrames(type, cachesGroups: false)
        let children: [(SIMD4<Float>, SIMD2<Double>)] = [(SIMD4(1, 0, 0, 1), SIMD2(0, 0)), (SIMD4(0, 1, 0, 1), SIMD2(12, 12)),
                                                          (SIMD4(0, 0, 1, 1), SIMD2(24, 24))]
        for t in [0.37, 13.91] {
            let graph = frames.graph(at: t)
            for g in [0, 19, 151, 299] {
                let groupTopLeft = SIMD2(Self.mod(Double(64 * (g % 20)) + 100 * t, 1280), Double(48 * (g / 20)))
                for (index, (color, offset)) in children.enumerated() {
                    var topLeft = groupTopLeft + offset
                    if index == 2 { topLeft.x = groupTopLeft.x + blueX(g, t) }
                    let match = graph.bestMatch(Self.rotatedCorners(topLeft: topLeft, size: SIMD2(40, 40), angle: 0)) {
                        $0.instance.color == color
                    }
                    XCTAssertLessThanOrEqual(match, tolerance, "\(type.name) group \(g) child \(index) at t = \(t)", file: file, line: line)
                }
            }
            // Group opacity: the children are opaque; 0.5 applies once, to the flattened group.
            let children = graph.passes.flatMap(\.items).filter { $0.texture == nil }
            XCTAssertTrue(children.allSatisfy { $0.instance.color.w == 1 }, "children drawn opaque, faded as a group", file: file, line: line)
        }
    }

    func testCubeFacesAndPlanesFollowTheirRotations() {
        let frames = SceneFrames(CubeScene.self)
        let d = 800.0
        func project(_ p: SIMD3<Double>, center: SIMD2<Double>) -> SIMD2<Double> {
            // Stage space, eye at z = 800 in front of the stage's centre (640, 360).
            let stage = SIMD3(center.x + p.x, center.y + p.y, p.z)
            let scale = d / (d - stage.z)
            return SIMD2(640 + (stage.x - 640) * scale, 360 + (stage.y - 360) * scale)
        }
        // Row-vector rotations as Core Animation defines them: Ry takes +x toward −z, Rx takes +y toward +z.
        func ry(_ p: SIMD3<Double>, _ a: Double) -> SIMD3<Double> { SIMD3(p.x * cos(a) + p.z * sin(a), p.y, -p.x * sin(a) + p.z * cos(a)) }
        func rx(_ p: SIMD3<Double>, _ a: Double) -> SIMD3<Double> { SIMD3(p.x, p.y * cos(a) - p.z * sin(a), p.y * sin(a) + p.z * cos(a)) }
        // Each face's layer-space point (u, v) as a point of the cube about its centre.
        let faces: [(SIMD3<Double>, (Double, Double) -> SIMD3<Double>)] = [
            (SIMD3(0.90, 0.22, 0.20), { u, v in SIMD3(u - 120, v - 120, 120) }),
            (SIMD3(0.20, 0.70, 0.30), { u, v in SIMD3(120, v - 120, 120 - u) }),
            (SIMD3(0.20, 0.40, 0.90), { u, v in SIMD3(120 - u, v - 120, -120) }),
            (SIMD3(0.95, 0.80, 0.20), { u, v in SIMD3(-120, v - 120, u - 120) }),
            (SIMD3(0.85, 0.85, 0.85), { u, v in SIMD3(u - 120, -120, v - 120) }),
            (SIMD3(0.60, 0.25, 0.75), { u, v in SIMD3(u - 120, 120, 120 - v) }),
        ]
        for t in [0.37, 13.91] {
            let graph = frames.graph(at: t)
            let corners: [(Double, Double)] = [(0, 0), (240, 0), (240, 240), (0, 240)]
            var drawnFaces = 0
            for (color, point) in faces {
                let projected = corners.map { project(rx(ry(point($0.0, $0.1), 2 * .pi * t / 8), -.pi / 6), center: SIMD2(400, 360)) }
                // Single-sided: drawn exactly when its image keeps the layer's orientation (clockwise on screen, y down).
                var twiceArea = 0.0
                for k in 0..<4 { twiceArea += projected[k].x * projected[(k + 1) % 4].y - projected[(k + 1) % 4].x * projected[k].y }
                let target = SIMD4<Float>(Float(color.x), Float(color.y), Float(color.z), 1)
                let match = graph.bestMatch(projected) { $0.instance.color == target }
                if twiceArea > 0 {
                    drawnFaces += 1
                    XCTAssertLessThanOrEqual(match, 0.02, "face \(color) at t = \(t)")
                } else {
                    XCTAssertEqual(match, .infinity, "face \(color) faces away at t = \(t) and is not drawn")
                }
            }
            XCTAssertGreaterThanOrEqual(drawnFaces, 2)
            for plane in 0..<2 {
                let angle = 2 * .pi * t / 10 + Double(plane) * .pi / 2
                let projected = [(0.0, 0.0), (320, 0), (320, 200), (0, 200)].map {
                    project(rx(ry(SIMD3($0.0 - 160, $0.1 - 100, 0), angle), -.pi / 12), center: SIMD2(920, 360))
                }
                let rgba = CubeScene.planeColors[plane]
                let premultiplied = SIMD4<Float>(Float(rgba.x * rgba.w), Float(rgba.y * rgba.w), Float(rgba.z * rgba.w), Float(rgba.w))
                let match = graph.bestMatch(projected) { distance(SIMD4<Double>($0.instance.color), SIMD4<Double>(premultiplied)) < 1e-5 }
                XCTAssertLessThanOrEqual(match, 0.02, "plane \(plane) at t = \(t)")
            }
        }
    }

    func testCubeIsTwoTransformLayersAnimatedOnTheRenderThread() {
        let scene = CubeScene(startTime: 1000)
        XCTAssertFalse(scene.updatesEveryFrame, "all motion is animations: nothing committed per frame")
        XCTAssertEqual(scene.stage.sublayers?.map { $0 is CATransformLayer }, [true, true])
        XCTAssertEqual(scene.cube.sublayers?.count, 6)
        XCTAssertEqual(scene.planes.sublayers?.count, 2)
        XCTAssertNotNil(scene.cube.animation(forKey: "turn"))
        XCTAssertNotNil(scene.planes.animation(forKey: "turn"))
        CATransaction.flush()
    }

    func testCubePlanesAreSplitIntoPiecesThatTileThePlane() {
        // The planes cross along their common vertical centre line, so one of them is cut in two by the
        // other's plane: its draws become pieces that together cover exactly the quad the whole one drew.
        let frames = SceneFrames(CubeScene.self)
        for t in [0.37, 13.91] {
            let pass = frames.graph(at: t).framePass
            var split = 0
            for rgba in CubeScene.planeColors {
                let premultiplied = SIMD4<Float>(Float(rgba.x * rgba.w), Float(rgba.y * rgba.w), Float(rgba.z * rgba.w), Float(rgba.w))
                let pieces = pass.items.filter {
                    $0.instance.flags.contains(.pieceCorners) && distance(SIMD4<Double>($0.instance.color), SIMD4<Double>(premultiplied)) < 1e-5
                }
                guard !pieces.isEmpty else { continue }
                split += 1
                var area = 0.0
                var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
                for piece in pieces {
                    let (a, b, c, d) = piece.instance.pieceCorners
                    let p = [a, b, c, d].map(SIMD2<Double>.init)
                    func twice(_ u: SIMD2<Double>, _ v: SIMD2<Double>, _ w: SIMD2<Double>) -> Double {
                        abs((v.x - u.x) * (w.y - u.y) - (v.y - u.y) * (w.x - u.x))
                    }
                    area += (twice(p[0], p[1], p[2]) + twice(p[2], p[1], p[3])) / 2
                    for q in p { low = pointwiseMin(low, q); high = pointwiseMax(high, q) }
                }
                XCTAssertGreaterThanOrEqual(pieces.count, 2, "at least one piece each side of the cut, t = \(t)")
                XCTAssertEqual(area, (high.x - low.x) * (high.y - low.y), accuracy: 1e-3 * area, "the pieces tile the plane's quad, t = \(t)")
                XCTAssertGreaterThanOrEqual(high.x - low.x, 320)
                XCTAssertGreaterThanOrEqual(high.y - low.y, 200)
            }
            XCTAssertEqual(split, 1, "one plane is split by the other, t = \(t)")
        }
    }

    func testBigSceneSpinsOneLeafPerPanelAndGoesIdle() {
        let frames = SceneFrames(BigScene.self)
        for t in [0.37] {
            let graph = frames.graph(at: t)
            for p in [0, 517, 999] {
                let panel = SIMD2(32 * Double(p % 40), 28.8 * Double(p / 40))
                let color = { (k: Int) in SIMD4<Float>(Float(k % 11) / 10, Float(k / 11) / 8, Float(p) / 999, 1) }
                let spinning = graph.bestMatch(Self.rotatedCorners(topLeft: panel + SIMD2(1, 1), size: SIMD2(2, 2),
                                                                   angle: 2 * .pi * (t / 2 + Double(p) / 1000))) {
                    $0.instance.color == color(0)
                }
                XCTAssertLessThanOrEqual(spinning, tolerance, "spinning leaf of panel \(p)")
                let still = graph.bestMatch(Self.rotatedCorners(topLeft: panel + SIMD2(1 + 2.8 * 10, 1 + 3 * 8), size: SIMD2(2, 2), angle: 0)) {
                    $0.instance.color == color(98)
                }
                XCTAssertLessThanOrEqual(still, tolerance, "leaf 98 of panel \(p)")
            }
        }
        XCTAssertTrue(frames.producer.needsFrame, "1,000 layers animate")
        frames.scene.stopMotion()
        _ = frames.graph(at: 0.5)
        XCTAssertFalse(frames.producer.needsFrame, "nothing animates and nothing was committed: no frame to render")
    }

    /// The effects scene is laid out so that its counters do not depend on when frames fall (its doc
    /// comment): over a whole scroll period of its background, sampled every 50 ms, every frame has as
    /// many passes, and as many draws and batches in each. (Its packed backdrops once lost a few cards'
    /// draws to a later member's background while the background scrolled: culled, and not drawn.)
    func testEffectsSceneDrawsTheSameCountsWhateverTheTime() {
        let frames = SceneFrames(EffectsScene.self)
        // As the benchmark's renderer compiles (lavapipe's capabilities): depth, stencil and the atlas.
        frames.producer.compiler.depthTesting = true
        frames.producer.compiler.stencilClipping = true
        frames.producer.compiler.surfaceStencilClipping = true
        frames.producer.compiler.atlas = ImageAtlas()
        var first: [[Int]]?
        for step in 0...256 {
            let t = Double(step) * 0.05
            let counts = frames.graph(at: t).passes.map { [$0.items.count, $0.batches.count] }
            if let first {
                XCTAssertEqual(counts, first, "t = \(t)")
            } else {
                first = counts
            }
        }
        XCTAssertEqual(first?.count, 9, "8 offscreen passes and the frame")
    }

    // MARK: - Helpers

    /// The frame-pixel corners (top-left, top-right, bottom-right, bottom-left in layer space) of a
    /// `size` rectangle with top-left `topLeft` before a rotation by `angle` about its centre (positive
    /// clockwise on screen: +x toward +y).
    static func rotatedCorners(topLeft: SIMD2<Double>, size: SIMD2<Double>, angle: Double) -> [SIMD2<Double>] {
        let center = topLeft + size / 2
        return [SIMD2(-1.0, -1.0), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)].map { sign in
            let p = sign * size / 2
            return center + SIMD2(p.x * cos(angle) - p.y * sin(angle), p.x * sin(angle) + p.y * cos(angle))
        }
    }

    static func mod(_ a: Double, _ m: Double) -> Double { a - m * (a / m).rounded(.down) }

    static func descendants(of layer: CALayer) -> [CALayer] {
        var result: [CALayer] = []
        var stack = layer.sublayers ?? []
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: next.sublayers ?? [])
        }
        return result
    }

    static func descendantCount(of layer: CALayer) -> Int { descendants(of: layer).count }

    /// `make_atlas.py`'s pixel rule, written out again.
    static func atlasPixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let k = (y / 64) * 4 + x / 64
        let u = x % 64, v = y % 64
        if u < 2 || v < 2 || u > 61 || v > 61 { return (24, 24, 24) }
        if (6..<58).contains(u), (6..<58).contains(v), (u - 6) % 13 < 8, (v - 6) % 13 < 8 {
            let lit = (k + (u - 6) / 13 + (v - 6) / 13) % 3 != 0
            return lit ? (255, 236, 170) : (40, 44, 64)
        }
        // colorsys.hsv_to_rgb(k/16, 0.55, 0.80), then int(round(255·c)) (Python rounds halves to even).
        let h = Double(k) / 16, s = 0.55, value = 0.80
        let i = Int(h * 6), f = h * 6 - Double(i)
        let p = value * (1 - s), q = value * (1 - s * f), w = value * (1 - s * (1 - f))
        let rgb: (Double, Double, Double)
        switch i % 6 {
        case 0: rgb = (value, w, p)
        case 1: rgb = (q, value, p)
        case 2: rgb = (p, value, w)
        case 3: rgb = (p, q, value)
        case 4: rgb = (w, p, value)
        default: rgb = (value, p, q)
        }
        func byte(_ c: Double) -> UInt8 { UInt8((255 * c).rounded(.toNearestOrEven)) }
        return (byte(rgb.0), byte(rgb.1), byte(rgb.2))
    }
}

/// A benchmark scene committed to a `FrameProducer`, its frames built at chosen scene times.
private final class SceneFrames {
    static let startTime = 1000.0
    let scene: any BenchmarkScene
    let receiver = CommitInbox()
    var producer: FrameProducer

    init(_ type: any BenchmarkScene.Type, cachesGroups: Bool = true) {
        CATransaction.flush()  // earlier tests' changes do not belong to this scene
        scene = type.init(startTime: Self.startTime)
        CATransaction.flush()
        var builder = RenderGraphBuilder(targetWidth: 1280, targetHeight: 720, viewport: CGRect(x: 0, y: 0, width: 1280, height: 720), scale: 1)
        builder.cachesGroups = cachesGroups
        producer = FrameProducer(builder: builder)
        producer.reset(root: scene.root.layerID, snapshot: receiver.show(scene.root))
    }

    /// The frame at scene time `t` (absolute `1000 + t`), after the scene's per-frame update for `t`.
    func graph(at t: Double) -> RenderGraph {
        BenchmarkScenes.applyUpdate(scene, at: t)
        CATransaction.flush()
        for packet in receiver.take() { producer.apply(packet) }
        return producer.produceFrame(at: Self.startTime + t).graph
    }
}

extension RenderGraph {
    /// Over the items `accept` picks, the smallest largest distance (pixels) between an item's shape
    /// corners in the frame and `expected`; infinity when no item is picked.
    func bestMatch(_ expected: [SIMD2<Double>], accept: (DrawItem) -> Bool) -> Double {
        var best = Double.infinity
        for (passIndex, pass) in passes.enumerated() {
            for item in pass.items where accept(item) {
                let shape = item.instance.shape
                let corners = [(shape.x, shape.y), (shape.z, shape.y), (shape.z, shape.w), (shape.x, shape.w)]
                var worst = 0.0
                for (corner, target) in zip(corners, expected) {
                    guard let pixel = framePixel(SIMD2(Double(corner.0), Double(corner.1)), of: item, inPass: passIndex) else {
                        worst = .infinity
                        break
                    }
                    worst = max(worst, distance(pixel, target))
                }
                best = min(best, worst)
            }
        }
        return best
    }

    /// Where the layer-space point `point` of `item`, drawn by pass `passIndex`, lands in the frame: through
    /// the item's `localToClip` into its target, and for an offscreen target on through the quad that
    /// composites the surface (for a packed target, the composite of the sub-rectangle holding it).
    func framePixel(_ point: SIMD2<Double>, of item: DrawItem, inPass passIndex: Int) -> SIMD2<Double>? {
        let pass = passes[passIndex]
        let (c0, c1, _, c3) = item.instance.localToClip
        let clip = SIMD4<Double>(c0) * point.x + SIMD4<Double>(c1) * point.y + SIMD4<Double>(c3)
        guard clip.w > 1e-9 else { return nil }
        let (width, height) = (Double(pass.target.width), Double(pass.target.height))
        let pixel = SIMD2((clip.x / clip.w + 1) * width / 2, (clip.y / clip.w + 1) * height / 2)
        guard let surface = pass.target.surface else { return pixel }
        for later in passes.indices where later > passIndex {
            for composite in passes[later].items where composite.texture?.surface == surface {
                let uv = SIMD4<Double>(composite.instance.uv), quad = SIMD4<Double>(composite.instance.quad)
                let s = (pixel.x / width - uv.x) / (uv.z - uv.x), r = (pixel.y / height - uv.y) / (uv.w - uv.y)
                // A packed target is shared: the composite is the one whose sub-rectangle holds the point.
                guard (-1e-6...1 + 1e-6).contains(s), (-1e-6...1 + 1e-6).contains(r) else { continue }
                return framePixel(SIMD2(quad.x + s * (quad.z - quad.x), quad.y + r * (quad.w - quad.y)), of: composite, inPass: later)
            }
        }
        return nil
    }
}

/// The Euclidean distance between two points.
private func distance<V: SIMD>(_ a: V, _ b: V) -> Double where V.Scalar == Double {
    ((a - b) * (a - b)).sum().squareRoot()
}

/// SHA-256 (FIPS 180-4), enough to check a file's digest.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hex(of message: [UInt8]) -> String {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                w[i] = (0..<4).reduce(0) { $0 << 8 | UInt32(data[chunk + 4 * i + $1]) }
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[index] = h[index] &+ value }
        }
        return h.map { String(format: "%08x", $0) }.joined()
    }
}
