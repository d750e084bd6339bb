import Foundation

// Contents: the image a layer shows and how it is placed, cropped, stretched and sampled.

extension CALayer {
    /// The layer's image, normally a `CGImage`. Changes cross-fade when animated. Animatable.
    public var contents: Any? {
        get { storedContents }
        set {
            change(.contents) { storedContents = newValue.map { $0 as AnyObject } }
        }
    }

    /// How the contents are placed in the bounds. Default `.resize`.
    public var contentsGravity: CALayerContentsGravity {
        get { value(of: .contentsGravity) }
        set { setValue(newValue, of: .contentsGravity) }
    }

    /// The part of the contents to show, in unit coordinates. Default (0, 0, 1, 1). Animatable.
    public var contentsRect: CGRect {
        get { value(of: .contentsRect) }
        set { setValue(newValue, of: .contentsRect) }
    }

    /// The stretchable middle of the contents for nine-part scaling, in unit coordinates. Default
    /// (0, 0, 1, 1): the whole image stretches. Animatable.
    public var contentsCenter: CGRect {
        get { value(of: .contentsCenter) }
        set { setValue(newValue, of: .contentsCenter) }
    }

    /// The pixel format of a backing store the layer draws itself.
    public var contentsFormat: CALayerContentsFormat {
        get { value(of: .contentsFormat) }
        set { setValue(newValue, of: .contentsFormat) }
    }

    /// The filter used when the contents are drawn smaller than their size. Default `.linear`.
    public var minificationFilter: CALayerContentsFilter {
        get { value(of: .minificationFilter) }
        set { setValue(newValue, of: .minificationFilter) }
    }

    /// The mipmap level bias for `.trilinear` minification. Animatable.
    public var minificationFilterBias: Float {
        get { value(of: .minificationFilterBias) }
        set { setValue(newValue, of: .minificationFilterBias) }
    }

    /// The filter used when the contents are drawn larger than their size. Default `.linear`.
    public var magnificationFilter: CALayerContentsFilter {
        get { value(of: .magnificationFilter) }
        set { setValue(newValue, of: .magnificationFilter) }
    }

    /// Whether changing the bounds marks the contents as needing display.
    public var needsDisplayOnBoundsChange: Bool {
        get { value(of: .needsDisplayOnBoundsChange) }
        set { setValue(newValue, of: .needsDisplayOnBoundsChange) }
    }

    /// Whether drawing happens off the main thread.
    public var drawsAsynchronously: Bool {
        get { value(of: .drawsAsynchronously) }
        set { setValue(newValue, of: .drawsAsynchronously) }
    }
}
