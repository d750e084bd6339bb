import Foundation

/// An image filter with named, keyed parameters, in the shape of Core Image's `CIFilter` as Core
/// Animation uses it in `filters`, `backgroundFilters` and `compositingFilter`.
///
/// Layers address a filter's parameters by key path through the filter's `name`:
/// `layer.setValue(8, forKeyPath: "filters.blur.inputRadius")`, and animate them the same way. Filters
/// set on a layer are copied, as Core Animation treats them as immutable once set: change a parameter
/// through the layer's key path (or set a new `filters` array).
///
/// The filter types LayerKit knows, with Core Image's names and defaults, are listed in
/// `CIFilter.knownFilters`; the renderer draws those in `CIFilter.drawnFilters` in `filters` and
/// `backgroundFilters`, and the blend modes in `CIFilter.drawnCompositingFilters` as `compositingFilter`,
/// and reports the others. `init(kernel:parameters:)` makes a filter of an app's own GLSL kernel.
public final class CIFilter: Hashable, CustomStringConvertible {
    /// The filter type: `"CIGaussianBlur"`, …
    public let filterName: String
    /// The name used in layer key paths (`"filters.<name>.<key>"`). Defaults to the type name.
    public var name: String
    private var parameters: [String: Any]
    /// The kernel of a filter made with `init(kernel:parameters:)` (type name `"CIColorKernel"`).
    public let kernel: CIColorKernel?

    /// The type name of filters that run a `CIColorKernel`.
    public static let colorKernelFilterName = "CIColorKernel"

    /// Core Image's filter types LayerKit knows, with each parameter's default. (Immutable; its values are
    /// numbers and colors, themselves immutable: safe to read from any thread.)
    nonisolated(unsafe) public static let knownFilters: [String: [String: Any]] = [
        // Blurs and morphology
        "CIGaussianBlur": ["inputRadius": CGFloat(10)],
        "CIBoxBlur": ["inputRadius": CGFloat(10)],
        "CIDiscBlur": ["inputRadius": CGFloat(8)],
        "CIMotionBlur": ["inputRadius": CGFloat(20), "inputAngle": CGFloat(0)],
        "CIZoomBlur": ["inputCenter": CIVector(x: 150, y: 150), "inputAmount": CGFloat(20)],
        "CIMorphologyMaximum": ["inputRadius": CGFloat(0)],
        "CIMorphologyMinimum": ["inputRadius": CGFloat(0)],
        // Colour
        "CIColorControls": ["inputSaturation": CGFloat(1), "inputBrightness": CGFloat(0), "inputContrast": CGFloat(1)],
        "CIColorMatrix": ["inputRVector": CIVector(x: 1, y: 0, z: 0, w: 0), "inputGVector": CIVector(x: 0, y: 1, z: 0, w: 0),
                          "inputBVector": CIVector(x: 0, y: 0, z: 1, w: 0), "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 1),
                          "inputBiasVector": CIVector(x: 0, y: 0, z: 0, w: 0)],
        "CIColorInvert": [:],
        "CIColorMonochrome": ["inputColor": CGColor(red: 0.6, green: 0.45, blue: 0.3, alpha: 1), "inputIntensity": CGFloat(1)],
        "CISepiaTone": ["inputIntensity": CGFloat(1)],
        "CIHueAdjust": ["inputAngle": CGFloat(0)],
        "CIExposureAdjust": ["inputEV": CGFloat(0)],
        "CIVibrance": ["inputAmount": CGFloat(0)],
        "CITemperatureAndTint": ["inputNeutral": CIVector(x: 6500, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)],
        // Stylize
        "CIBloom": ["inputRadius": CGFloat(10), "inputIntensity": CGFloat(0.5)],
        "CIPixellate": ["inputCenter": CIVector(x: 150, y: 150), "inputScale": CGFloat(8)],
        "CICrystallize": ["inputCenter": CIVector(x: 150, y: 150), "inputRadius": CGFloat(20)],
    ]

    /// The filter types the renderer draws in a layer's `filters` and `backgroundFilters`; setting any other known type stores and
    /// animates it but draws the layer without it, and says so (`LayerKitDiagnostic.filterNotDrawn`).
    public static let drawnFilters: Set<String> = [
        "CIGaussianBlur", "CIBoxBlur", "CIMotionBlur", "CIMorphologyMaximum", "CIMorphologyMinimum",
        "CIColorControls", "CIColorMatrix", "CIColorInvert", "CIColorMonochrome", "CISepiaTone", "CIHueAdjust", "CIExposureAdjust",
        "CIDiscBlur", "CIZoomBlur", "CIPixellate", "CICrystallize", "CIVibrance", "CIBloom", "CITemperatureAndTint",
    ]

    /// The compositing filters the renderer draws in a layer's `compositingFilter` (every Core Image blend
    /// and compositing filter); any other composites source-over, and setting it says so.
    public static let drawnCompositingFilters: Set<String> = [
        "CIMultiplyBlendMode", "CIScreenBlendMode", "CIDarkenBlendMode", "CILightenBlendMode", "CIExclusionBlendMode",
        "CIAdditionCompositing", "CILinearDodgeBlendMode", "CIMultiplyCompositing", "CIMaximumCompositing", "CIMinimumCompositing",
        "CISourceAtopCompositing", "CISourceInCompositing", "CISourceOutCompositing", "CISourceOverCompositing",
        "CIOverlayBlendMode", "CISoftLightBlendMode", "CIHardLightBlendMode", "CIColorDodgeBlendMode", "CIColorBurnBlendMode",
        "CIDifferenceBlendMode", "CISubtractBlendMode", "CIDivideBlendMode", "CILinearBurnBlendMode", "CIPinLightBlendMode",
        "CIHueBlendMode", "CISaturationBlendMode", "CIColorBlendMode", "CILuminosityBlendMode",
    ]

    /// Core Image's name for a `compositingFilter` value: a filter's `filterName`, or a string as Core
    /// Animation takes it (`"multiplyBlendMode"` → `"CIMultiplyBlendMode"`); nil for anything else.
    public static func compositingFilterName(of value: Any?) -> String? {
        switch value {
        case let filter as CIFilter: return filter.filterName
        case let name as String where !name.isEmpty:
            return name.hasPrefix("CI") ? name : "CI" + name.prefix(1).uppercased() + name.dropFirst()
        default: return nil
        }
    }

    /// A filter of a known type with its default parameters, or nil for a type LayerKit does not know.
    public init?(name: String) {
        guard let defaults = Self.knownFilters[name] else {
            LayerKitDiagnostics.emit(.unknownFilter(name: name))
            return nil
        }
        filterName = name
        self.name = name
        parameters = defaults
        kernel = nil
    }

    /// A filter that runs `kernel` over the layer's pixels with numeric `parameters` (the kernel's
    /// `inputs`, in sorted key order). Its `name` is the kernel's, for key paths
    /// (`"filters.<kernel name>.<key>"`); parameters other than numbers are refused with a diagnostic.
    public init(kernel: CIColorKernel, parameters params: [String: Any] = [:]) {
        filterName = Self.colorKernelFilterName
        name = kernel.name
        self.kernel = kernel
        var numbers: [String: Any] = [:]
        for (key, value) in params {
            guard let number = scalarValue(value), number.isFinite else {
                LayerKitDiagnostics.emit(.invalidFilterParameter(filter: kernel.name, key: key, reason: "a kernel's inputs are finite numbers"))
                continue
            }
            numbers[key] = number
        }
        parameters = numbers
    }

    /// A filter of a known type with `params` over its defaults.
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// The keys of the filter's parameters, sorted.
    public var inputKeys: [String] { parameters.keys.sorted() }

    /// Resets every parameter to its default.
    public func setDefaults() {
        parameters = Self.knownFilters[filterName] ?? [:]
    }

    public func value(forKey key: String) -> Any? {
        if key == "name" { return name }
        return parameters[key]
    }

    /// Sets a parameter. Numbers of any type become `CGFloat`; a non-finite number is refused with a
    /// diagnostic, as geometry is. A key the filter type does not have, or a value of another kind than
    /// the parameter's (a number for a vector, a string for a number), is refused with a diagnostic and
    /// the parameter keeps its value (Core Image raises for an unknown key). nil restores the default.
    public func setValue(_ value: Any?, forKey key: String) {
        if key == "name", let newName = value as? String { return name = newName }
        guard let current = parameters[key] else {
            return LayerKitDiagnostics.emit(.invalidFilterParameter(filter: filterName, key: key, reason: "\(filterName) has no parameter '\(key)'"))
        }
        // nil resets the parameter to its default, as Core Image's setDefaults does for all of them.
        guard let value else { return parameters[key] = Self.knownFilters[filterName]?[key] }
        guard Self.isSameKind(value, as: current) else {
            return LayerKitDiagnostics.emit(.invalidFilterParameter(
                filter: filterName, key: key, reason: "expected a value like \(type(of: current)), got \(type(of: value))"))
        }
        if let number = scalarValue(value) {
            guard number.isFinite else {
                return LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: "filter '\(name)'", keyPath: key))
            }
            parameters[key] = number
        } else {
            parameters[key] = value
        }
    }

    /// Whether `value` can stand for a parameter whose default is `current`: a number for a number, a
    /// vector for a vector, a colour for a colour.
    private static func isSameKind(_ value: Any, as current: Any) -> Bool {
        switch current {
        case is CIVector: value is CIVector
        case is CGColor: value is CGColor
        default: scalarValue(value) != nil
        }
    }

    /// A copy with the same type, name and parameters.
    public func copy() -> CIFilter {
        if let kernel {
            let copy = CIFilter(kernel: kernel, parameters: parameters)
            copy.name = name
            return copy
        }
        let copy = CIFilter(name: filterName)!
        copy.name = name
        copy.parameters = parameters
        return copy
    }

    public var description: String {
        let values = inputKeys.map { "\($0)=\(parameters[$0]!)" }.joined(separator: ", ")
        return "CIFilter(\(filterName) '\(name)': \(values))"
    }

    public static func == (lhs: CIFilter, rhs: CIFilter) -> Bool {
        lhs.filterName == rhs.filterName && lhs.name == rhs.name && lhs.kernel == rhs.kernel
            && lhs.inputKeys == rhs.inputKeys
            && lhs.inputKeys.allSatisfy { AnimatableValue(lhs.parameters[$0]) == AnimatableValue(rhs.parameters[$0]) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(filterName)
        hasher.combine(name)
    }
}

/// A filter as animations and the render thread hold it: immutable, `Sendable`, parameters as values.
package struct FilterValue: Sendable, Equatable {
    package let filterName: String
    package let name: String
    package let parameters: [String: AnimatableValue]
    /// The kernel of a `CIColorKernel` filter.
    package let kernel: CIColorKernel?

    package init(_ filter: CIFilter) {
        filterName = filter.filterName
        name = filter.name
        kernel = filter.kernel
        var values: [String: AnimatableValue] = [:]
        for key in filter.inputKeys { values[key] = AnimatableValue(filter.value(forKey: key)) }
        parameters = values
    }

    package init(filterName: String, name: String, parameters: [String: AnimatableValue], kernel: CIColorKernel? = nil) {
        self.filterName = filterName
        self.name = name
        self.parameters = parameters
        self.kernel = kernel
    }

    /// Back to a filter object (for the model and presentation copies).
    package func makeFilter() -> CIFilter? {
        if let kernel {
            let filter = CIFilter(kernel: kernel, parameters: parameters.compactMapValues { $0.modelValue(like: nil) })
            filter.name = name
            return filter
        }
        guard let filter = CIFilter(name: filterName) else { return nil }
        filter.name = name
        for (key, value) in parameters { filter.setValue(value.modelValue(like: filter.value(forKey: key)), forKey: key) }
        return filter
    }
}
