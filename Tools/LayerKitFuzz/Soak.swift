import Foundation
import LayerKit
import LayerKitScenes
import LayerKitVulkan

/// The soak run (`LayerKitFuzz --soak-frames N`): 2,000 layers animating (position and opacity, render
/// thread), 50 layers added and 50 removed every frame, 20 layers' contents replaced by new images every
/// frame, rendered headless for N frames. Resident memory is sampled at every tenth of the run; the
/// renderer's device memory blocks, offscreen surfaces and rasterization cache are reported beside it.
/// Passes when resident memory grows by less than 2 % from the 10 % sample to the last one.
struct Soak {
    var frames: Int

    /// Resident set size of this process, in bytes (`/proc/self/statm`).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func run() throws -> Bool {
        let renderer = try CARenderer(width: 256, height: 256)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 256, height: 256)
        var random = SeededGenerator(seed: 42)
        func makeLayer() -> CALayer {
            let layer = CALayer()
            layer.frame = CGRect(x: Double(random.next() % 240), y: Double(random.next() % 240), width: 12, height: 12)
            layer.backgroundColor = CGColor(red: Double(random.next() % 256) / 255, green: 0.5, blue: 0.5, alpha: 0.8)
            layer.cornerRadius = Double(random.next() % 5)
            return layer
        }
        for _ in 0..<2_000 {
            let layer = makeLayer()
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0
            move.toValue = 256
            move.duration = 1 + Double(random.next() % 100) / 50
            move.repeatCount = .infinity
            layer.add(move, forKey: "move")
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0.2
            fade.duration = 0.7
            fade.autoreverses = true
            fade.repeatCount = .infinity
            layer.add(fade, forKey: "fade")
            root.addSublayer(layer)
        }
        let imageHolders = (0..<20).map { _ in makeLayer() }
        for holder in imageHolders { root.addSublayer(holder) }
        var transient: [CALayer] = []
        renderer.layer = root

        var samples: [(frame: Int, resident: Int, blocks: Int, surfaces: Int, cacheEntries: Int)] = []
        let step = max(frames / 10, 1)
        let start = Date()
        for frame in 1...frames {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for layer in transient.prefix(50) { layer.removeFromSuperlayer() }
            transient.removeFirst(min(50, transient.count))
            for _ in 0..<50 {
                let layer = makeLayer()
                root.addSublayer(layer)
                transient.append(layer)
            }
            for (k, holder) in imageHolders.enumerated() {
                let shade = UInt8(truncatingIfNeeded: frame &+ k)
                let bytes = [UInt8](repeating: shade, count: 8 * 8 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
                holder.contents = CGImage(width: 8, height: 8, bytesPerRow: 32, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast)
            }
            CATransaction.commit()
            renderer.readsBack = frame % step == 0
            renderer.beginFrame(atTime: Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
            if frame % step == 0 {
                samples.append((frame, Self.residentBytes(), renderer.memoryBlockCount, renderer.surfacePoolStatistics.resident,
                                renderer.rasterizationCacheStatistics.entries))
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("LayerKitFuzz soak: \(frames) frames in \(String(format: "%.0f", seconds)) s (2,000 animating layers, 50 added and 50 removed, 20 images replaced per frame)")
        for sample in samples {
            print("  frame \(sample.frame): resident \(String(format: "%.1f", Double(sample.resident) / 1_048_576)) MiB, "
                  + "memory blocks \(sample.blocks), surfaces \(sample.surfaces), cache entries \(sample.cacheEntries)")
        }
        let messages = renderer.validationMessages
        guard let first = samples.first, let last = samples.last, first.resident > 0 else { return messages.isEmpty }
        let growth = Double(last.resident - first.resident) / Double(first.resident) * 100
        print("  resident growth from the 10 % sample to the last: \(String(format: "%.2f", growth)) % (aim < 2 %); validation messages: \(messages.count)")
        return growth < 2 && messages.isEmpty
    }
}
