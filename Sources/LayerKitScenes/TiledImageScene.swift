import Foundation
import LayerKit

/// A zoomable 100,000 × 100,000-point virtual image shown by a `CATiledLayer`: a procedurally drawn
/// map — 1,024-point checkerboard blocks in two tones, grid lines every 256 points, and each grid
/// crossing labelled with its coordinates — that pans and zooms from the whole image down to magnified
/// detail. Nothing of it exists until a tile is drawn; only the tiles on screen ever are.
///
/// Shared by samples, tests and tools (DESIGN.md: scenes live once). Hosts call `populate(_:size:)` once
/// and then `show(centre:zoom:)` (or `showTour(at:)`, a scripted flight) inside a transaction with
/// actions disabled, as often as they like.
public final class TiledImageScene {
    /// The image's side, in points.
    public static let imageSide: CGFloat = 100_000

    /// The tiled layer drawing the image (its bounds are the whole image).
    public let image: GridTiledLayer
    /// The clipping layer the image is seen through (the root's size).
    public let viewport: CALayer

    /// Builds the scene into `root`, sized `size` points.
    public init(root: CALayer, size: CGSize) {
        viewport = CALayer()
        viewport.name = "tiled viewport"
        viewport.frame = CGRect(origin: .zero, size: size)
        viewport.masksToBounds = true
        viewport.backgroundColor = CGColor(red: 0.08, green: 0.09, blue: 0.11, alpha: 1)
        root.addSublayer(viewport)

        image = GridTiledLayer()
        image.name = "tiled image"
        image.anchorPoint = .zero
        image.bounds = CGRect(x: 0, y: 0, width: Self.imageSide, height: Self.imageSide)
        // Down to 1/512 (the whole image in about 200 points) and up to 4×.
        image.levelsOfDetail = 10
        image.levelsOfDetailBias = 2
        image.contentsScale = root.contentsScale
        viewport.addSublayer(image)
        show(centre: CGPoint(x: Self.imageSide / 2, y: Self.imageSide / 2), zoom: 1)
    }

    /// Shows the image point `centre` at the middle of the viewport, magnified `zoom` times.
    public func show(centre: CGPoint, zoom: CGFloat) {
        let size = viewport.bounds.size
        let scale = max(zoom, 1e-6)
        image.transform = CATransform3DMakeScale(scale, scale, 1)
        image.position = CGPoint(x: size.width / 2 - centre.x * scale, y: size.height / 2 - centre.y * scale)
    }

    /// A scripted flight at scene time `t` (seconds; it repeats every 40 s): from the whole image, a zoom
    /// into its centre down to 4×, a pan across at 1×, and back out.
    public static func tour(at t: CFTimeInterval) -> (centre: CGPoint, zoom: CGFloat) {
        let phase = t.truncatingRemainder(dividingBy: 40) / 40
        let middle = CGPoint(x: imageSide / 2, y: imageSide / 2)
        // Zoom as a power of two, so each level of detail gets the same time.
        func zoom(_ exponent: Double) -> CGFloat { CGFloat(pow(2, exponent)) }
        switch phase {
        case ..<0.4:
            return (middle, zoom(-9 + 11 * phase / 0.4))
        case ..<0.7:
            let u = (phase - 0.4) / 0.3
            return (CGPoint(x: middle.x + CGFloat(u) * 6_000, y: middle.y + CGFloat(sin(u * .pi)) * 2_000), 1)
        default:
            let u = (phase - 0.7) / 0.3
            return (CGPoint(x: middle.x + 6_000 * CGFloat(1 - u), y: middle.y), zoom(-9 * u))
        }
    }

    /// `show` at the tour's position at scene time `t`.
    public func showTour(at t: CFTimeInterval) {
        let (centre, zoom) = Self.tour(at: t)
        show(centre: centre, zoom: zoom)
    }
}

/// The tiled layer of `TiledImageScene`: draws, in each tile, the parts of the map that meet its clip.
public final class GridTiledLayer: CATiledLayer {
    /// The side of a checkerboard block, in points.
    public static let blockSide: CGFloat = 1_024
    /// The spacing of the grid lines and labels, in points.
    public static let gridSpacing: CGFloat = 256

    /// The colors of even and odd blocks (straight sRGB).
    public static let evenBlock = CGColor(red: 0.86, green: 0.89, blue: 0.93, alpha: 1)
    public static let oddBlock = CGColor(red: 0.70, green: 0.77, blue: 0.86, alpha: 1)
    static let line = CGColor(red: 0.25, green: 0.32, blue: 0.45, alpha: 1)
    static let label = CGColor(red: 0.10, green: 0.12, blue: 0.18, alpha: 1)
    private static let font = CGFont("DejaVu Sans")

    public override init() { super.init() }
    public required init(layer: Any) { super.init(layer: layer) }

    public override func draw(in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath.intersection(bounds)
        guard !clip.isNull, !clip.isEmpty else { return }
        // One device pixel in layer units: lines and labels keep their size on screen at every level.
        let pixel = 1 / max(abs(ctx.ctm.a), 1e-9)

        let block = Self.blockSide
        for row in Int((clip.minY / block).rounded(.down))..<Int((clip.maxY / block).rounded(.up)) {
            for column in Int((clip.minX / block).rounded(.down))..<Int((clip.maxX / block).rounded(.up)) {
                ctx.setFillColor((row + column) % 2 == 0 ? Self.evenBlock : Self.oddBlock)
                ctx.fill(CGRect(x: CGFloat(column) * block, y: CGFloat(row) * block, width: block, height: block))
            }
        }

        // Grid lines and labels only where they are at least 24 pixels apart.
        let spacing = Self.gridSpacing
        guard spacing / pixel >= 24 else { return }
        ctx.setFillColor(Self.line)
        let first = (x: Int((clip.minX / spacing).rounded(.down)), y: Int((clip.minY / spacing).rounded(.down)))
        let last = (x: Int((clip.maxX / spacing).rounded(.up)), y: Int((clip.maxY / spacing).rounded(.up)))
        for column in first.x...last.x {
            ctx.fill(CGRect(x: CGFloat(column) * spacing - pixel / 2, y: clip.minY, width: pixel, height: clip.height))
        }
        for row in first.y...last.y {
            ctx.fill(CGRect(x: clip.minX, y: CGFloat(row) * spacing - pixel / 2, width: clip.width, height: pixel))
        }
        guard spacing / pixel >= 96, let font = Self.font else { return }
        ctx.setFillColor(Self.label)
        // Text space is y-up; the layer's user space is y-down (as in a flipped UIKit context).
        ctx.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
        // A label may start in the tile to the left or above and reach into this one.
        for row in (first.y - 1)...last.y {
            for column in (first.x - 1)...last.x {
                let corner = CGPoint(x: CGFloat(column) * spacing, y: CGFloat(row) * spacing)
                ctx.draw("\(Int(corner.x)), \(Int(corner.y))", at: CGPoint(x: corner.x + 5 * pixel, y: corner.y + 17 * pixel),
                         font: font, size: 14 * pixel)
            }
        }
    }
}
