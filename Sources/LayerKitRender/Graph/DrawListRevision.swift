/// Which draws of a retained frame pass changed over the last few frames, so a backend that keeps
/// earlier frames' instance data (one buffer per frame in flight) rewrites only those.
///
/// A full compile starts a new `lineage` at revision 0 (draw order and batches may all have changed);
/// each patched frame (`DrawListCompiler.patch`) is the next revision of it, with the same order and
/// batches, and lists the compiled draws it rewrote. Only the newest `depth` lists are kept: a backend
/// whose buffer is older than that, or of another lineage, writes everything.
package struct DrawListRevision: Equatable, Sendable {
    /// How many revisions' changes are kept (at least the backend's frames in flight).
    package static let depth = 4

    /// The full compile the draw lists descend from.
    package let lineage: UInt64
    /// Patches since that compile.
    package private(set) var revision: UInt64 = 0
    /// For the newest revisions, oldest first: the frame pass's compiled draws each rewrote.
    package private(set) var recentChanges: [[Int]] = []

    package init(lineage: UInt64) {
        self.lineage = lineage
    }

    /// The next revision, which rewrote the compiled draws `changed`.
    package mutating func advance(changed: [Int]) {
        revision += 1
        recentChanges.append(changed)
        if recentChanges.count > Self.depth { recentChanges.removeFirst() }
    }

    /// The compiled draws that differ between `older` and this revision (unsorted, possibly repeated),
    /// or nil when they cannot be told: another lineage, or older than the changes kept.
    package func changes(since older: DrawListRevision?) -> [Int]? {
        guard let older, older.lineage == lineage, older.revision <= revision else { return nil }
        let steps = Int(revision - older.revision)
        guard steps <= recentChanges.count else { return nil }
        return recentChanges.suffix(steps).flatMap { $0 }
    }
}
