import LayerKit

extension CATransform3D {
    /// The transform as the map of a layer's plane: z neither read nor written (row 3 and column 3
    /// zeroed; row-vector convention, `p′ = p·M`).
    ///
    /// A layer's own points have z = 0, so it draws them the same through either map. The difference is
    /// for its sublayers: a sublayer's point placed in the layer's (sublayer) space with a z of its own
    /// is mapped on through this with that z dropped — flattened onto the layer's plane, as Core Animation
    /// flattens every layer but a `CATransformLayer` (`transformToSuperlayerPlane` on the model side).
    /// Dropping only the output z (`flattened`) would let a 3D-transformed layer's rows for z tilt its
    /// sublayers' depth into x, y and w.
    package var planeMap: CATransform3D {
        var result = flattened
        result.m31 = 0; result.m32 = 0; result.m33 = 0; result.m34 = 0
        return result
    }
}
