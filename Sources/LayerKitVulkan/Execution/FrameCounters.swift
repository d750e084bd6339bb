/// What one rendered frame cost, as plain named counters (STYLE.md guideline 16). Independent of the
/// machine, so tests and benchmarks can assert them.
package struct FrameCounters: Equatable, Sendable, CustomStringConvertible {
    /// `vkCmdDraw` calls: one per batch of consecutive items that share a texture binding.
    package var drawCalls = 0
    /// Quads drawn (one instance per `DrawItem`).
    package var instances = 0
    /// Texel bytes uploaded this frame (level 0 of each newly resident image).
    package var bytesUploaded = 0
    /// Images uploaded this frame; an image already resident costs nothing.
    package var imagesUploaded = 0
    /// Render passes recorded.
    package var passes = 0

    package init(drawCalls: Int = 0, instances: Int = 0, bytesUploaded: Int = 0, imagesUploaded: Int = 0, passes: Int = 0) {
        self.drawCalls = drawCalls
        self.instances = instances
        self.bytesUploaded = bytesUploaded
        self.imagesUploaded = imagesUploaded
        self.passes = passes
    }

    package var description: String {
        "passes \(passes), draw calls \(drawCalls), instances \(instances), images uploaded \(imagesUploaded) (\(bytesUploaded) bytes)"
    }
}
