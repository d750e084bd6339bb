import Foundation
import LayerKit

/// A benchmark scene: a layer tree that shows the same picture, with the same work per frame, as the
/// engine-neutral definition in `bench/SCENES.md` (city, stack, translucent, groups, groups_live) or as
/// LayerKit's own render-graph issue defines it (cube, big), or LayerKit's content work (gradients), or the
/// peers' calibration scene (empty).
///
/// Every scene is defined on a 1280×720-pixel window at scale 1 (`BenchmarkScenes.windowSize`), cleared to
/// opaque black by the host, and driven by `t`, the seconds since the first frame. A scene is built with
/// Core Animation's means: layers plus repeating animations that the render thread evaluates
/// (`PeriodicMotion`), all beginning at `startTime` — so frame `t` is the frame at absolute time
/// `startTime + t` — and, where a scene needs it, per-frame model updates (`update(at:)`), which the host
/// makes inside a transaction with actions disabled (`BenchmarkScenes.applyUpdate(_:at:)`).
///
/// SCENES.md gives each layer's top-left corner before its own transform and rotates about the centre:
/// with the default anchor point (0.5, 0.5) a layer's `position` is that corner plus half its size.
///
/// Does not render, time or count anything: hosts (LayerKitBench, samples, tests) do.
/// Its metatypes are Sendable (`SendableMetatype`), so the list of scenes (`all`) is a constant any
/// thread may read; the scenes themselves stay on the model thread.
public protocol BenchmarkScene: AnyObject, SendableMetatype {
    /// The scene's name in SCENES.md and on LayerKitBench's command line.
    static var name: String { get }

    /// Builds the scene; its animations begin at `startTime` (seconds, `CACurrentMediaTime()`'s clock).
    init(startTime: CFTimeInterval)

    /// The root layer: 1280×720 at the origin of its superlayer (the window), drawing nothing itself.
    var root: CALayer { get }

    /// Layers the scene defines, the root not counted (SCENES.md's counts: city 6,000, groups 300 + 900).
    var layerCount: Int { get }

    /// Whether `update(at:)` changes the model every frame; false when all motion is animations the
    /// render thread evaluates.
    var updatesEveryFrame: Bool { get }

    /// Sets the model properties that change per frame to their values at scene time `t`. Call it inside
    /// a transaction with actions disabled (`BenchmarkScenes.applyUpdate(_:at:)`). Nothing for scenes whose
    /// motion is all animations.
    func update(at t: CFTimeInterval)

    /// Removes every animation and stops per-frame updates, so the scene becomes still: after one more
    /// frame a host has nothing to render (`big` measures that). The layers stay where the model puts them.
    func stopMotion()
}

extension BenchmarkScene {
    public var updatesEveryFrame: Bool { false }
    public func update(at t: CFTimeInterval) {}
}

/// The catalogue of benchmark scenes and what they share.
public enum BenchmarkScenes {
    /// The window every scene is defined for, in pixels at scale 1 (points = pixels).
    public static let windowSize = CGSize(width: 1280, height: 720)

    /// Every scene, in SCENES.md's order, then LayerKit's own.
    public static let all: [any BenchmarkScene.Type] = [
        CityScene.self, StackScene.self, TranslucentScene.self, GroupsScene.self, LiveGroupsScene.self,
        CubeScene.self, BigScene.self, GradientsScene.self, EmptyScene.self, UIScene.self, EffectsScene.self, ReplicatedScene.self, ParticlesScene.self,
    ]

    /// The scene type named `name` (SCENES.md's names: `city`, `groups_live`, …), or nil.
    public static func scene(named name: String) -> (any BenchmarkScene.Type)? {
        all.first { $0.name == name }
    }

    /// Calls `scene.update(at: t)` inside a transaction with actions disabled and commits it, as the
    /// host's per-frame hook should. Does nothing for scenes that do not update every frame.
    public static func applyUpdate(_ scene: any BenchmarkScene, at t: CFTimeInterval) {
        guard scene.updatesEveryFrame else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.update(at: t)
        CATransaction.commit()
    }

    /// A root layer for a scene: 1280×720, its frame at the window's origin, drawing nothing.
    static func makeRoot(name: String) -> CALayer {
        let root = CALayer()
        root.name = name
        root.bounds = CGRect(origin: .zero, size: windowSize)
        root.position = CGPoint(x: windowSize.width / 2, y: windowSize.height / 2)
        return root
    }

    /// Places `layer` (`size`, default anchor point) so its top-left corner is at `topLeft` in its
    /// superlayer before its own transform, and it rotates about its centre.
    static func place(_ layer: CALayer, topLeft: CGPoint, size: CGSize) {
        layer.bounds = CGRect(origin: .zero, size: size)
        layer.position = CGPoint(x: topLeft.x + size.width / 2, y: topLeft.y + size.height / 2)
    }

    /// `a mod m` for reals as SCENES.md defines it: `a − m·floor(a/m)`, in [0, m).
    public static func mod(_ a: Double, _ m: Double) -> Double {
        a - m * (a / m).rounded(.down)
    }
}
