import LayerKit

// Render nodes as animation targets: the evaluator reads and writes their properties by key, with the
// same value types the model uses (so a `Float` opacity animates the same here as in `presentation()`).

extension RenderNode: AnimatedPropertyStore {
    package func animatedBaseValue(for target: PropertyAnimationTarget) -> Any? {
        guard let property = target.property else { return nil }
        switch property {
        case .bounds: return bounds
        case .position: return position
        case .zPosition: return zPosition
        case .anchorPoint: return anchorPoint
        case .anchorPointZ: return anchorPointZ
        case .transform: return transform
        case .sublayerTransform: return sublayerTransform
        case .contentsScale: return contentsScale
        case .backgroundColor: return backgroundColor
        case .cornerRadius: return cornerRadius
        case .borderWidth: return borderWidth
        case .borderColor: return borderColor
        case .opacity: return Float(opacity)
        case .isHidden: return isHidden
        case .isDoubleSided: return isDoubleSided
        case .masksToBounds: return masksToBounds
        case .contents: return contents
        case .contentsRect: return contentsRect
        case .contentsCenter: return contentsCenter
        case .maskedCorners: return CACornerMask(rawValue: maskedCorners)
        default: return nil
        }
    }

    package mutating func setAnimatedValue(_ value: Any, for target: PropertyAnimationTarget) {
        guard let property = target.property else { return }
        switch (property, value) {
        case (.bounds, let v as CGRect): bounds = v
        case (.position, let v as CGPoint): position = v
        case (.zPosition, let v as CGFloat): zPosition = v
        case (.anchorPoint, let v as CGPoint): anchorPoint = v
        case (.anchorPointZ, let v as CGFloat): anchorPointZ = v
        case (.transform, let v as CATransform3D): transform = v
        case (.sublayerTransform, let v as CATransform3D): sublayerTransform = v
        case (.contentsScale, let v as CGFloat): contentsScale = v
        case (.backgroundColor, let v as CGColor): backgroundColor = v
        case (.cornerRadius, let v as CGFloat): cornerRadius = v
        case (.borderWidth, let v as CGFloat): borderWidth = v
        case (.borderColor, let v as CGColor): borderColor = v
        case (.opacity, let v as Float): opacity = CGFloat(v)
        case (.isHidden, let v as Bool): isHidden = v
        case (.isDoubleSided, let v as Bool): isDoubleSided = v
        case (.masksToBounds, let v as Bool): masksToBounds = v
        case (.contents, let v as CGImage): contents = v
        case (.contentsRect, let v as CGRect): contentsRect = v
        case (.contentsCenter, let v as CGRect): contentsCenter = v
        case (.maskedCorners, let v as CACornerMask): maskedCorners = v.rawValue
        default: break
        }
    }

    /// The node's own media timing (how its local time follows its parent's).
    package var timing: MediaTimingParameters {
        MediaTimingParameters(beginTime: beginTime, timeOffset: timeOffset, speed: speed, repeatCount: 0,
                              repeatDuration: 0, autoreverses: false, duration: 0, fillMode: .removed)
    }
}
