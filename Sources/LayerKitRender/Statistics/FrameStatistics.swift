import Foundation

/// What one frame did, as plain named counters (STYLE.md guideline 16; sokol's frame stats).
///
/// Filled in stages: the render server counts layers, culling, batches and passes and times its CPU
/// stages when it builds the graph (`RenderGraph.statistics`); the backend adds what recording did (draw
/// calls, instances, uploads, offscreen memory, record time) and, once the GPU has finished the frame,
/// what it measured (fragments shaded, GPU time). A value the device cannot measure stays nil and prints
/// as "n/a". Counters other than times do not depend on the machine, so tests and benchmarks can assert
/// them.
public struct FrameStatistics: Equatable, Sendable {
    // MARK: Layers and quads

    /// Layers with at least one quad drawn this frame (in any pass).
    public var layersVisible = 0
    /// Layers that had quads, every one of which was culled (off the target or hidden by opaque content).
    public var layersCulled = 0
    /// Quads drawn (backgrounds, contents pieces, borders, surface composites), after culling.
    public var layerQuads = 0
    /// Quads dropped because no pixel of theirs is in their pass's target.
    public var quadsCulledOffTarget = 0
    /// Quads dropped because later opaque quads paint over every pixel of theirs.
    public var quadsCulledOccluded = 0
    /// Opaque quads of the depth-ordered frame pass shrunk to the part nearer opaque quads leave in view
    /// (`OcclusionTrimmer`); a quad with nothing left counts in `quadsCulledOccluded` instead.
    public var quadsTrimmed = 0
    /// Commit packets the render server applied for this frame (a host loop that commits once per frame
    /// drawn applies at most one).
    public var commitsApplied = 0
    /// Quads drawn as their pass's clear instead: an opaque flat colour covering the whole target beneath
    /// everything else drawn (a root's background), which then costs no fragment.
    public var quadsDrawnAsClear = 0

    /// Layers the graph builder presented and drew this frame: every visible layer on a full build, only
    /// the changed subtrees on an incremental one (`RetainedFrame`).
    public var layersRecomputed = 0
    /// Builder draws the list compiler culled, ordered and batched this frame: all of them on a full
    /// compile, only the changed ones when it patched the last frame's lists (with every draw of an
    /// offscreen pass it compiled again).
    public var quadsRecompiled = 0

    // MARK: Recording

    /// Instanced draw calls recorded (`vkCmdDraw`).
    public var drawCalls = 0
    /// Quad instances drawn (every quad of every pass, debug overlays included).
    public var instances = 0
    /// Batches the render graph planned (one draw call each).
    public var batches = 0
    /// Render passes LayerKit began, offscreen ones included (a frame drawn inside an app's render pass,
    /// `CARenderer.render(inRenderPassOf:)`, adds none of its own).
    public var passes = 0
    /// Why each offscreen pass exists, in execution order (DESIGN.md §4).
    public var offscreenReasons: [OffscreenReason] = []
    /// Layers drawn from a cached bitmap this frame: `shouldRasterize` layers, and group-opacity layers
    /// whose unchanged subtree the engine cached on its own.
    public var rasterizeHits = 0
    /// Such layers whose bitmap was drawn this frame (missing, out of date, or not kept).
    public var rasterizeMisses = 0
    /// Planes of 3D rendering contexts put in painter's order (`PlaneSorter`), over every context.
    public var planesSorted = 0
    /// Cuts of one plane (or piece) in two where intersecting planes were split (`BSPTree`): each makes one
    /// piece more to draw. Two planes crossing once: 1.
    public var planesSplit = 0
    /// Sublayer instances replicators drew beyond their originals (`CAReplicatorLayer`: n − 1 per sublayer
    /// of each replicator drawn; a replicator inside another is drawn once per outer instance).
    public var replicatedInstances = 0
    /// Emitter particles drawn (`CAEmitterLayer`).
    public var particlesDrawn = 0

    // MARK: GPU work

    /// Fragment-shader invocations over the whole frame (a Vulkan pipeline-statistics query); nil where
    /// the device cannot count them. lavapipe counts every rasterized fragment, also those the depth test
    /// then rejects; a GPU counts after its early depth test (an H200 counted about one fragment per
    /// covered pixel of an opaque scene drawn front to back), so there it shows what was shaded, not what
    /// was rasterized.
    public var fragmentsShaded: Int?
    /// Pixels of the frame's target (width × height), the denominator of `overdraw`.
    public var targetPixels = 0

    // MARK: Memory

    /// Bytes of per-draw instance data the backend wrote this frame, gradient stops included: every
    /// draw's after a full compile, only the rewritten draws' when the backend's buffer held an earlier
    /// revision of the same draw lists.
    public var instanceBytesWritten = 0
    /// Images uploaded this frame (whole textures, tiles and atlas placements); resident ones cost nothing.
    public var imagesUploaded = 0
    /// Texel bytes uploaded this frame.
    public var bytesUploaded = 0
    /// Bytes of the offscreen surfaces the frame drew into (the pooled images, as allocated), and of the
    /// stencils of those drawn with stencil clips (one per surface bucket, shared).
    public var offscreenTargetBytes = 0

    // MARK: Time

    /// CPU time of each stage, in seconds.
    public var cpuTime = StageTimes()
    /// GPU time from the start of the frame's first render pass to the end of its last (timestamp
    /// queries; uploads before the passes are not counted), in seconds; nil where the device has no
    /// timestamps.
    public var gpuTime: TimeInterval?

    /// CPU seconds per stage of one frame.
    public struct StageTimes: Equatable, Sendable {
        /// Applying commit packets to the render tree (since the previous frame).
        public var commitApply: TimeInterval = 0
        /// Evaluating animations at the frame's time.
        public var animation: TimeInterval = 0
        /// Walking the render tree into passes and draw items (animation evaluation excluded).
        public var graphBuild: TimeInterval = 0
        /// Of `graphBuild`, working out emitters' particles (`CAEmitterLayer`), before they become draws:
        /// the thread's CPU time (as `recordThreadCPU`), not wall-clock time.
        public var particleSimulation: TimeInterval = 0
        /// Culling, ordering and batching the draw lists (`DrawListCompiler`).
        public var cullAndBatch: TimeInterval = 0
        /// Recording the frame's commands (uploads included) on the backend.
        public var record: TimeInterval = 0
        /// The recording thread's own CPU time for `record` (`CLOCK_THREAD_CPUTIME_ID`): the stages above
        /// are wall-clock times, which on a CPU Vulkan driver (lavapipe) include waiting while the
        /// driver's rasterizer threads, drawing the previous frame, hold the cores.
        public var recordThreadCPU: TimeInterval = 0

        public init() {}

        /// The stages added up.
        public var total: TimeInterval { commitApply + animation + graphBuild + cullAndBatch + record }
    }

    public init() {}

    /// The counters the first backends reported; the rest start at zero.
    public init(layerQuads: Int = 0, drawCalls: Int = 0, instances: Int = 0, passes: Int = 0, imagesUploaded: Int = 0,
                bytesUploaded: Int = 0, offscreenReasons: [OffscreenReason] = []) {
        self.layerQuads = layerQuads
        self.drawCalls = drawCalls
        self.instances = instances
        self.passes = passes
        self.imagesUploaded = imagesUploaded
        self.bytesUploaded = bytesUploaded
        self.offscreenReasons = offscreenReasons
    }

    /// Passes into offscreen surfaces (`passes` counts them too).
    public var offscreenPasses: Int { offscreenReasons.count }

    /// Quads dropped by culling, for any reason.
    public var quadsCulled: Int { quadsCulledOffTarget + quadsCulledOccluded }

    /// Fragments shaded per target pixel (1 is every pixel shaded once); nil when fragments are not
    /// counted or the target is empty.
    public var overdraw: Double? {
        guard let fragmentsShaded, targetPixels > 0 else { return nil }
        return Double(fragmentsShaded) / Double(targetPixels)
    }
}

extension FrameStatistics: CustomStringConvertible {
    /// One line: counts, then times in milliseconds; "n/a" for what the device cannot measure.
    public var description: String {
        func milliseconds(_ seconds: TimeInterval) -> String { String(format: "%.2f", seconds * 1000) }
        var reasons = ""
        if !offscreenReasons.isEmpty {
            let counts = OffscreenReason.allCases.compactMap { reason -> String? in
                let count = offscreenReasons.filter { $0 == reason }.count
                return count > 0 ? "\(reason) \(count)" : nil
            }
            reasons = " (" + counts.joined(separator: ", ") + ")"
        }
        let fragments = fragmentsShaded.map(String.init) ?? "n/a"
        let overdrawText = overdraw.map { String(format: "%.2f", $0) } ?? "n/a"
        let gpu = gpuTime.map(milliseconds) ?? "n/a"
        return "layers \(layersVisible) visible, \(layersCulled) culled · quads \(layerQuads) drawn, "
            + "\(quadsCulledOffTarget) off-target, \(quadsCulledOccluded) occluded, \(quadsDrawnAsClear) as clear · draw calls \(drawCalls) · "
            + "instances \(instances) · batches \(batches) · passes \(passes), offscreen \(offscreenPasses)\(reasons) · "
            + "rasterize \(rasterizeHits) hits, \(rasterizeMisses) misses · planes \(planesSorted) sorted, \(planesSplit) split · "
            + "replicated \(replicatedInstances) · particles \(particlesDrawn) · "
            + "fragments \(fragments) · overdraw \(overdrawText) · uploaded \(imagesUploaded) images, \(bytesUploaded) B · "
            + "offscreen targets \(offscreenTargetBytes) B · commits \(commitsApplied) · cpu ms commit \(milliseconds(cpuTime.commitApply)), "
            + "animation \(milliseconds(cpuTime.animation)), build \(milliseconds(cpuTime.graphBuild)), "
            + "cull+batch \(milliseconds(cpuTime.cullAndBatch)), record \(milliseconds(cpuTime.record)) (thread cpu \(milliseconds(cpuTime.recordThreadCPU))) · gpu ms \(gpu)"
    }
}

/// A monotonic clock for stage times, in nanoseconds (CLOCK_MONOTONIC; tens of nanoseconds a read).
package enum StageClock {
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Seconds from `start` (a `now()` reading) to now.
    /// The calling thread's CPU time so far, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): unlike `now()`,
    /// it does not advance while the thread waits for a core.
    package static func threadCPUNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    package static func seconds(since start: UInt64) -> TimeInterval {
        seconds(now() &- start)
    }

    package static func seconds(_ nanoseconds: UInt64) -> TimeInterval {
        TimeInterval(nanoseconds) / 1e9
    }
}
