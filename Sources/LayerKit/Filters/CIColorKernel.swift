import Foundation

/// A colour kernel written at run time in GLSL: a per-pixel function the renderer runs over a layer's
/// flattened pixels, as Core Image's `CIColorKernel` runs a kernel routine.
///
/// The source defines
///
///     vec4 kernel(vec4 color, vec2 position, vec4 inputs)
///
/// where `color` is the pixel's straight (unpremultiplied) RGBA, `position` the pixel's centre in the
/// filtered surface's pixels (origin top-left), and `inputs` the filter's numeric parameters in the order
/// of their sorted keys (up to four; the rest are 0). It returns straight RGBA, clamped to 0…1. Helper
/// functions and constants may precede it; GLSL 4.50, no `#version` line.
///
/// Use it through `CIFilter(kernel:parameters:)` in a layer's `filters` or `backgroundFilters`. The
/// renderer compiles the source with glslang the first time a frame draws it and keeps the result; a
/// source that does not compile is reported once (`LayerKitDiagnostic.kernelCompileFailed`, naming the
/// line of the source and glslang's message) and the layer draws without that filter. Immutable: safe to
/// share between threads; kernels are told apart by identity.
public final class CIColorKernel: Hashable, CustomStringConvertible, Sendable {
    /// A name for diagnostics and debug labels.
    public let name: String
    /// The GLSL source.
    public let source: String

    public init(name: String = "kernel", source: String) {
        self.name = name
        self.source = source
    }

    public static func == (lhs: CIColorKernel, rhs: CIColorKernel) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "CIColorKernel '\(name)'" }
}
