import Foundation

/// The value beneath a compiled animation, as a store holds it.
package enum AnimationChannelBase<Value: AnimationChannelValue> {
    /// The property holds a value of the channel's type.
    case value(Value)
    /// The property is unset (a nil color): only a whole-property animation writes it, from its neutral value.
    case unset
    /// The store holds the property as some other kind (or not at all): evaluate the record in general
    /// instead, which knows what to do with that.
    case unsupported

    /// The base of a store that answers in `AnimatableValue`s.
    package init(_ value: AnimatableValue?) {
        guard let value else {
            self = .unset
            return
        }
        self = Value(value).map(Self.value) ?? .unsupported
    }

    /// The part `part` takes of a whole value; unsupported when it takes none.
    package func part<Part>(_ part: (Value) -> Part?) -> AnimationChannelBase<Part> {
        switch self {
        case .value(let whole): part(whole).map(AnimationChannelBase<Part>.value) ?? .unsupported
        case .unset: .unset
        case .unsupported: .unsupported
        }
    }

    package var value: Value? {
        if case .value(let value) = self { value } else { nil }
    }
}

/// Where a compiled property animation reads the value beneath it and writes its result: a whole
/// built-in property, or one part of it (`position.y`, `bounds.size`, `transform.rotation.z`).
///
/// Each channel reads and writes through the store's typed accessors for its property's kind, so a render
/// node answers with its own stored field, no `AnimatableValue` in between. A part is read from the whole
/// value and written back into it by the same code key-value coding uses (`animatedPart`).
package protocol AnimationChannel: Sendable {
    associatedtype Value: AnimationChannelValue
    /// The built-in property the channel is (a part of).
    var property: LayerPropertyKey { get }
    /// Whether the channel is the whole property (which alone may be written when it is unset).
    var isWholeProperty: Bool { get }
    func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<Value>
    /// Writes `value` into the property (a part: into the property's current whole value). Writes
    /// nothing when the part cannot be replaced (a transform that does not decompose).
    func write<Store: AnimatedPropertyStore>(_ value: Value, to store: inout Store)
}

/// A number: a scalar property (`opacity`), or a scalar part of a point, rect or transform property.
package struct ScalarChannel: AnimationChannel {
    package enum Place: Sendable, Equatable {
        case property
        case pointPart(AnimationKeyPath.ScalarPart)
        case rectPart(AnimationKeyPath.ScalarPart)
        case transformPart(AnimationKeyPath.ScalarPart)
    }

    package let property: LayerPropertyKey
    package let place: Place
    package var isWholeProperty: Bool { place == .property }

    // Always inlined (as `write`): called apart, the base took a copy of the whole store (a layer's placement,
    // 185 bytes) per animation per frame, and each a call and a switch the caller's constants decide.
    @inline(__always)
    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<Double> {
        switch place {
        case .property: store.animatedScalar(of: property)
        case .pointPart(let part): store.animatedPointPart(part, of: property)
        case .rectPart(let part): store.animatedRect(of: property).part { $0.animatedPart(part) }
        case .transformPart(let part): store.animatedTransformPart(part, of: property)
        }
    }

    @inline(__always)
    package func write<Store: AnimatedPropertyStore>(_ value: Double, to store: inout Store) {
        switch place {
        case .property:
            store.setAnimatedScalar(value, of: property)
        case .pointPart(let part):
            store.setAnimatedPointPart(value, part, of: property)
        case .rectPart(let part):
            guard let whole = store.animatedRect(of: property).value?.replacingAnimatedPart(part, with: value) else { return }
            store.setAnimatedRect(whole, of: property)
        case .transformPart(let part):
            store.setAnimatedTransformPart(value, part, of: property)
        }
    }
}

/// A point: a point property (`position`), or a rect's origin (`bounds.origin`).
package struct PointChannel: AnimationChannel {
    package let property: LayerPropertyKey
    /// Whether the point is the origin of a rect property.
    package let isRectOrigin: Bool
    package var isWholeProperty: Bool { !isRectOrigin }

    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<CGPoint> {
        isRectOrigin ? store.animatedRect(of: property).part(\.origin) : store.animatedPoint(of: property)
    }

    package func write<Store: AnimatedPropertyStore>(_ value: CGPoint, to store: inout Store) {
        guard isRectOrigin else { return store.setAnimatedPoint(value, of: property) }
        guard let rect = store.animatedRect(of: property).value else { return }
        store.setAnimatedRect(CGRect(origin: value, size: rect.size), of: property)
    }
}

/// A size: a rect's size (`bounds.size`) or a transform's x and y translation (`transform.translation`).
package struct SizeChannel: AnimationChannel {
    package enum Place: Sendable, Equatable {
        case rectSize, transformTranslation
    }

    package let property: LayerPropertyKey
    package let place: Place
    package var isWholeProperty: Bool { false }

    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<CGSize> {
        switch place {
        case .rectSize: store.animatedRect(of: property).part(\.size)
        case .transformTranslation: store.animatedTransform(of: property).part { CGSize(width: $0.m41, height: $0.m42) }
        }
    }

    package func write<Store: AnimatedPropertyStore>(_ value: CGSize, to store: inout Store) {
        switch place {
        case .rectSize:
            guard let rect = store.animatedRect(of: property).value else { return }
            store.setAnimatedRect(CGRect(origin: rect.origin, size: value), of: property)
        case .transformTranslation:
            guard var transform = store.animatedTransform(of: property).value else { return }
            transform.m41 = value.width
            transform.m42 = value.height
            store.setAnimatedTransform(transform, of: property)
        }
    }
}

/// A whole rect property (`bounds`, `contentsRect`).
package struct RectChannel: AnimationChannel {
    package let property: LayerPropertyKey
    package var isWholeProperty: Bool { true }
    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<CGRect> { store.animatedRect(of: property) }
    package func write<Store: AnimatedPropertyStore>(_ value: CGRect, to store: inout Store) { store.setAnimatedRect(value, of: property) }
}

/// A whole color property (`backgroundColor`), as straight sRGB RGBA.
package struct ColorChannel: AnimationChannel {
    package let property: LayerPropertyKey
    package var isWholeProperty: Bool { true }
    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<SIMD4<Double>> {
        store.animatedColor(of: property)
    }
    package func write<Store: AnimatedPropertyStore>(_ value: SIMD4<Double>, to store: inout Store) {
        store.setAnimatedColor(value, of: property)
    }
}

/// A whole transform property (`transform`, `sublayerTransform`).
package struct TransformChannel: AnimationChannel {
    package let property: LayerPropertyKey
    package var isWholeProperty: Bool { true }
    package func base<Store: AnimatedPropertyStore>(in store: Store) -> AnimationChannelBase<CATransform3D> {
        store.animatedTransform(of: property)
    }
    package func write<Store: AnimatedPropertyStore>(_ value: CATransform3D, to store: inout Store) {
        store.setAnimatedTransform(value, of: property)
    }
}
