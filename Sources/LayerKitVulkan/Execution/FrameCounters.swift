import LayerKitRender

/// What one rendered frame cost, as plain named counters (STYLE.md guideline 16). Independent of the
/// machine, so tests and benchmarks can assert them.
package struct FrameCounters: Equatable, Sendable, CustomStringConvertible {
    /// `vkCmdDraw` calls: one per batch of consecutive items that share a texture binding and blend mode.
    package var drawCalls = 0
    /// Quads drawn (one instance per `DrawItem`).
    package var instances = 0
    /// Texel bytes uploaded this frame (level 0 of each newly resident image).
    package var bytesUploaded = 0
    /// Images uploaded this frame; an image already resident costs nothing.
    package var imagesUploaded = 0
    /// Render passes LayerKit began (offscreen passes and the frame's; a frame drawn inside an app's
    /// render pass begins none of its own).
    package var passes = 0
    /// Why each offscreen pass exists, in execution order.
    package var offscreenReasons: [OffscreenReason] = []
    /// Offscreen surface images created this frame; zero when the pool had them all.
    package var surfacesCreated = 0
    /// Bytes of the offscreen surface images the frame drew into (each pooled image once, as allocated).
    package var offscreenTargetBytes = 0
    /// Wall-clock seconds spent recording (uploads included).
    package var recordTime: Double = 0
    /// The recording thread's own CPU seconds for the same (`FrameStatistics.StageTimes.recordThreadCPU`).
    package var recordCPUTime: Double = 0
    /// Bytes of instance data written into the frame's instance buffer (`FrameStatistics.instanceBytesWritten`).
    package var instanceBytesWritten = 0

    /// Render passes into offscreen surfaces.
    package var offscreenPasses: Int { offscreenReasons.count }

    /// Equal counters; the record times depend on the machine and are left out.
    package static func == (lhs: FrameCounters, rhs: FrameCounters) -> Bool {
        lhs.drawCalls == rhs.drawCalls && lhs.instances == rhs.instances && lhs.bytesUploaded == rhs.bytesUploaded
            && lhs.imagesUploaded == rhs.imagesUploaded && lhs.passes == rhs.passes && lhs.offscreenReasons == rhs.offscreenReasons
            && lhs.surfacesCreated == rhs.surfacesCreated && lhs.offscreenTargetBytes == rhs.offscreenTargetBytes
    }

    package init(drawCalls: Int = 0, instances: Int = 0, bytesUploaded: Int = 0, imagesUploaded: Int = 0, passes: Int = 0,
                 offscreenReasons: [OffscreenReason] = [], surfacesCreated: Int = 0) {
        self.drawCalls = drawCalls
        self.instances = instances
        self.bytesUploaded = bytesUploaded
        self.imagesUploaded = imagesUploaded
        self.passes = passes
        self.offscreenReasons = offscreenReasons
        self.surfacesCreated = surfacesCreated
    }

    package var description: String {
        var text = "passes \(passes), draw calls \(drawCalls), instances \(instances), images uploaded \(imagesUploaded) (\(bytesUploaded) bytes)"
        if !offscreenReasons.isEmpty {
            text += ", offscreen passes \(offscreenPasses) (" + offscreenReasons.map(\.rawValue).joined(separator: ", ") + ")"
        }
        return text
    }
}

extension FrameStatistics {
    /// These statistics (a compiled graph's: layers, culling, batches, CPU stages) with what recording
    /// the graph did: draw calls, instances, passes, uploads, offscreen memory and record time. The GPU's
    /// results (fragments, GPU time) come later, once the frame has finished.
    package func adding(_ counters: FrameCounters) -> FrameStatistics {
        var result = self
        result.drawCalls = counters.drawCalls
        result.instances = counters.instances
        result.passes = counters.passes
        result.offscreenReasons = counters.offscreenReasons
        result.imagesUploaded = counters.imagesUploaded
        result.bytesUploaded = counters.bytesUploaded
        result.offscreenTargetBytes = counters.offscreenTargetBytes
        result.cpuTime.record = counters.recordTime
        result.cpuTime.recordThreadCPU = counters.recordCPUTime
        result.instanceBytesWritten = counters.instanceBytesWritten
        return result
    }
}
