import Foundation
import LayerKitRender

/// One frame of a `SceneProfile`: its number, the scene time it showed and what it did.
public struct ProfiledFrame: Sendable {
    public var number: Int
    public var sceneTime: Double
    public var statistics: FrameStatistics

    /// What the frame cost, in seconds, for ranking frames: the CPU stages added up plus the GPU time
    /// (on a CPU Vulkan driver the two share the cores, so neither alone says which frame was worst).
    public var cost: Double { statistics.cpuTime.total + (statistics.gpuTime ?? 0) }

    /// Which of a run's frames a picture shows.
    public enum Role: String, Sendable, CaseIterable {
        case median
        case worst
    }

    /// The median frame (by cost; the lower middle of an even count) and the worst; one frame may be both.
    public static func picked(from frames: [ProfiledFrame]) -> [(role: Role, frame: ProfiledFrame)] {
        let ranked = frames.sorted { $0.cost < $1.cost || ($0.cost == $1.cost && $0.number < $1.number) }
        guard let worst = ranked.last else { return [] }
        return [(.median, ranked[(ranked.count - 1) / 2]), (.worst, worst)]
    }

    /// The `count` costliest frames, costliest first.
    public static func worst(_ count: Int, of frames: [ProfiledFrame]) -> [ProfiledFrame] {
        Array(frames.sorted { $0.cost > $1.cost || ($0.cost == $1.cost && $0.number < $1.number) }.prefix(count))
    }
}
