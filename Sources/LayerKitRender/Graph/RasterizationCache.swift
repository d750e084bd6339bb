import LayerKit

/// The render server's record of which cached bitmaps (`shouldRasterize` layers, and groups cached by
/// `RasterizationCache+Groups.swift`) the backend holds, and whether each is still right: the builder
/// asks it for hits and tells it what it drew; the backend holds the images.
///
/// Input: per frame, `beginFrame()`, then per rasterized layer `lookUp` (a hit when the entry was drawn
/// at the subtree's current stamp and an on-screen pixel scale within `scaleTolerance`) or `store` after
/// a miss; at the end `endFrame()`, whose releases go out with the graph; `forget` for entries the
/// backend lost (memory pressure) or never drew (its pass was culled). A frame patched from a retained
/// one instead of built (`FrameProducer`) begins the frame too and asks `reuse` to count again the
/// entries and settled groups the retained frame composites.
/// Output: entries (`Entry`), and the entries to release. Entries may live on shared pages
/// (`RasterizationCache+Pages.swift`): then the page is what the backend holds and releases.
/// Policy: an entry unused for `idleFramesBeforeRelease` frames is released; the entries' bytes stay
/// within `maxBytes` — storing past it releases the least recently used entries not used this frame,
/// and an entry that still does not fit is not kept (its layer is drawn through an uncached surface).
/// Cost: O(1) per look-up and store; O(entries) per frame for aging, O(entries log entries) when the byte
/// bound evicts. A class, render thread only (hence `@unchecked Sendable`), shared by the builder's
/// copies like `ShapeRasterizer`.
package final class RasterizationCache: @unchecked Sendable {
    /// One cached bitmap.
    package struct Entry: Sendable, Equatable {
        /// The subtree's stamp when drawn (`RenderTree.rasterizedState(of:)`).
        package var stamp: UInt64
        /// Bitmap pixels per layer point.
        package var pixelScale: CGFloat
        /// The region of the layer's own space the bitmap covers.
        package var layerRect: CGRect
        package var width: Int
        package var height: Int
        package var lastUsedFrame: UInt64 = 0
        /// Where the bitmap lies on a shared page; nil for a bitmap that is an image of its own.
        package var placement: PagePlacement?

        package init(stamp: UInt64, pixelScale: CGFloat, layerRect: CGRect, width: Int, height: Int) {
            self.stamp = stamp
            self.pixelScale = pixelScale
            self.layerRect = layerRect
            self.width = width
            self.height = height
        }

        /// Bytes of the image (premultiplied RGBA8).
        package var bytes: Int { width * height * 4 }
    }

    /// Frames an entry may go unused before it is released.
    package var idleFramesBeforeRelease: UInt64 = 30
    /// The most bytes the entries' images may take together.
    package var maxBytes = 64 << 20
    /// How far (relative) the on-screen pixel scale may drift from an entry's before it is redrawn.
    package var scaleTolerance: CGFloat = 0.01

    package internal(set) var entries: [RasterizationEntryID: Entry] = [:]
    package private(set) var frame: UInt64 = 0
    var releases: [RasterizationEntryID] = []
    /// Shared pages by number, and the next page number (`RasterizationCache+Pages.swift`).
    package internal(set) var pages: [Int: Page] = [:]
    var nextPage = 0
    /// The draws of each paged entry, in its own bitmap's clip space, for redrawing its page.
    var pagedItems: [RasterizationEntryID: [DrawItem]] = [:]
    /// Group-opacity layers seen lately: when their subtree last changed (`RasterizationCache+Groups.swift`).
    var groupHistories: [LayerID: GroupHistory] = [:]

    package init() {}

    /// Bytes of the entries held.
    package var bytes: Int { entries.values.reduce(0) { $0 + $1.bytes } }

    /// Starts a frame: entries idle too long are released.
    package func beginFrame() {
        frame &+= 1
        for (id, entry) in entries where entry.lastUsedFrame + idleFramesBeforeRelease < frame {
            release(id)
        }
        forgetIdleGroupHistories()
    }

    /// The entry for `id` if it can be drawn instead of the subtree: drawn at `stamp`, at a pixel scale
    /// within tolerance of `pixelScale`. A hit counts as a use.
    package func lookUp(_ id: RasterizationEntryID, stamp: UInt64, pixelScale: CGFloat) -> Entry? {
        guard var entry = entries[id], entry.stamp == stamp,
              abs(entry.pixelScale - pixelScale) <= scaleTolerance * pixelScale else { return nil }
        entry.lastUsedFrame = frame
        entries[id] = entry
        return entry
    }

    /// Records that `id` is drawn this frame as `entry`; false when it cannot be kept within `maxBytes`
    /// (any previous entry for `id` is then released).
    package func store(_ id: RasterizationEntryID, _ entry: Entry) -> Bool {
        var entry = entry
        entry.lastUsedFrame = frame
        if let old = entries[id], old.placement != nil {
            // A paged bitmap replaced by one of its own: free its place first.
            entries[id] = nil
            removeFromPage(id, old)
        }
        let previousBytes = entries[id]?.bytes ?? 0
        var total = bytes - previousBytes + entry.bytes
        if total > maxBytes {
            let evictable = entries.filter { $0.key != id && $0.value.lastUsedFrame < frame }
                .sorted { $0.value.lastUsedFrame < $1.value.lastUsedFrame }
            for (victim, old) in evictable where total > maxBytes {
                release(victim)
                total -= old.bytes
            }
        }
        guard total <= maxBytes else {
            if entries[id] != nil { release(id) }
            return false
        }
        entries[id] = entry
        return true
    }

    /// Drops entries the backend does not hold (it lost them, or never drew them). Not reported as
    /// releases: there is nothing to free.
    package func forget(_ ids: some Sequence<RasterizationEntryID>) {
        for id in ids {
            if let page = id.page {
                forgetPage(page)
            } else if let entry = entries.removeValue(forKey: id) {
                removeFromPage(id, entry)
            }
        }
    }

    /// Drops every entry (memory pressure); they go out as releases with the next graph.
    package func removeAll() {
        for id in entries.keys { release(id) }
        groupHistories = [:]
    }

    /// What one frame asked of the cache that a later frame drawn from it (a retained frame,
    /// `FrameProducer`) asks again: the entries it hit and the groups it found settled.
    package struct Uses: Sendable {
        package var entries: [RasterizationEntryID] = []
        package var settledGroups: [LayerID] = []
        /// Groups found not settled yet (drawn through a per-frame surface until they settle: a frame
        /// with one is not drawn from again, as the answer changes with frames alone).
        package var unsettledGroups = 0

        package init() {}
    }

    /// Counts `uses` again in this frame, as a build asking the same would: each entry hit is used now,
    /// each group seen now unchanged. False, touching nothing, when an entry is gone (released,
    /// forgotten) or a group's history is: the frame must then be built.
    package func reuse(_ uses: Uses) -> Bool {
        guard uses.entries.allSatisfy({ entries[$0] != nil }), uses.settledGroups.allSatisfy({ groupHistories[$0] != nil }) else {
            return false
        }
        for id in uses.entries { entries[id]?.lastUsedFrame = frame }
        for layer in uses.settledGroups { groupHistories[layer]?.lastSeenFrame = frame }
        return true
    }

    /// Whether releases wait for the next graph.
    package var hasPendingReleases: Bool { !releases.isEmpty }

    /// The entries released since the last call, for the graph the backend executes next.
    package func takeReleases() -> [RasterizationEntryID] {
        defer { releases = [] }
        return releases
    }

    /// Drops `id`: a bitmap of its own goes out as a release; a paged one frees its place on the page,
    /// and the page goes out once empty.
    func release(_ id: RasterizationEntryID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if entry.placement == nil {
            releases.append(id)
        } else {
            removeFromPage(id, entry)
        }
    }
}
