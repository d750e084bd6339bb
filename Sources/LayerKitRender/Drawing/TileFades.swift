import LayerKit

/// When each drawn tile of a tiled layer first appeared on screen, for its fade-in (render thread only).
///
/// Input: a tile drawing's serial (`TiledContents.Tile.serial`), the frame's time and the layer's fade
/// duration. Output: the tile's opacity, `(time − first frame that showed it) / fadeDuration` clamped to
/// 0…1 (1 at once for a duration ≤ 0). Tiles not shown for `forgetAfterFrames` frames are forgotten
/// (checked every 64 frames), so the table holds about the tiles recently on screen.
/// Cost: O(1) per tile per frame.
package final class TileFades: @unchecked Sendable {
    private var firstShown: [UInt64: (time: Double, lastFrame: Int)] = [:]
    private var frame = 0
    package let forgetAfterFrames: Int

    package init(forgetAfterFrames: Int = 120) {
        self.forgetAfterFrames = forgetAfterFrames
    }

    /// Starts a frame: tiles unseen for too long are forgotten.
    package func beginFrame() {
        frame += 1
        guard frame % 64 == 0 else { return }
        firstShown = firstShown.filter { frame - $0.value.lastFrame <= forgetAfterFrames }
    }

    /// The opacity of tile drawing `serial` in a frame at `time`; the first call for a serial starts its fade.
    package func opacity(of serial: UInt64, at time: Double, fadeDuration: Double) -> Double {
        let start = firstShown[serial]?.time ?? time
        firstShown[serial] = (start, frame)
        guard fadeDuration > 0, fadeDuration.isFinite else { return 1 }
        return min(max((time - start) / fadeDuration, 0), 1)
    }

    /// Tiles remembered now.
    package var count: Int { firstShown.count }
}
