import LayerKit

/// Values appended from any thread and read after the threads joined: what the concurrency tests collect
/// to check that nothing was lost or duplicated.
public final class CollectedValues<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])

    public init() {}

    public func append(_ item: Element) { items.withLock { $0.append(item) } }
    public func append(contentsOf more: [Element]) { items.withLock { $0.append(contentsOf: more) } }
    public var all: [Element] { items.withLock { $0 } }
}
