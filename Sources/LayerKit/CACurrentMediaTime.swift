import Foundation

/// Seconds, as Core Animation measures time (`CFTimeInterval` on Apple platforms).
public typealias CFTimeInterval = Double

/// The current absolute time in seconds, from a monotonic clock (Core Animation's `mach_absolute_time`
/// based clock; here `CLOCK_MONOTONIC`). Unaffected by wall-clock changes.
public func CACurrentMediaTime() -> CFTimeInterval {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return CFTimeInterval(spec.tv_sec) + CFTimeInterval(spec.tv_nsec) / 1_000_000_000
}
