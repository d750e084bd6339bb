/// The specialised drawing the render server gives a layer of one of LayerKit's own classes.
///
/// The render tree knows nothing of model classes. A declaring class (`DeclaredLayerProperties`) names
/// its kind, and every commit that carries its declared properties carries the kind with them under
/// `propertyKey`, so the render side reads what a layer is instead of guessing it from property names
/// (an app's own layer with a `path` or `colors` property is no shape or gradient).
package enum LayerRenderKind: String, Sendable {
    /// `CAShapeLayer`: its path is rasterized by the render server.
    case shape
    /// `CAGradientLayer`: its gradient is painted by the layer shader.
    case gradient
    /// `CATransformLayer`: draws nothing; its sublayers join the superlayer's 3D rendering context.
    case transform
    /// `CAReplicatorLayer`: its sublayers are drawn once per instance.
    case replicator
    /// `CAEmitterLayer`: its particles are worked out and drawn by the render server.
    case emitter

    /// The committed key under which the kind travels (as its raw value).
    package static let propertyKey = "renderKind"
}
