import LayerKit

// Render nodes as animation targets: the evaluator reads and writes their properties by key as typed
// animatable values (no dynamic casts on the render thread).

extension RenderNode: AnimatedPropertyStore {
    package func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        guard let property = target.property else { return customProperties[target.keyPath.key] }
        switch property {
        case .position, .zPosition, .anchorPoint, .anchorPointZ, .transform, .opacity, .isHidden:
            return placement.animatedBaseValue(for: target)
        case .bounds: return .rect(bounds)
        case .sublayerTransform: return .transform(sublayerTransform)
        case .contentsScale: return .scalar(Double(contentsScale))
        case .backgroundColor: return backgroundColor.flatMap { AnimatableValue($0) }
        case .cornerRadius: return .scalar(Double(cornerRadius))
        case .borderWidth: return .scalar(Double(borderWidth))
        case .borderColor: return borderColor.flatMap { AnimatableValue($0) }
        case .isDoubleSided: return .discrete(DiscreteValue(isDoubleSided))
        case .masksToBounds: return .discrete(DiscreteValue(masksToBounds))
        case .contents: return contents.map { .discrete(DiscreteValue($0)) }
        case .contentsRect: return .rect(contentsRect)
        case .contentsCenter: return .rect(contentsCenter)
        case .rasterizationScale: return .scalar(Double(rasterizationScale))
        case .shadowColor: return shadowColor.flatMap { AnimatableValue($0) }
        case .shadowOpacity: return .scalar(Double(shadowOpacity))
        case .shadowOffset: return .size(shadowOffset)
        case .shadowRadius: return .scalar(Double(shadowRadius))
        case .shadowPath: return shadowPath.map { .path($0) }
        case .filters: return .filters(filters)
        case .backgroundFilters: return .filters(backgroundFilters)
        default: return nil
        }
    }

    package func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        guard let property = target.property else {
            customProperties.setAnimated(value, for: target.keyPath.key)
            return
        }
        switch (property, value) {
        case (.position, _), (.zPosition, _), (.anchorPoint, _), (.anchorPointZ, _), (.transform, _), (.opacity, _), (.isHidden, _):
            placement.setAnimatedValue(value, for: target)
        case (.bounds, .rect(let v)): bounds = v
        case (.sublayerTransform, .transform(let v)): sublayerTransform = v
        case (.contentsScale, .scalar(let v)): contentsScale = CGFloat(v)
        case (.backgroundColor, .color), (.borderColor, .color):
            let color = value.modelValue(like: nil) as? CGColor
            if property == .backgroundColor { backgroundColor = color } else { borderColor = color }
        case (.cornerRadius, .scalar(let v)): cornerRadius = CGFloat(v)
        case (.borderWidth, .scalar(let v)): borderWidth = CGFloat(v)
        case (.isDoubleSided, .discrete(let d)): isDoubleSided = d.value as? Bool ?? isDoubleSided
        case (.masksToBounds, .discrete(let d)): masksToBounds = d.value as? Bool ?? masksToBounds
        case (.contents, .discrete(let d)): contents = d.value as? CGImage
        case let (.contents, .crossfade(from, to, fraction)):
            contentsCrossfadeFrom = from.value as? CGImage
            contents = to.value as? CGImage
            contentsCrossfadeFraction = CGFloat(fraction)
        case (.contentsRect, .rect(let v)): contentsRect = v
        case (.contentsCenter, .rect(let v)): contentsCenter = v
        case (.rasterizationScale, .scalar(let v)): rasterizationScale = CGFloat(v)
        case (.shadowColor, .color): shadowColor = value.modelValue(like: nil) as? CGColor
        case (.shadowOpacity, .scalar(let v)): shadowOpacity = CGFloat(v)
        case (.shadowOffset, .size(let v)): shadowOffset = v
        case (.shadowRadius, .scalar(let v)): shadowRadius = CGFloat(v)
        case (.shadowPath, .path(let v)): shadowPath = v
        case (.filters, .filters(let v)): filters = v
        case (.backgroundFilters, .filters(let v)): backgroundFilters = v
        default: break
        }
    }

    // Typed access for compiled animations: straight from and to the fields. Properties the node keeps
    // in no field of that kind answer as the general accessors do.

    package func animatedScalar(of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        switch property {
        case .opacity, .zPosition, .anchorPointZ: placement.animatedScalar(of: property)
        case .cornerRadius: .value(Double(cornerRadius))
        case .borderWidth: .value(Double(borderWidth))
        case .contentsScale: .value(Double(contentsScale))
        case .rasterizationScale: .value(Double(rasterizationScale))
        default: AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
        }
    }

    package func setAnimatedScalar(_ value: Double, of property: LayerPropertyKey) {
        switch property {
        case .opacity, .zPosition, .anchorPointZ: placement.setAnimatedScalar(value, of: property)
        case .cornerRadius: cornerRadius = CGFloat(value)
        case .borderWidth: borderWidth = CGFloat(value)
        case .contentsScale: contentsScale = CGFloat(value)
        case .rasterizationScale: rasterizationScale = CGFloat(value)
        default: setAnimatedValue(.scalar(value), for: .whole(of: property))
        }
    }

    package func animatedPoint(of property: LayerPropertyKey) -> AnimationChannelBase<CGPoint> {
        switch property {
        case .position, .anchorPoint: placement.animatedPoint(of: property)
        default: AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
        }
    }

    package func setAnimatedPoint(_ value: CGPoint, of property: LayerPropertyKey) {
        switch property {
        case .position, .anchorPoint: placement.setAnimatedPoint(value, of: property)
        default: setAnimatedValue(.point(value), for: .whole(of: property))
        }
    }

    package func animatedRect(of property: LayerPropertyKey) -> AnimationChannelBase<CGRect> {
        switch property {
        case .bounds: .value(bounds)
        case .contentsRect: .value(contentsRect)
        case .contentsCenter: .value(contentsCenter)
        default: AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
        }
    }

    package func setAnimatedRect(_ value: CGRect, of property: LayerPropertyKey) {
        switch property {
        case .bounds: bounds = value
        case .contentsRect: contentsRect = value
        case .contentsCenter: contentsCenter = value
        default: setAnimatedValue(.rect(value), for: .whole(of: property))
        }
    }

    package func animatedTransform(of property: LayerPropertyKey) -> AnimationChannelBase<CATransform3D> {
        switch property {
        case .transform: placement.animatedTransform(of: property)
        case .sublayerTransform: .value(sublayerTransform)
        default: AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
        }
    }

    package func setAnimatedTransform(_ value: CATransform3D, of property: LayerPropertyKey) {
        switch property {
        case .transform: placement.setAnimatedTransform(value, of: property)
        case .sublayerTransform: sublayerTransform = value
        default: setAnimatedValue(.transform(value), for: .whole(of: property))
        }
    }

    // Parts of points and transforms, read and written in the field itself.

    package func animatedPointPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        switch property {
        case .position, .anchorPoint: placement.animatedPointPart(part, of: property)
        default: animatedPoint(of: property).part { $0.animatedPart(part) }
        }
    }

    package func setAnimatedPointPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        switch property {
        case .position, .anchorPoint: placement.setAnimatedPointPart(value, part, of: property)
        default:
            guard let whole = animatedPoint(of: property).value?.replacingAnimatedPart(part, with: value) else { return }
            setAnimatedPoint(whole, of: property)
        }
    }

    package func animatedTransformPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        switch property {
        case .transform: placement.animatedTransformPart(part, of: property)
        case .sublayerTransform: sublayerTransform.animatedPart(part).map { .value($0) } ?? .unsupported
        default: animatedTransform(of: property).part { $0.animatedPart(part) }
        }
    }

    package func setAnimatedTransformPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        switch property {
        case .transform: placement.setAnimatedTransformPart(value, part, of: property)
        case .sublayerTransform: _ = sublayerTransform.replaceAnimatedPart(part, with: value)
        default:
            guard let whole = animatedTransform(of: property).value?.replacingAnimatedPart(part, with: value) else { return }
            setAnimatedTransform(whole, of: property)
        }
    }

    package func setTransition(_ transition: TransitionRecord, progress: Double) {
        activeTransition = (transition, progress)
    }

    /// The node's local time at its parent's time `t`, by its own media timing (`beginTime`, `speed`,
    /// `timeOffset`; a layer repeats nothing and fills nothing).
    package func localTime(fromParentTime t: Double) -> Double {
        MediaTimingParameters.localTime(fromParentTime: t, beginTime: beginTime, speed: speed, timeOffset: timeOffset)
    }
}
