import Foundation
import LayerKit

/// A colour filter as Core Image's `CIColorMatrix` states it: each output channel is a dot product of
/// the straight (unpremultiplied) input RGBA with a row, plus a bias, clamped to 0…1.
///
/// Every colour filter LayerKit draws is one of these (`init?(filter:)`), so a chain of them composes into
/// one matrix (`then(_:)`) and costs one multiply per pixel, applied where the filtered surface is read
/// (`Shaders/include/filter_kernel.glsl`). Values are the gamma-encoded sRGB values LayerKit composites
/// (as Core Animation composites), not linear light: a brightness or exposure change is applied to
/// encoded values.
package struct ColorMatrix: Equatable, Sendable {
    package var red: SIMD4<Float>
    package var green: SIMD4<Float>
    package var blue: SIMD4<Float>
    package var alpha: SIMD4<Float>
    package var bias: SIMD4<Float>

    package init(red: SIMD4<Float>, green: SIMD4<Float>, blue: SIMD4<Float>, alpha: SIMD4<Float>, bias: SIMD4<Float> = .zero) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.bias = bias
    }

    package static let identity = ColorMatrix(red: SIMD4(1, 0, 0, 0), green: SIMD4(0, 1, 0, 0), blue: SIMD4(0, 0, 1, 0),
                                              alpha: SIMD4(0, 0, 0, 1))

    /// A 3×3 map of RGB (rows), alpha kept, plus an RGB bias.
    init(rgb rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), bias: SIMD3<Float> = .zero) {
        self.init(red: SIMD4(rows.0, 0), green: SIMD4(rows.1, 0), blue: SIMD4(rows.2, 0), alpha: SIMD4(0, 0, 0, 1),
                  bias: SIMD4(bias, 0))
    }

    /// The colour of straight `rgba` after the matrix (unclamped).
    package func apply(_ rgba: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4((red * rgba).sum(), (green * rgba).sum(), (blue * rgba).sum(), (alpha * rgba).sum()) + bias
    }

    /// This matrix followed by `next` (`next` applied to this one's output). Exact while no channel
    /// leaves 0…1 in between (Core Image clamps only at the end of a chain as well, in its float space).
    package func then(_ next: ColorMatrix) -> ColorMatrix {
        let rows = [red, green, blue, alpha]
        func column(_ index: Int) -> SIMD4<Float> { SIMD4(rows[0][index], rows[1][index], rows[2][index], rows[3][index]) }
        func row(_ r: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4((r * column(0)).sum(), (r * column(1)).sum(), (r * column(2)).sum(), (r * column(3)).sum())
        }
        let composedBias = SIMD4((next.red * bias).sum(), (next.green * bias).sum(), (next.blue * bias).sum(), (next.alpha * bias).sum())
        return ColorMatrix(red: row(next.red), green: row(next.green), blue: row(next.blue), alpha: row(next.alpha),
                           bias: composedBias + next.bias)
    }

    /// Whether alpha comes through unchanged: then applying the matrix to each draw before blending
    /// equals applying it to their non-overlapping composite.
    package var keepsAlpha: Bool { alpha == SIMD4(0, 0, 0, 1) && bias.w == 0 }

    /// Rec. 709 luma weights, the ones Core Image's colour filters weigh channels by.
    static let luma = SIMD3<Float>(0.2125, 0.7154, 0.0721)

    /// Paints every pixel `color` (straight RGBA) with its alpha times the input's: a shadow's tint.
    package static func tint(_ color: SIMD4<Float>) -> ColorMatrix {
        ColorMatrix(red: .zero, green: .zero, blue: .zero, alpha: SIMD4(0, 0, 0, color.w), bias: SIMD4(color.x, color.y, color.z, 0))
    }

    /// CIColorControls, as Core Image computes it: saturation (a mix with luma), then contrast about 0.5,
    /// then brightness added: rgb' = c · (mix(L, rgb, s) − 0.5) + 0.5 + b.
    static func colorControls(saturation s: Float, brightness b: Float, contrast c: Float) -> ColorMatrix {
        func row(_ channel: Int) -> SIMD3<Float> {
            var unit = SIMD3<Float>.zero
            unit[channel] = 1
            return (luma * (1 - s) + unit * s) * c
        }
        return ColorMatrix(rgb: (row(0), row(1), row(2)), bias: SIMD3(repeating: 0.5 - 0.5 * c + b))
    }

    /// CIColorMonochrome: the luma times `color`, mixed with the input by `intensity` (Core Image's kernel
    /// is not published; this is the usual stand-in).
    static func monochrome(color: SIMD3<Float>, intensity: Float) -> ColorMatrix {
        func row(_ channel: Int) -> SIMD3<Float> {
            var unit = SIMD3<Float>.zero
            unit[channel] = 1
            return luma * color[channel] * intensity + unit * (1 - intensity)
        }
        return ColorMatrix(rgb: (row(0), row(1), row(2)))
    }

    /// CISepiaTone: the W3C Filter Effects sepia matrix mixed with the input by `intensity` (Core Image's
    /// own kernel is not published; this is the usual stand-in).
    static func sepia(intensity t: Float) -> ColorMatrix {
        let sepia = (SIMD3<Float>(0.393, 0.769, 0.189), SIMD3<Float>(0.349, 0.686, 0.168), SIMD3<Float>(0.272, 0.534, 0.131))
        return ColorMatrix(rgb: (sepia.0 * t + SIMD3(1, 0, 0) * (1 - t), sepia.1 * t + SIMD3(0, 1, 0) * (1 - t),
                                 sepia.2 * t + SIMD3(0, 0, 1) * (1 - t)))
    }

    /// CIHueAdjust: a rotation by `angle` radians about the grey axis that keeps luma (Core Image's
    /// matrix: SVG's hueRotate form with Core Image's luma weights).
    static func hueRotation(_ angle: Float) -> ColorMatrix {
        let c = Float(cos(Double(angle))), s = Float(sin(Double(angle)))
        let (lr, lg, lb) = (luma.x, luma.y, luma.z)
        return ColorMatrix(rgb: (
            SIMD3(lr + (1 - lr) * c - lr * s, lg - lg * c - lg * s, lb - lb * c + (1 - lb) * s),
            SIMD3(lr - lr * c + 0.1404 * s, lg + (1 - lg) * c + 0.1404 * s, lb - lb * c - 0.2846 * s),
            SIMD3(lr - lr * c - (1 - lr) * s, lg - lg * c + lg * s, lb + (1 - lb) * c + lb * s)))
    }

    /// CIExposureAdjust: RGB times 2^ev.
    static func exposure(_ ev: Float) -> ColorMatrix {
        let gain = Float(pow(2.0, Double(ev)))
        return ColorMatrix(rgb: (SIMD3(gain, 0, 0), SIMD3(0, gain, 0), SIMD3(0, 0, gain)))
    }

    /// CIColorInvert: 1 − RGB.
    static let invert = ColorMatrix(rgb: (SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)), bias: SIMD3(repeating: 1))
}
