import CSDL2
import Foundation
import LayerKitVulkan

// The window's event loop, on the thread that created the window.
//
// One iteration: sleep until the display link's next tick; drain and dispatch SDL's events; rethrow an
// error the render thread reported; call `onFrame` with the tick's time; `CATransaction.flush()` — the
// implicit commit (changes made by the callbacks reach the render server as one packet) and the delivery
// of animation callbacks (delegates, completion blocks) posted by the render thread. With
// `commitsOncePerFrame` (the default) the commit waits while the render thread has not taken the last
// one: the loop may tick faster than frames are drawn, and the changes of those ticks then make one
// commit, applied once. Before the flush the
// window publishes what it shows (`HostViewports`), so tiled layers draw the tiles on screen. The loop never draws
// and never waits for the render thread; frames are produced there at the same rate. When a loop returns,
// the exit hook that stops rendering before process exit is armed again (`OpenWindows`).
// Cost per iteration: O(events + changed properties).

extension LayerWindow {
    /// Runs the event loop until `stop()` is called or a quit arrives with `onQuit` unset.
    ///
    /// - Throws: the first error the render thread reported (a lost device, a failed swapchain).
    public func run() throws {
        defer { OpenWindows.shared.armExitHook() }
        try runLoop(iterations: nil)
    }

    /// Runs exactly `frames` iterations of the event loop (fewer if stopped): for tests and `--frames`.
    public func run(frames: Int) throws {
        defer { OpenWindows.shared.armExitHook() }
        try runLoop(iterations: max(frames, 0))
    }

    /// Ends `run()` after the current iteration.
    public func stop() {
        isStopRequested = true
    }

    private func runLoop(iterations: Int?) throws {
        assertOwnerThread()
        isStopRequested = false
        var completed = 0
        while !isStopRequested {
            if let iterations, completed >= iterations { break }
            try runIteration()
            completed += 1
        }
    }

    /// One iteration of the loop (see the contract above).
    func runIteration() throws {
        let time = displayLink.waitForNextFrame()
        dispatchPendingEvents()
        try checkRenderError()
        onFrame?(time)
        // Layers whose drawn properties animate are redrawn with this frame's presentation values.
        LayerDisplay.redrawAnimatingLayers(at: time)
        // What the window shows, for tiled layers' visibility: the root's frame at the window's scale.
        HostViewports.shared.set(HostViewports.Viewport(rect: rootLayer.frame, scale: rootLayer.contentsScale), root: rootLayer, for: self)
        if commitsOncePerFrame && server.hasUntakenCommits {
            // The render thread has not taken the last commit: this tick's changes wait for the next
            // commit, and only the callbacks it posted are delivered now.
            AnimationCallbacks.shared.deliverPending()
        } else {
            CATransaction.flush()
            rootLayer.isShownRoot = true
        }
    }
}
