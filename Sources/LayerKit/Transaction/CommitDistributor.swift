import Foundation

/// Something that receives commits: a render server (a `CARenderer`, a window), or an observer.
package protocol CommitReceiver: AnyObject, Sendable {
    /// Called on the committing thread; the receiver queues the packet for its render thread.
    func receive(_ packet: CommitPacket)
}

/// Addresses each commit to the hosts whose trees it touches, in commit order.
///
/// Contract
///   A host receiver shows one tree (`show(_:to:)`): it receives the changes of the layers it knows —
///   its tree's layers, and layers that left it since (their nodes stay consistent) — and, when a layer
///   enters its tree, a snapshot of that layer's subtree (`CommitPacket.snapshot`) in place of changes it
///   never saw. A commit that touches none of its layers does not reach it, so its render tree holds its
///   own tree only and other hosts' work never makes it render. An observer (`observe(_:)`, tests)
///   receives every change. Receivers are held weakly.
///   Invariant: every layer a host knows has its current sublayers and mask known too (a layer enters
///   through its parent's sublayers or mask edit, which is checked at every commit).
///   Cost: per commit, O(changes × routes) set lookups, plus an ancestor walk for each change of a layer
///   a host does not know yet, plus the snapshots of entering subtrees.
///   Threads: the commit runs on the thread that owns the model (it walks the tree); the routes are
///   guarded by a lock, packets are delivered outside it.
///   Process-wide: any thread's commit may touch any host's tree, and a layer released on any thread
///   must reach the hosts that hold it, so the routes between committing threads and hosts are one
///   table; what each host receives is its own (`Route.known`). Ownership: `routes` and `released`
///   are behind `lock`; hence `@unchecked Sendable` (routes hold weak non-Sendable layers, walked only
///   by the committing thread under the lock). Checked by `SendableInvariantTests`.
package final class CommitDistributor: @unchecked Sendable {
    /// The table every commit and host uses (see the contract for why it is one).
    package static let shared = CommitDistributor()

    private struct Route {
        weak var receiver: CommitReceiver?
        /// Whether the receiver takes every change (an observer) instead of one tree's.
        var observesAll: Bool
        /// The root of the tree the host shows (held weakly: the host holds it).
        weak var root: CALayer?
        /// The layers whose state the receiver's render tree holds.
        var known: Set<LayerID> = []
    }

    private let lock = NSLock()
    private var routes: [ObjectIdentifier: Route] = [:]
    /// Committed layers deallocated since the last commit, on any thread.
    private var released: [LayerID] = []

    /// Records that a committed layer was deallocated (on whatever thread let it go), so the render trees
    /// that hold it drop its node at the next commit (no tree can still show it: every superlayer, mask
    /// owner and host holds its layers strongly).
    package func recordRelease(of layer: LayerID) {
        lock.lock()
        released.append(layer)
        lock.unlock()
    }

    /// Returns the layers released since the last call and forgets them.
    package func drainReleased() -> [LayerID] {
        lock.lock()
        defer {
            released = []
            lock.unlock()
        }
        return released
    }

    /// Registers an observer: it receives every change of every commit.
    package func observe(_ receiver: CommitReceiver) {
        lock.lock()
        routes[ObjectIdentifier(receiver)] = Route(receiver: receiver, observesAll: true)
        lock.unlock()
    }

    /// Makes `receiver` a host of the tree rooted at `root` (nil: it shows nothing) from the next commit
    /// on, and returns the snapshot its render tree starts from. Commit pending changes first
    /// (`CATransaction.flush()`), or they reach the receiver after the snapshot (harmless, but a frame).
    package func show(_ root: CALayer?, to receiver: CommitReceiver) -> CommitPacket? {
        let snapshot = root.map { CommitPacket.snapshot(of: $0) }
        var route = Route(receiver: receiver, observesAll: false, root: root)
        route.known = Set(snapshot?.changes.map(\.layer) ?? [])
        lock.lock()
        routes[ObjectIdentifier(receiver)] = route
        lock.unlock()
        return snapshot
    }

    /// Stops delivering to `receiver`.
    package func remove(_ receiver: CommitReceiver) {
        lock.lock()
        routes[ObjectIdentifier(receiver)] = nil
        lock.unlock()
    }

    /// Whether any of `layers` is one `receiver` knows or one in its tree: work pending on them (a
    /// commit, a drawing) concerns it. An observer is concerned by everything.
    package func concerns(_ receiver: CommitReceiver, anyOf layers: [CALayer]) -> Bool {
        guard !layers.isEmpty else { return false }
        lock.lock()
        let route = routes[ObjectIdentifier(receiver)]
        lock.unlock()
        guard let route else { return false }
        if route.observesAll { return true }
        guard let root = route.root else { return false }
        return layers.contains { route.known.contains($0.layerID) || root.isAncestor(of: $0) }
    }

    /// Hands the commit's changes and released layers to the receivers they concern.
    /// `began` is when the commit began, stamped on every packet (`CommitPacket.commitBegan`).
    package func distribute(_ changes: [LayerChange], released: [LayerID], began: CFTimeInterval? = nil) {
        let states = changes.map(LayerStateChange.init)
        var deliveries: [(CommitReceiver, CommitPacket)] = []
        lock.lock()
        routes = routes.filter { $0.value.receiver != nil }
        for key in routes.keys {
            guard let receiver = routes[key]!.receiver else { continue }
            let packet = routes[key]!.observesAll
                ? CommitPacket(changes: states, released: released)
                : Self.route(changes, states, released: released, through: &routes[key]!)
            if !packet.isEmpty {
                var stamped = packet
                stamped.commitBegan = began
                deliveries.append((receiver, stamped))
            }
        }
        lock.unlock()
        for (receiver, packet) in deliveries { receiver.receive(packet) }
    }

    /// The part of a commit for one host's route, updating what it knows.
    private static func route(_ changes: [LayerChange], _ states: [LayerStateChange], released: [LayerID],
                              through route: inout Route) -> CommitPacket {
        guard let root = route.root else { return CommitPacket(changes: []) }
        var entering: [LayerStateChange] = []
        var routed: [LayerStateChange] = []
        func enter(_ layer: CALayer) {
            guard !route.known.contains(layer.layerID) else { return }
            let snapshot = CommitPacket.snapshot(of: layer) { !route.known.contains($0.layerID) }
            for change in snapshot.changes { route.known.insert(change.layer) }
            entering += snapshot.changes
        }
        for (change, state) in zip(changes, states) {
            if route.known.contains(state.layer) {
                routed.append(state)
            } else if root.isAncestor(of: change.layer) {
                enter(change.layer)  // its snapshot holds this change's values
            } else {
                continue
            }
            // A sublayer or mask added to a known layer enters the tree with its subtree.
            if change.properties.contains(LayerPropertySet(.sublayers)) || change.properties.contains(LayerPropertySet(.mask)) {
                for sublayer in change.layer.storedSublayers { enter(sublayer) }
                if let mask = change.layer.value(of: .mask) as CALayer? { enter(mask) }
            }
        }
        let ownReleased = released.filter { route.known.remove($0) != nil }
        // Entering layers first: the sublayer edits that follow refer to them.
        return CommitPacket(changes: entering + routed, released: ownReleased)
    }
}
