import Synchronization

/// Whether a `CGImage` still exists, for caches that must not keep it alive (the image atlas, GPU
/// textures): they hold this token strongly, and the image ends it when it is deallocated.
///
/// Why not a weak reference to the image: Swift moves the reference count of an object that is weakly
/// referenced to a side table, and from then on every retain and release of it takes the slow path. A
/// shared image is retained and released by every draw item that shows it, several times a frame: the
/// slow path was about 12 % of the render thread of a frame of 6,000 image layers.
/// Thread-safe: an image may be deallocated on any thread while the render thread asks.
package final class ImageLifetime: Sendable {
    private let alive = Atomic<Bool>(true)

    package init() {}

    /// Whether the image this token belongs to still exists.
    package var isAlive: Bool { alive.load(ordering: .acquiring) }

    /// Called once, by the image's deinit.
    func end() { alive.store(false, ordering: .releasing) }
}
