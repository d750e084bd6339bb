/// Copies an image's rows from memory where they lie `bytesPerRow` apart (a linear image's pitch, which
/// a driver may pad) to memory where they lie back to back: a frame's pixels read back for a capture, or
/// handed to a host presenter's shared segment.
/// Cost: one copy when the rows are not padded, else one per row.
package enum PackedRows {
    /// Copies `rows` rows of `rowBytes` bytes from `source` (rows `bytesPerRow` ≥ `rowBytes` apart) to
    /// `destination` (rows `rowBytes` apart).
    package static func copy(rows: Int, of rowBytes: Int, from source: UnsafeRawPointer, bytesPerRow: Int,
                             to destination: UnsafeMutableRawPointer) {
        precondition(bytesPerRow >= rowBytes, "rows \(bytesPerRow) bytes apart cannot hold \(rowBytes) bytes each")
        guard bytesPerRow != rowBytes else {
            destination.copyMemory(from: source, byteCount: rows * rowBytes)
            return
        }
        for row in 0..<rows { (destination + row * rowBytes).copyMemory(from: source + row * bytesPerRow, byteCount: rowBytes) }
    }
}
