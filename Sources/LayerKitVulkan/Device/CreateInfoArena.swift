import Foundation

/// Heap copies of the C values a Vulkan create-info points at (nested structs, arrays, strings), alive
/// until the arena is released. It replaces pyramids of nested `withUnsafePointer` closures: build the
/// structs top to bottom, make the call, let the arena go.
///
/// Only for trivial C values (imported structs, enums, pointers). Not thread-safe; use it within one call.
final class CreateInfoArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit {
        for allocation in allocations { free(allocation) }
    }

    /// A pointer to a copy of `value`.
    func pointer<T>(to value: T) -> UnsafeMutablePointer<T> {
        let raw = allocate(MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
        let typed = raw.bindMemory(to: T.self, capacity: 1)
        typed.initialize(to: value)
        return typed
    }

    /// A pointer to a copy of `values`' elements; nil when empty.
    func pointer<T>(to values: [T]) -> UnsafeMutablePointer<T>? {
        guard !values.isEmpty else { return nil }
        let raw = allocate(MemoryLayout<T>.stride * values.count, alignment: MemoryLayout<T>.alignment)
        let typed = raw.bindMemory(to: T.self, capacity: values.count)
        typed.initialize(from: values, count: values.count)
        return typed
    }

    /// A NUL-terminated copy of `string`.
    func cString(_ string: String) -> UnsafePointer<CChar> {
        let copy = strdup(string)!
        allocations.append(UnsafeMutableRawPointer(copy))
        return UnsafePointer(copy)
    }

    /// An array of NUL-terminated copies of `strings`; nil when empty.
    func cStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafePointer<CChar>?>? {
        pointer(to: strings.map { Optional(cString($0)) })
    }

    private func allocate(_ size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        var raw: UnsafeMutableRawPointer?
        precondition(posix_memalign(&raw, max(alignment, MemoryLayout<UnsafeRawPointer>.alignment), max(size, 1)) == 0, "out of memory")
        allocations.append(raw!)
        return raw!
    }
}
