/// Which compiled draws of a retained graph changed over the last few frames, so a backend that keeps
/// earlier frames' instance data (one buffer per frame in flight) rewrites only those.
///
/// A full compile starts a new `lineage` at revision 0 (passes, draw order and batches may all have
/// changed); each patched frame (`FrameProducer`, `DrawListCompiler.patch`) is the next revision of it:
/// the same passes with the same targets and the same number of compiled draws each, every gradient's
/// stop words as many as before (so each draw's instance slot and stop words stay where they were), and
/// it lists the compiled draws it rewrote — a pass compiled again (`DrawListCompiler.recompile`) lists
/// every draw of it, as its order may have changed. Only the newest `depth` lists are kept: a backend
/// whose buffer is older than that, or of another lineage, writes everything.
package struct DrawListRevision: Equatable, Sendable {
    /// How many revisions' changes are kept (at least the backend's frames in flight).
    package static let depth = 4

    /// One compiled draw: its pass's index in the graph and its index in that pass's items.
    package struct ChangedDraw: Hashable, Sendable {
        package var pass: Int
        package var item: Int

        package init(pass: Int, item: Int) {
            self.pass = pass
            self.item = item
        }
    }

    /// The full compile the draw lists descend from.
    package let lineage: UInt64
    /// Patches since that compile.
    package private(set) var revision: UInt64 = 0
    /// For the newest revisions, oldest first: the compiled draws each rewrote.
    package private(set) var recentChanges: [[ChangedDraw]] = []

    package init(lineage: UInt64) {
        self.lineage = lineage
    }

    /// The next revision, which rewrote the compiled draws `changed`.
    package mutating func advance(changed: [ChangedDraw]) {
        revision += 1
        recentChanges.append(changed)
        if recentChanges.count > Self.depth { recentChanges.removeFirst() }
    }

    /// The compiled draws that differ between `older` and this revision (unsorted, possibly repeated),
    /// or nil when they cannot be told: another lineage, or older than the changes kept.
    package func changes(since older: DrawListRevision?) -> [ChangedDraw]? {
        guard let older, older.lineage == lineage, older.revision <= revision else { return nil }
        let steps = Int(revision - older.revision)
        guard steps <= recentChanges.count else { return nil }
        return recentChanges.suffix(steps).flatMap { $0 }
    }
}
