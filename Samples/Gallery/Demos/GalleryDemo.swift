// The gallery's contract with its demos: each demo is a class that builds a layer tree into the root
// a host gives it and reacts to time and input, written with LayerKit's public API alone, as a Core
// Animation programmer would write it. The host is the Gallery app (a window, or headless PNG frames)
// or a test.
import Foundation
import LayerKit
import LayerKitRender

/// One demo of the gallery.
///
/// The host sizes `root` (points, origin top-left), calls `init(root:startTime:)` once, then
/// `update(at:)` once a frame before it commits, and the input methods as events arrive, all on the
/// thread that drives the model. Without a user (headless frames, tests) it calls `script(frame:time:)`
/// before each frame instead, which plays the input a user would, so frames show the demo at work.
/// Its metatypes are Sendable (`SendableMetatype`), so the list of demos (`demos`) is a constant any
/// thread may read.
public protocol GalleryDemo: AnyObject, SendableMetatype {
    /// The name on the command line (`--demo coverflow`).
    static var name: String { get }
    /// The title the launcher shows.
    static var title: String { get }
    /// What the demo shows and how to drive it, in one line.
    static var summary: String { get }

    init(root: CALayer, startTime: CFTimeInterval)
    func update(at time: CFTimeInterval)
    func keyDown(_ key: GalleryKey)
    func pointerDown(at point: CGPoint)
    func pointerMoved(to point: CGPoint)
    func pointerUp(at point: CGPoint)
    func script(frame: Int, time: CFTimeInterval)
    /// The counters of the frame the host drew last (after `update(at:)` for that frame).
    func frameDrawn(_ statistics: FrameStatistics, at time: CFTimeInterval)
}

extension GalleryDemo {
    public func update(at time: CFTimeInterval) {}
    public func keyDown(_ key: GalleryKey) {}
    public func pointerDown(at point: CGPoint) {}
    public func pointerMoved(to point: CGPoint) {}
    public func pointerUp(at point: CGPoint) {}
    public func script(frame: Int, time: CFTimeInterval) {}
    public func frameDrawn(_ statistics: FrameStatistics, at time: CFTimeInterval) {}
}

/// The keys demos react to.
public enum GalleryKey: Hashable, Sendable {
    case left, right, up, down, enter, space, escape
    case character(String)
}

/// Every demo, in the launcher's order.
public enum Gallery {
    public static let demos: [any GalleryDemo.Type] = [
        RecipeBrowserDemo.self, CoverFlowDemo.self, DockDemo.self, AlbumCityDemo.self, VideoWallDemo.self,
        SlideToUnlockDemo.self, ParticlesDemo.self, SpinnerDemo.self, ScrubberDemo.self, OverdrawLabDemo.self,
    ]

    /// The demo called `name` (case-insensitive), if any.
    public static func demo(named name: String) -> (any GalleryDemo.Type)? {
        demos.first { $0.name.lowercased() == name.lowercased() }
    }
}
