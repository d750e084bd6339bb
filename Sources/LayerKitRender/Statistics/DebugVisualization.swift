import Foundation
import Logging

/// Debug views and bisection switches of the renderer (STYLE.md guideline 15, WebRender's debug flags).
///
/// Set from the environment, `LK_DEBUG=blended,overdraw` (names comma- or space-separated, any case,
/// kebab-case or camelCase), or at run time (`CARenderer.debugOptions`). A view changes how the frame
/// looks and costs draws of its own; a switch changes how it is drawn and must not change what it looks
/// like (compare a frame with and without it to bisect a rendering bug).
public struct DebugOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// View: every drawn quad tinted half-way to red where it blends with what is under it, to green where
    /// it is opaque (it paints its pixels without reading them: an occluder).
    public static let blended = DebugOptions(rawValue: 1 << 0)
    /// View: quads that composite an offscreen surface tinted half-way to the colour of why the surface
    /// exists: yellow for group opacity, masks and rasterization, brown for shadows, violet for filters,
    /// cyan for background filters, orange for compositing filters (`DebugVisualization.offscreenTint(for:)`).
    public static let offscreen = DebugOptions(rawValue: 1 << 1)
    /// View: an overdraw heat map over the frame — pixels shaded once (or not at all) untinted, twice
    /// blue, three times green, four times pink, five or more times red, at half strength. Counts the
    /// fragments the frame pass's quads rasterize after culling (an extra offscreen pass counts them).
    public static let overdraw = DebugOptions(rawValue: 1 << 2)
    /// View: every quad tinted half-way to its batch's color (a palette of twelve, by batch index).
    public static let batches = DebugOptions(rawValue: 1 << 3)
    /// View: the composites of `shouldRasterize` layers tinted half-way to green where the cached bitmap
    /// was reused (a hit), to red where it was drawn this frame (a miss).
    public static let rasterizeCache = DebugOptions(rawValue: 1 << 4)
    /// View: quads of layers that changed this frame (a commit or a running animation) flash magenta at
    /// a quarter strength.
    public static let flashUpdates = DebugOptions(rawValue: 1 << 5)
    /// Switch: one draw call per quad, in painter's order (no batching, reordering or atlas).
    public static let disableBatching = DebugOptions(rawValue: 1 << 6)
    /// Switch: draw every quad, off-target and hidden ones included, in painter's order without a depth
    /// test.
    public static let disableCulling = DebugOptions(rawValue: 1 << 7)

    /// Every option with its `LK_DEBUG` name, in documentation order.
    public static let named: [(name: String, option: DebugOptions)] = [
        ("blended", .blended), ("offscreen", .offscreen), ("overdraw", .overdraw), ("batches", .batches),
        ("rasterize-cache", .rasterizeCache), ("flash-updates", .flashUpdates), ("disable-batching", .disableBatching),
        ("disable-culling", .disableCulling),
    ]

    /// The views (options that draw something extra), as opposed to the switches.
    public static let views: DebugOptions = [.blended, .offscreen, .overdraw, .batches, .rasterizeCache, .flashUpdates]

    /// The environment variable read by `fromEnvironment`.
    public static let environmentVariable = "LK_DEBUG"

    /// Parses a list such as `"blended,overdraw"` or `"flash-updates disableCulling"`. Empty text is no
    /// options.
    ///
    /// - Throws: `DebugOptions.ParseError.unknownNames` naming every unknown entry and the valid names.
    public init(parsing text: String) throws {
        var options = DebugOptions()
        var unknown: [String] = []
        let separators = CharacterSet(charactersIn: ", ;+|\t\n")
        for entry in text.components(separatedBy: separators) where !entry.isEmpty {
            if let option = Self.option(named: entry) { options.insert(option) } else { unknown.append(entry) }
        }
        guard unknown.isEmpty else { throw ParseError.unknownNames(unknown) }
        self = options
    }

    /// The option called `name`: its kebab-case name or the Swift member's, any case.
    public static func option(named name: String) -> DebugOptions? {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        return named.first { $0.name.filter { $0 != "-" } == key }?.option
    }

    /// What `init(parsing:)` rejects.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        /// Entries that name no option.
        case unknownNames([String])

        public var description: String {
            switch self {
            case let .unknownNames(names):
                let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
                return "\(DebugOptions.environmentVariable): unknown option\(names.count == 1 ? "" : "s") \(list); "
                    + "valid options are " + DebugOptions.named.map(\.name).joined(separator: ", ")
            }
        }
    }

    /// The options `LK_DEBUG` names. Unknown names are left out and reported (a warning through
    /// swift-log with the diagnostic `unknownDebugOption`, and to `report` when given); the valid ones
    /// still apply.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       report: ((ParseError) -> Void)? = nil) -> DebugOptions {
        guard let text = environment[environmentVariable], !text.isEmpty else { return [] }
        do {
            return try DebugOptions(parsing: text)
        } catch let error as ParseError {
            Logger(label: "LayerKit.Render").warning("\(error.description)", metadata: ["diagnostic": "unknownDebugOption"])
            report?(error)
            let separators = CharacterSet(charactersIn: ", ;+|\t\n")
            return text.components(separatedBy: separators).compactMap(option(named:)).reduce(into: DebugOptions()) { $0.insert($1) }
        } catch {
            return []
        }
    }
}

extension DebugOptions: CustomStringConvertible {
    /// The `LK_DEBUG` spelling: names joined by commas ("" for none).
    public var description: String {
        Self.named.filter { contains($0.option) }.map(\.name).joined(separator: ",")
    }
}

/// The debug views as draw-list edits, applied by `DrawListCompiler` after culling and batching, so a
/// view shows what the real frame drew. Every tint is an overlay quad drawn right after the quad it
/// tints, with the same geometry (shape, corners, border, clip) and no texture, at half strength
/// (`flashUpdates`: a quarter), so what is tinted still shows through. Nothing here touches the GPU.
package enum DebugVisualization {
    /// Straight RGB of the tints.
    package static let blendedTint = SIMD3<Float>(1, 0, 0)
    package static let opaqueTint = SIMD3<Float>(0, 1, 0)
    package static let offscreenTint = SIMD3<Float>(1, 1, 0)

    /// The offscreen view's tint for a surface made for `reason` (`offscreenTint` for the older reasons).
    package static func offscreenTint(for reason: OffscreenReason?) -> SIMD3<Float> {
        switch reason {
        case .shadow: SIMD3(0.6, 0.35, 0.1)
        case .filter: SIMD3(0.55, 0.1, 1)
        case .backgroundFilter: SIMD3(0, 0.8, 1)
        case .compositingFilter: SIMD3(1, 0.5, 0)
        case .transition: SIMD3(0.2, 1, 0.6)
        default: offscreenTint
        }
    }
    package static let flashTint = SIMD3<Float>(1, 0, 1)
    package static let rasterizeHitTint = SIMD3<Float>(0, 1, 0)
    package static let rasterizeMissTint = SIMD3<Float>(1, 0, 0)
    /// Batch `i` is tinted `batchPalette[i % 12]`.
    package static let batchPalette: [SIMD3<Float>] = [
        SIMD3(0.90, 0.10, 0.10), SIMD3(0.10, 0.60, 0.90), SIMD3(0.95, 0.75, 0.10), SIMD3(0.40, 0.80, 0.20),
        SIMD3(0.60, 0.20, 0.80), SIMD3(0.95, 0.45, 0.10), SIMD3(0.10, 0.80, 0.70), SIMD3(0.90, 0.30, 0.60),
        SIMD3(0.50, 0.50, 0.50), SIMD3(0.20, 0.30, 0.90), SIMD3(0.70, 0.90, 0.30), SIMD3(0.55, 0.35, 0.15),
    ]

    /// The heat-map overlay for a pixel shaded `count` times, premultiplied (what `layer_quad.frag`'s
    /// overdraw mode outputs at full coverage): nothing for 0 or 1; half-strength blue for 2, green for
    /// 3, pink (1, 0.5, 0.75) for 4, red for 5 or more.
    package static func heatMapTint(count: Int) -> SIMD4<Float> {
        let rgb: SIMD3<Float>
        switch count {
        case ..<2: return .zero
        case 2: rgb = SIMD3(0, 0, 1)
        case 3: rgb = SIMD3(0, 1, 0)
        case 4: rgb = SIMD3(1, 0.5, 0.75)
        default: rgb = SIMD3(1, 0, 0)
        }
        return SIMD4(rgb * 0.5, 0.5)
    }

    /// An untextured quad over `item`'s covered region, `tint` at `strength` (premultiplied).
    package static func overlay(on item: DrawItem, tint: SIMD3<Float>, strength: Float = 0.5) -> DrawItem {
        var instance = item.instance
        instance.flags.subtract([.textured, .clampUV, .countFragments, .overdrawHeatMap, .gradient])
        instance.color = SIMD4(tint * strength, strength)
        instance.depth = 0
        var overlay = DrawItem(instance: instance, texture: nil, blend: .sourceOver, layer: nil)
        overlay.stencilLevel = item.stencilLevel  // tints only what the item paints
        return overlay
    }

    /// `item` as the overdraw count pass draws it: every fragment it rasterizes adds 1/255, whatever its
    /// coverage, texture or blend.
    package static func fragmentCounter(_ item: DrawItem) -> DrawItem {
        var instance = item.instance
        instance.flags.subtract([.textured, .clampUV, .overdrawHeatMap, .gradient])
        instance.flags.insert(.countFragments)
        instance.depth = 0
        return DrawItem(instance: instance, texture: nil, blend: .additive, layer: nil)
    }

    /// A quad covering the whole `width`×`height` target that samples the count surface `surface` and
    /// draws the heat map (pixel space is the target's: x_clip = 2x/W − 1, y_clip = 2y/H − 1).
    package static func heatMapQuad(sampling surface: SurfaceID, width: Int, height: Int) -> DrawItem {
        let rect = SIMD4<Float>(0, 0, Float(width), Float(height))
        let toClip = (SIMD4<Float>(2 / Float(width), 0, 0, 0), SIMD4<Float>(0, 2 / Float(height), 0, 0),
                      SIMD4<Float>(0, 0, 1, 0), SIMD4<Float>(-1, -1, 0, 1))
        let instance = LayerInstance(localToClip: toClip, quad: rect, color: SIMD4(repeating: 1), shape: rect,
                                     flags: [.textured, .overdrawHeatMap])
        return DrawItem(instance: instance, texture: TextureBinding(surface: surface), blend: .sourceOver)
    }
}
