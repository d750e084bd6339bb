import Foundation

// Appearance: background, corners, border, opacity, visibility and clipping.

extension CALayer {
    /// The fill behind the contents, inside the rounded bounds. Default nil (nothing). Animatable.
    public var backgroundColor: CGColor? {
        get { storedBackgroundColor }
        set {
            change(.backgroundColor) { storedBackgroundColor = newValue }
        }
    }

    /// The radius of the rounded corners of the background and border (and of the clip when
    /// `masksToBounds`). Animatable.
    public var cornerRadius: CGFloat {
        get { value(of: .cornerRadius) }
        set { setValue(newValue, of: .cornerRadius) }
    }

    /// The curve used for rounded corners.
    public var cornerCurve: CALayerCornerCurve {
        get { value(of: .cornerCurve) }
        set { setValue(newValue, of: .cornerCurve) }
    }

    /// Which corners `cornerRadius` rounds. Default: all four. Animatable.
    public var maskedCorners: CACornerMask {
        get { value(of: .maskedCorners) }
        set { setValue(newValue, of: .maskedCorners) }
    }

    /// The width of the border, drawn inside the bounds above the contents and sublayers. Animatable.
    public var borderWidth: CGFloat {
        get { value(of: .borderWidth) }
        set { setValue(newValue, of: .borderWidth) }
    }

    /// The border's color. Default opaque black. Animatable.
    public var borderColor: CGColor? {
        get { value(of: .borderColor) }
        set { setValue(newValue, of: .borderColor) }
    }

    /// The layer's opacity, 0 to 1. Default 1. Animatable.
    public var opacity: Float {
        get { value(of: .opacity) }
        set { setValue(newValue, of: .opacity) }
    }

    /// Whether the layer (and its sublayers) is hidden. Animatable.
    public var isHidden: Bool {
        get { value(of: .isHidden) }
        set { setValue(newValue, of: .isHidden) }
    }

    /// A hint that the layer's contents are fully opaque (lets the renderer cull what is behind).
    public var isOpaque: Bool {
        get { value(of: .isOpaque) }
        set { setValue(newValue, of: .isOpaque) }
    }

    /// Whether the back of the layer is drawn when it faces away from the viewer. Animatable.
    public var isDoubleSided: Bool {
        get { value(of: .isDoubleSided) }
        set { setValue(newValue, of: .isDoubleSided) }
    }

    /// Whether opacity applies to the layer and its sublayers as one group (default true, as on iOS).
    public var allowsGroupOpacity: Bool {
        get { value(of: .allowsGroupOpacity) }
        set { setValue(newValue, of: .allowsGroupOpacity) }
    }

    /// Whether the layer's edges are antialiased when it is not pixel-aligned (rotated, scaled).
    public var allowsEdgeAntialiasing: Bool {
        get { value(of: .allowsEdgeAntialiasing) }
        set { setValue(newValue, of: .allowsEdgeAntialiasing) }
    }

    /// Which edges are antialiased when `allowsEdgeAntialiasing` is on. Default: all four.
    public var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { value(of: .edgeAntialiasingMask) }
        set { setValue(newValue, of: .edgeAntialiasingMask) }
    }

    /// Whether sublayers and contents are clipped to the (rounded) bounds. Animatable.
    public var masksToBounds: Bool {
        get { value(of: .masksToBounds) }
        set { setValue(newValue, of: .masksToBounds) }
    }
}
