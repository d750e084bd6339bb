import Foundation

// A layer's own media timing: its local time is its superlayer's, mapped by beginTime, speed and
// timeOffset, and every animation on it (and on its sublayers) runs in that local time. Speed 0 pauses
// everything below; timeOffset then scrubs (an interactive reveal).

extension CALayer: CAMediaTiming {
    public var beginTime: CFTimeInterval {
        get { value(of: .beginTime) }
        set { setValue(newValue, of: .beginTime) }
    }

    public var timeOffset: CFTimeInterval {
        get { value(of: .timeOffset) }
        set { setValue(newValue, of: .timeOffset) }
    }

    /// The rate of the layer's local time relative to its superlayer's. Default 1; 0 pauses.
    public var speed: Float {
        get { value(of: .speed) }
        set { setValue(newValue, of: .speed) }
    }

    public var repeatCount: Float {
        get { value(of: .repeatCount) }
        set { setValue(newValue, of: .repeatCount) }
    }

    public var repeatDuration: CFTimeInterval {
        get { value(of: .repeatDuration) }
        set { setValue(newValue, of: .repeatDuration) }
    }

    public var autoreverses: Bool {
        get { value(of: .autoreverses) }
        set { setValue(newValue, of: .autoreverses) }
    }

    public var duration: CFTimeInterval {
        get { value(of: .duration) }
        set { setValue(newValue, of: .duration) }
    }

    public var fillMode: CAMediaTimingFillMode {
        get { value(of: .fillMode) }
        set { setValue(newValue, of: .fillMode) }
    }

    /// Converts `t` from `l`'s local time (absolute time, `CACurrentMediaTime()`'s clock, when nil) to
    /// this layer's local time.
    public func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        let absolute = l.map { $0.absoluteTime(fromLocal: t) } ?? t
        return localTime(fromAbsolute: absolute)
    }

    /// Converts `t` from this layer's local time to `l`'s (absolute time when nil).
    public func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        let absolute = absoluteTime(fromLocal: t)
        return l.map { $0.localTime(fromAbsolute: absolute) } ?? absolute
    }

    /// The timing parameters of this layer and its ancestors, root first.
    package var timingChain: [MediaTimingParameters] {
        var chain: [MediaTimingParameters] = []
        var current: CALayer? = self
        while let layer = current {
            chain.append(layer.layerTimingParameters)
            current = layer.storedSuperlayer ?? layer.maskOwner
        }
        return chain.reversed()
    }

    package var layerTimingParameters: MediaTimingParameters {
        MediaTimingParameters(beginTime: beginTime, timeOffset: timeOffset, speed: Double(speed), repeatCount: Double(repeatCount),
                              repeatDuration: repeatDuration, autoreverses: autoreverses, duration: duration, fillMode: fillMode)
    }

    private func localTime(fromAbsolute t: CFTimeInterval) -> CFTimeInterval {
        timingChain.reduce(t) { time, timing in timing.localTime(fromParentTime: time) }
    }

    private func absoluteTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        // Invert root-last; a paused layer (speed 0) maps every parent time to one local time, so the
        // inverse is the parent time at which that happened — taken as its beginTime.
        timingChain.reversed().reduce(t) { time, timing in timing.parentTime(fromLocalTime: time) ?? timing.beginTime }
    }
}
