import Foundation
import LayerKit

/// SCENES.md `groups`: 300 group layers with group opacity, moving; and `groups_live`
/// (`LiveGroupsScene`), the same with content that changes every frame.
///
/// Groups `g` = 0…299, each 64×64 with opacity 0.5, **flattened** (`allowsGroupOpacity`): the children are
/// composited into a transparent 64×64 surface first, which is then drawn at alpha 0.5, so where children
/// overlap only the top one shows through.
/// - Group top-left: `x = (64·(g mod 20) + 100·t) mod 1280`, `y = 48·floor(g/20)` (15 rows at a 48 px
///   pitch, so a group overlaps its row neighbours).
/// - Children, in group coordinates and paint order, 40×40, opaque: red (1,0,0) at (0,0), green (0,1,0) at
///   (12,12), blue (0,0,1) at (24,24).
/// - `groups_live` only: the blue child's x is `24·(0.5 + 0.5·sin(2π(t + g/300)))`.
///
/// Motion on the render thread: a sawtooth of each group's `position.x` (1280 px over 12.8 s, phase
/// `64·(g mod 20)/1280`); in `groups_live` an additive sine of amplitude 12 on the blue child's
/// `position.x` (period 1 s, phase `g/300`) around its resting x of 12. The children never change in
/// `groups`, so an engine may cache each flattened group there; in `groups_live` it cannot.
public class GroupsScene: BenchmarkScene {
    public class var name: String { "groups" }
    public static let groupCount = 300
    public static let groupSize = CGSize(width: 64, height: 64)
    public static let childSize = CGSize(width: 40, height: 40)
    public static let groupOpacity: Float = 0.5
    /// Children in paint order: straight RGB and top-left in group coordinates.
    public static let children: [(color: SIMD3<Double>, topLeft: CGPoint)] = [
        (SIMD3(1, 0, 0), CGPoint(x: 0, y: 0)),
        (SIMD3(0, 1, 0), CGPoint(x: 12, y: 12)),
        (SIMD3(0, 0, 1), CGPoint(x: 24, y: 24)),
    ]
    static let speed: Double = 100
    static let wrapWidth: Double = 1280

    public let root: CALayer
    /// The 300 group layers, in paint order; each has its three children as sublayers.
    public let groups: [CALayer]
    public var layerCount: Int { groups.count * (1 + Self.children.count) }

    /// Whether the blue child moves (`groups_live`).
    class var blueMoves: Bool { false }

    public required init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        var groups: [CALayer] = []
        groups.reserveCapacity(Self.groupCount)
        let halfWidth = Self.groupSize.width / 2
        for g in 0..<Self.groupCount {
            let group = CALayer()
            let x0 = Double(64 * (g % 20))
            BenchmarkScenes.place(group, topLeft: CGPoint(x: x0, y: Double(48 * (g / 20))), size: Self.groupSize)
            group.opacity = Self.groupOpacity
            group.allowsGroupOpacity = true
            for (color, topLeft) in Self.children {
                let child = CALayer()
                BenchmarkScenes.place(child, topLeft: topLeft, size: Self.childSize)
                child.backgroundColor = CGColor(red: color.x, green: color.y, blue: color.z, alpha: 1)
                child.isOpaque = true
                group.addSublayer(child)
            }
            group.add(PeriodicMotion.sawtooth("position.x", from: halfWidth, to: halfWidth + Self.wrapWidth,
                                              period: Self.wrapWidth / Self.speed, phase: x0 / Self.wrapWidth,
                                              startTime: startTime),
                      forKey: "drift")
            if Self.blueMoves, let blue = group.sublayers?.last {
                // Resting top-left x 12 (the middle of 0…24), ± 12.
                blue.position.x = 12 + Self.childSize.width / 2
                blue.add(PeriodicMotion.sine("position.x", amplitude: 12, period: 1, phase: Double(g) / 300,
                                             startTime: startTime),
                         forKey: "slide")
            }
            root.addSublayer(group)
            groups.append(group)
        }
        self.groups = groups
    }

    public func stopMotion() {
        for group in groups {
            group.removeAllAnimations()
            for child in group.sublayers ?? [] { child.removeAllAnimations() }
        }
    }
}

/// SCENES.md `groups_live`: `groups` with the blue child's x changing per group every frame, so every
/// group's offscreen surface must be re-rendered every frame (300 offscreen passes plus the main pass for
/// an engine that renders each group separately). See `GroupsScene`.
public final class LiveGroupsScene: GroupsScene {
    override public class var name: String { "groups_live" }
    override class var blueMoves: Bool { true }
}
