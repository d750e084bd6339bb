import Foundation
import LayerKit

/// The content sample's scene: every way a layer gets content, in a grid of panels that a
/// `CAConstraintLayoutManager` keeps filling the root whatever its size (resize the window and the
/// panels, and what is in them, follow).
///
/// Panels, left to right, top to bottom:
/// - shapes: a star whose outline writes on and off (`strokeEnd`), a ring with marching ants
///   (`lineDashPhase`), and a path that morphs between a star and a polygon of the same structure;
/// - gradients: axial, radial and conic `CAGradientLayer`s drawn by the GPU, their colors, locations and
///   points animating;
/// - text: `CATextLayer`s with an attributed title, a wrapped justified paragraph, a line truncated in the
///   middle, and a pulsing `fontSize`;
/// - drawing: a layer that draws a Bézier curve in `draw(in:)` whose control points are a custom
///   property declared with `needsDisplay(forKey:)`, animated, so it is redrawn each frame;
/// - layout: chips constrained to one another and to their panel;
/// - tiles: a `CATiledLayer` showing a 100,000 × 100,000-point virtual image (`TiledImageScene`), zooming
///   and panning along a scripted tour that the host advances each frame with `update(at:)`, as an app
///   would move it in response to gestures.
///
/// Shared by `Samples/Content`, tests and tools (DESIGN.md: scenes live once).
public final class ContentScene {
    /// The panels' names, in grid order (3 columns × 2 rows).
    public static let panelNames = ["shapes", "gradients", "text", "drawing", "layout", "tiles"]
    public static let columns = 3
    public static let rows = 2
    /// The gap between panels and around the grid, in points.
    public static let margin: CGFloat = 12
    /// The height of a panel's caption strip, in points.
    public static let captionHeight: CGFloat = 26

    /// The tiles panel's zoomable image.
    public let tiledImage: TiledImageScene
    private let startTime: CFTimeInterval

    /// Builds the scene into `root`. The root gets a constraint layout manager; its size may change at
    /// any time (a window resize) and the panels follow at the next commit. Animations start when
    /// committed; the tiled image's tour starts at `startTime`.
    public init(root: CALayer, startTime: CFTimeInterval = CACurrentMediaTime()) {
        self.startTime = startTime
        var tiles: TiledImageScene?
        root.backgroundColor = CGColor(red: 0.08, green: 0.09, blue: 0.12, alpha: 1)
        root.layoutManager = CAConstraintLayoutManager()
        for (index, name) in Self.panelNames.enumerated() {
            let panel = Self.makePanel(name, column: index % Self.columns, row: index / Self.columns)
            let stage = panel.sublayers![1]
            switch name {
            case "shapes": ShapesPanel.populate(stage)
            case "gradients": GradientsPanel.populate(stage)
            case "text": TextPanel.populate(stage)
            case "drawing": DrawingPanel.populate(stage)
            case "layout": LayoutPanel.populate(stage)
            default: tiles = TilesPanel.populate(stage)
            }
            root.addSublayer(panel)
        }
        tiledImage = tiles!
    }

    /// Moves what the host drives from the main thread to scene time `time` (absolute, as
    /// `CACurrentMediaTime()`): the tiled image's tour. Call once a frame, before the commit.
    public func update(at time: CFTimeInterval) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        tiledImage.showTour(at: time - startTime)
        CATransaction.commit()
    }

    /// A panel: a rounded card holding a caption and a stage (its sublayers 0 and 1), the stage
    /// filling the card below the caption. Column and row place it through constraints on the root:
    /// `width = (W − m)/columns − m`, `minX = m + column·(width + m) = column/columns·W + m − column·m/columns`.
    private static func makePanel(_ name: String, column: Int, row: Int) -> CALayer {
        let panel = CALayer()
        panel.name = name
        panel.backgroundColor = CGColor(red: 0.14, green: 0.15, blue: 0.19, alpha: 1)
        panel.cornerRadius = 10
        panel.masksToBounds = true
        panel.layoutManager = CAConstraintLayoutManager()
        let c = CGFloat(columns), r = CGFloat(rows)
        let (col, row) = (CGFloat(column), CGFloat(row))
        panel.constraints = [
            CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 1 / c, offset: -margin / c - margin),
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .width, scale: col / c,
                         offset: margin - col * margin / c),
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 1 / r, offset: -margin / r - margin),
            CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .height, scale: row / r,
                         offset: margin - row * margin / r),
        ]

        let caption = CATextLayer()
        caption.name = "\(name).caption"
        caption.string = name
        caption.fontSize = 15
        caption.foregroundColor = CGColor(gray: 0.85, alpha: 1)
        caption.alignmentMode = .center
        caption.contentsScale = 2
        caption.constraints = [
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX),
            CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX),
            CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 4),
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 0, offset: captionHeight - 4),
        ]
        panel.addSublayer(caption)

        let stage = CALayer()
        stage.name = "\(name).stage"
        stage.masksToBounds = true
        stage.layoutManager = CAConstraintLayoutManager()
        stage.constraints = [
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX),
            CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX),
            CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: captionHeight),
            CAConstraint(attribute: .maxY, relativeTo: "superlayer", attribute: .maxY),
        ]
        panel.addSublayer(stage)
        return panel
    }

    /// Constraints that keep a layer of fixed size centred in its superlayer, offset by `offset`
    /// (in points) from the centre.
    static func centered(offset: CGPoint = .zero) -> [CAConstraint] {
        [CAConstraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX, offset: offset.x),
         CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY, offset: offset.y)]
    }

    /// A repeating basic animation from `from` to `to`.
    static func repeating(_ keyPath: String, from: Any, to: Any, duration: CFTimeInterval,
                          autoreverses: Bool = true) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = duration
        animation.autoreverses = autoreverses
        animation.repeatCount = .infinity
        animation.timingFunction = CAMediaTimingFunction(name: autoreverses ? .easeInEaseOut : .linear)
        return animation
    }
}
