import Foundation

// Key-value coding: every property by its Core Animation key, sub-paths such as "position.x" and
// "transform.rotation.z", and keys that subclasses declare.
//
// A key LayerKit does not define is a subclass property: its value is stored on the layer, its default
// comes from `defaultValue(forKey:)` of the layer's class, and changes are recorded for the commit like
// any built-in property. That is how a subclass declares its own (animatable) properties:
//
//     final class ProgressLayer: CALayer {
//         var progress: CGFloat {
//             get { value(forKey: "progress") as? CGFloat ?? 0 }
//             set { setValue(newValue, forKey: "progress") }
//         }
//         override class func defaultValue(forKey key: String) -> Any? {
//             key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
//         }
//     }

extension CALayer {
    /// The value of the property named `key` (nil for an unset optional or an unknown, unset key).
    public func value(forKey key: String) -> Any? {
        if let property = LayerPropertyKey(key: key) { return builtinValue(property) }
        // `frame` is derived, not stored, but key-value coding reaches it as Core Animation's does.
        if key == "frame" { return frame }
        // A subclass property set to nil is stored as an empty optional, so it does not fall back to a
        // non-nil default (a shape layer's `fillColor = nil` stays nil).
        if let stored = storage[.custom(key)] { return isNilValue(stored) ? nil : stored }
        return type(of: self).defaultValue(forKey: key)
    }

    /// Sets the property named `key`. A value of the wrong type for a built-in property is refused with
    /// a `valueTypeMismatch` diagnostic; non-finite geometry with `nonFiniteGeometry`.
    public func setValue(_ value: Any?, forKey key: String) {
        if let property = LayerPropertyKey(key: key) {
            setBuiltinValue(value, for: property, keyPath: key)
            return
        }
        if key == "frame" {
            guard let rect = value as? CGRect else {
                return LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: key, expected: "CGRect", got: value.map { "\(type(of: $0))" } ?? "nil"))
            }
            frame = rect
            return
        }
        if let value, !acceptsGeometry(value, keyPath: key) { return }
        let action = actionForChange(of: key)
        storage[.custom(key)] = value ?? (type(of: self).defaultValue(forKey: key) == nil ? nil : Optional<Any>.none as Any)
        didChangeCustomProperty(key)
        action?.run(forKey: key, object: self, arguments: nil)
    }

    /// The value at a key path such as `"position.x"`, `"bounds.size.width"` or `"transform.rotation.z"`.
    /// An unknown sub-path gives nil and an `unknownKeyPath` diagnostic.
    public func value(forKeyPath keyPath: String) -> Any? {
        let path = AnimationKeyPath(keyPath)
        guard let base = value(forKey: path.key) else { return nil }
        guard let part = path.subvalue(of: base) else {
            LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath))
            return nil
        }
        return part
    }

    /// Sets the value at a key path: the sub-path's component is replaced and the whole property set
    /// (so `"position.x"` leaves y alone, `"transform.rotation.z"` keeps scale and translation).
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        let path = AnimationKeyPath(keyPath)
        if path.subPath.isEmpty { return setValue(value, forKey: keyPath) }
        guard let base = self.value(forKey: path.key), let value else {
            return LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath))
        }
        if (value as? GeometricValue)?.isFiniteGeometry == false || scalarValue(value)?.isFinite == false {
            return LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: diagnosticName, keyPath: keyPath))
        }
        guard path.subvalue(of: base) != nil else {
            return LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath))
        }
        guard let updated = path.replacingSubvalue(in: base, with: value) else {
            return LayerKitDiagnostics.emit(.valueTypeMismatch(
                keyPath: keyPath, expected: "\(type(of: path.subvalue(of: base)!))", got: "\(type(of: value))"))
        }
        setValue(updated, forKey: path.key)
    }

    // MARK: - Built-in properties by key

    private func builtinValue(_ key: LayerPropertyKey) -> Any? {
        switch key {
        case .bounds: return storedBounds
        case .position: return storedPosition
        case .backgroundColor: return storedBackgroundColor
        case .contents: return storedContents
        case .delegate: return delegate
        case .sublayers: return sublayers
        default:
            let value = storage[.builtin(key)] ?? defaults.values[Int(key.rawValue)]
            return isNilValue(value) ? nil : value
        }
    }

    private func setBuiltinValue(_ value: Any?, for key: LayerPropertyKey, keyPath: String) {
        guard let coerced = Self.coerce(value, to: key) else {
            let got = value.map { "\(type(of: $0))" } ?? "nil"
            return LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: keyPath, expected: "\(key.valueKind)", got: got))
        }
        // Properties with side effects or inline storage go through their accessors.
        switch key {
        case .bounds: bounds = coerced as! CGRect
        case .position: position = coerced as! CGPoint
        case .backgroundColor: backgroundColor = coerced as? CGColor
        case .contents: contents = isNilValue(coerced) ? nil : coerced
        case .mask: mask = coerced as? CALayer
        case .delegate: delegate = coerced as? CALayerDelegate
        case .sublayers: sublayers = coerced as? [CALayer]
        case .actions: actions = coerced as? [String: CAAction]
        case .style: style = coerced as? [AnyHashable: Any]
        case .filters: filters = coerced as? [Any]
        case .backgroundFilters: backgroundFilters = coerced as? [Any]
        case .name: name = coerced as? String
        case .shadowPath: shadowPath = coerced as? CGPath
        case .borderColor: borderColor = coerced as? CGColor
        case .shadowColor: shadowColor = coerced as? CGColor
        default: setValue(coerced, of: key)
        }
    }

    /// `value` as the exact Swift type `key` stores (an optional property's nil as `Optional.none`), or
    /// nil when it cannot be. Also what subclass defaults go through (`LayerDefaults`).
    package static func coerce(_ value: Any?, to key: LayerPropertyKey) -> Any? {
        let none: Any = Optional<Any>.none as Any
        switch key.valueKind {
        case .float: return value.flatMap(scalarValue)
        case .float32: return value.flatMap(scalarValue).map { Float($0) }
        case .double: return value.flatMap(scalarValue).map { Double($0) }
        case .point: return value as? CGPoint
        case .size: return value as? CGSize
        case .rect: return value as? CGRect
        case .transform: return value as? CATransform3D
        case .bool:
            if let flag = value as? Bool { return flag }
            return (value as? NSNumber)?.boolValue
        case .color, .layer, .path:
            guard let value else { return none }
            switch key.valueKind {
            case .color: return value as? CGColor
            case .layer: return value as? CALayer
            default: return value as? CGPath
            }
        case .cornerMask:
            let raw: UInt? = (value as? CACornerMask)?.rawValue
                ?? (value as? CAEdgeAntialiasingMask).map { UInt($0.rawValue) } ?? (value as? UInt) ?? (value as? Int).map(UInt.init)
            guard let raw else { return nil }
            return key == .maskedCorners ? CACornerMask(rawValue: raw) as Any : CAEdgeAntialiasingMask(rawValue: UInt32(raw)) as Any
        case .string:
            if key == .name {
                guard let value else { return none }
                return value as? String
            }
            guard let raw = (value as? String) ?? ((value as? any RawRepresentable)?.rawValue as? String) else { return nil }
            switch key {
            case .contentsGravity: return CALayerContentsGravity(rawValue: raw)
            case .minificationFilter, .magnificationFilter: return CALayerContentsFilter(rawValue: raw)
            case .contentsFormat: return CALayerContentsFormat(rawValue: raw)
            case .cornerCurve: return CALayerCornerCurve(rawValue: raw)
            case .fillMode: return CAMediaTimingFillMode(rawValue: raw)
            default: return nil
            }
        case .any:
            guard let value else { return none }
            return value
        }
    }
}
