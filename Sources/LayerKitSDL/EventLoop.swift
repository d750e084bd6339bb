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

    /// For a game that runs its own loop instead of `run()`: delivers this window's pending events to its
    /// callbacks (other windows' events stay queued for the game). Call it on the window's thread.
    public func pumpEvents() {
        assertOwnerThread()
        dispatchPendingEvents()
    }

    /// For a game that runs its own loop instead of `run()`: commits what changed since the last call
    /// (the implicit transaction, layers' redraws), has the render thread draw one frame with it and hand
    /// it to the window's present thread, and returns once that frame is submitted — so the game paces
    /// frames (the next frame waits for this one's present). `onFrame` is not called: the
    /// game updates its layers itself before calling this. Delivers animation callbacks afterwards.
    ///
    /// - Throws: the render thread's error (after recovering from a lost device, the frame is drawn on the
    ///   new one); `LayerWindowError.frameTimedOut` when no frame finished within `timeout`.
    public func renderFrame(timeout: TimeInterval = 1) throws {
        assertOwnerThread()
        prepareCommit(at: CACurrentMediaTime())
        commitTree()
        var drawn = server.drawFrameAndWait(timeout: timeout)
        let losses = deviceLossesRecovered
        try checkRenderError()
        if deviceLossesRecovered != losses { drawn = server.drawFrameAndWait(timeout: timeout) }
        AnimationCallbacks.shared.deliverPending()
        guard drawn else { throw LayerWindowError.frameTimedOut("no frame finished within \(timeout) s") }
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
        prepareCommit(at: time)
        if commitsOncePerFrame && server.hasUntakenCommits {
            // The render thread has not taken the last commit: this tick's changes wait for the next
            // commit, and only the callbacks it posted are delivered now.
            AnimationCallbacks.shared.deliverPending()
        } else {
            commitTree()
        }
    }

    /// What precedes each commit of a frame: layers whose drawn properties animate are redrawn with the
    /// frame's presentation values, and what the window shows is published for tiled layers' visibility
    /// (the root's frame at the window's scale).
    private func prepareCommit(at time: CFTimeInterval) {
        LayerDisplay.redrawAnimatingLayers(at: time)
        publishedViewports = HostViewports.publish(HostViewports.Viewport(rect: rootLayer.frame, scale: rootLayer.contentsScale),
                                                   root: rootLayer, for: self, leaving: publishedViewports)
    }

    /// Commits the implicit transaction; from then on the tree is shown (layers joining it fade in).
    func commitTree() {
        CATransaction.flush()
        rootLayer.isShownRoot = true
    }
}
