import XCTest
@testable import LayerKitRender
import LayerKitScenes

final class ZZTempTimingTests: XCTestCase {
    func testTimings() {
        for type in [CityScene.self] as [any BenchmarkScene.Type] {
            CATransaction.flush()
            let scene = type.init(startTime: 0)
            CATransaction.flush()
            var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 1280, targetHeight: 720,
                                                                     viewport: CGRect(x: 0, y: 0, width: 1280, height: 720), scale: 1), debugOptions: [])
            producer.compiler.depthTesting = true
            producer.compiler.atlas = ImageAtlas()
            producer.reset(root: scene.root.layerID, snapshot: .snapshot(of: scene.root))
            for i in 0..<3 {
                let g = producer.produceFrame(at: 0.3 + Double(i)).graph
                if i == 2 { print("TIMING \(type.name): \(g.statistics)") }
            }
        }
    }
}
