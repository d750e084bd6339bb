import Foundation

/// A layer that draws its sublayers `instanceCount` times, each copy transformed, delayed and tinted
/// from the one before: Core Animation's `CAReplicatorLayer` (spinners, equalizers, reflections).
///
/// Instance 0 is the sublayers as they are; instance k is drawn with `instanceTransform` applied k times,
/// about the centre of the replicator's bounds (as Core Animation applies it), at its superlayer's time
/// minus k × `instanceDelay` (so animations ripple), and with its colours multiplied by `instanceColor`
/// plus k times the four offsets (each channel clamped to 0…1). A replicator inside a replicator
/// multiplies. The model holds no copies: only the original sublayers hit-test, as in Core Animation.
///
/// With `preservesDepth`, the instances keep their depth: like a `CATransformLayer`, the replicator joins
/// its sublayers (all instances) to a 3D rendering context, sorted by depth with the rest of it, and
/// draws no content of its own; otherwise they are flattened into its plane in instance order.
open class CAReplicatorLayer: CALayer {
    public override init() {
        super.init()
        didChangeCustomProperty(LayerRenderKind.propertyKey)
    }

    public required init(layer: Any) {
        super.init(layer: layer)
    }

    /// How many times the sublayers are drawn (instance 0 included). Default 1. Animatable.
    public var instanceCount: Int {
        get { (value(forKey: "instanceCount") as? Int) ?? 1 }
        set { setValue(newValue, forKey: "instanceCount") }
    }

    /// The time shift between consecutive instances. Default 0. Animatable.
    public var instanceDelay: CFTimeInterval {
        get { (value(forKey: "instanceDelay") as? CFTimeInterval) ?? 0 }
        set { setValue(newValue, forKey: "instanceDelay") }
    }

    /// The transform from one instance to the next, about the replicator's centre. Default identity.
    /// Animatable.
    public var instanceTransform: CATransform3D {
        get { (value(forKey: "instanceTransform") as? CATransform3D) ?? CATransform3DIdentity }
        set { setValue(newValue, forKey: "instanceTransform") }
    }

    /// Whether instances keep their depth in a 3D rendering context (sorted by depth) instead of being
    /// flattened into the replicator's plane in instance order. Default false.
    public var preservesDepth: Bool {
        get { (value(forKey: "preservesDepth") as? Bool) ?? false }
        set { setValue(newValue, forKey: "preservesDepth") }
    }

    /// The colour instance 0 is multiplied by. Default opaque white (no change). Animatable.
    public var instanceColor: CGColor? {
        get { value(forKey: "instanceColor") as! CGColor? }
        set { setValue(newValue, forKey: "instanceColor") }
    }

    /// Added to the red component of the multiplying colour for each instance after the first. Animatable.
    public var instanceRedOffset: Float {
        get { offset("instanceRedOffset") }
        set { setValue(newValue, forKey: "instanceRedOffset") }
    }

    /// Added to the green component for each instance after the first. Animatable.
    public var instanceGreenOffset: Float {
        get { offset("instanceGreenOffset") }
        set { setValue(newValue, forKey: "instanceGreenOffset") }
    }

    /// Added to the blue component for each instance after the first. Animatable.
    public var instanceBlueOffset: Float {
        get { offset("instanceBlueOffset") }
        set { setValue(newValue, forKey: "instanceBlueOffset") }
    }

    /// Added to the alpha component for each instance after the first. Animatable.
    public var instanceAlphaOffset: Float {
        get { offset("instanceAlphaOffset") }
        set { setValue(newValue, forKey: "instanceAlphaOffset") }
    }

    private func offset(_ key: String) -> Float {
        Float(scalarValue(value(forKey: key) as Any) ?? 0)
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "instanceCount": 1
        case "instanceDelay": CFTimeInterval(0)
        case "instanceTransform": CATransform3DIdentity
        case "preservesDepth": false
        case "instanceColor": CGColor.white
        case "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset": Float(0)
        default: super.defaultValue(forKey: key)
        }
    }
}

extension CAReplicatorLayer: DeclaredLayerProperties {
    package static let declaredKeys = ["instanceCount", "instanceDelay", "instanceTransform", "preservesDepth", "instanceColor",
                                       "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
    package static let implicitlyAnimatedKeys: Set<String> = ["instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
                                                              "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
    package static let renderKind: LayerRenderKind? = .replicator
}
