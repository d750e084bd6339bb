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
/// `CIFilter.knownFilters`. Drawing filters comes with the render graph's offscreen filter passes; until
/// then they are stored, committed and animated like every other layer property, and not drawn.
public final class CIFilter: Hashable, CustomStringConvertible {
    /// The filter type: `"CIGaussianBlur"`, …
    public let filterName: String
    /// The name used in layer key paths (`"filters.<name>.<key>"`). Defaults to the type name.
    public var name: String
    private var parameters: [String: Any]

    /// Core Image's filter types LayerKit knows, with each parameter's default. (Immutable; its values are
    /// numbers and colors, themselves immutable: safe to read from any thread.)
    nonisolated(unsafe) public static let knownFilters: [String: [String: Any]] = [
        "CIGaussianBlur": ["inputRadius": CGFloat(10)],
        "CIBoxBlur": ["inputRadius": CGFloat(10)],
        "CIColorControls": ["inputSaturation": CGFloat(1), "inputBrightness": CGFloat(0), "inputContrast": CGFloat(1)],
        "CIColorInvert": [:],
        "CIColorMonochrome": ["inputColor": CGColor(red: 0.6, green: 0.45, blue: 0.3, alpha: 1), "inputIntensity": CGFloat(1)],
        "CISepiaTone": ["inputIntensity": CGFloat(1)],
        "CIHueAdjust": ["inputAngle": CGFloat(0)],
        "CIExposureAdjust": ["inputEV": CGFloat(0)],
    ]

    /// A filter of a known type with its default parameters, or nil for a type LayerKit does not know.
    public init?(name: String) {
        guard let defaults = Self.knownFilters[name] else { return nil }
        filterName = name
        self.name = name
        parameters = defaults
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
    /// diagnostic, as geometry is.
    public func setValue(_ value: Any?, forKey key: String) {
        if key == "name", let newName = value as? String { return name = newName }
        if let value, let number = scalarValue(value) {
            guard number.isFinite else {
                return LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: "filter '\(name)'", keyPath: key))
            }
            parameters[key] = number
        } else {
            parameters[key] = value
        }
    }

    /// A copy with the same type, name and parameters.
    public func copy() -> CIFilter {
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
        lhs.filterName == rhs.filterName && lhs.name == rhs.name
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

    package init(_ filter: CIFilter) {
        filterName = filter.filterName
        name = filter.name
        var values: [String: AnimatableValue] = [:]
        for key in filter.inputKeys { values[key] = AnimatableValue(filter.value(forKey: key)) }
        parameters = values
    }

    package init(filterName: String, name: String, parameters: [String: AnimatableValue]) {
        self.filterName = filterName
        self.name = name
        self.parameters = parameters
    }

    /// Back to a filter object (for the model and presentation copies).
    package func makeFilter() -> CIFilter? {
        guard let filter = CIFilter(name: filterName) else { return nil }
        filter.name = name
        for (key, value) in parameters { filter.setValue(value.modelValue(like: nil), forKey: key) }
        return filter
    }
}
