import Foundation
import LayerKit

/// Executes render graphs: the backend's side of the render server (a Vulkan headless target, a
/// swapchain, or a recorder in tests).
package protocol RenderGraphExecutor: AnyObject {
    /// Draws `graph`; called on the render thread only.
    func execute(_ graph: RenderGraph) throws

    /// What the last `execute` did (the graph's statistics plus the backend's), for `LK_STATS`; nil when
    /// the backend does not say. Called on the render thread after `execute`.
    var lastFrameStatistics: FrameStatistics? { get }

    /// What the backend's frame target and device offer (`BackendCapabilities`); the server's frames
    /// are built for it.
    var capabilities: BackendCapabilities { get }

    /// Rasterization cache entries whose images the backend no longer holds (memory pressure, or frames
    /// it could not draw), since the last call; the render server's cache forgets them.
    func takeLostRasterizations() -> [RasterizationEntryID]
}

extension RenderGraphExecutor {
    package var lastFrameStatistics: FrameStatistics? { nil }
    package var capabilities: BackendCapabilities { BackendCapabilities() }
    package func takeLostRasterizations() -> [RasterizationEntryID] { [] }
}

/// The render server: owns the render tree on its own thread, applies commits, evaluates animations at
/// each display tick and hands graphs to the backend.
///
/// Contract: `receive(_:)` may be called from any thread (commits queue up); everything else happens on
/// the render thread (`assertOnRenderThread()`). A tick with nothing committed, nothing animating and no
/// frame requested (`resize`, `setNeedsFrame`) renders nothing; the thread then sleeps until the next
/// commit instead of spinning. Animation events go to `AnimationCallbacks` for the main thread. A busy
/// main thread never stalls a frame. Debug options (`setDebugOptions`) apply from the next frame; with
/// `LK_STATS` each second's frame statistics are printed (the graph's, completed by the executor's
/// `lastFrameStatistics` when it has them); with `LK_TRACE` commits and frames are traced
/// (`TraceRecorder`, written when the server stops and at exit).
package final class RenderServer: @unchecked Sendable {
    /// Frames executed so far.
    package var framesRendered: Int {
        lock.lock()
        defer { lock.unlock() }
        return renderedCount
    }

    private let clock: FrameClock
    private let executor: RenderGraphExecutor
    private var producer: FrameProducer
    private let lock: NSCondition
    private let inbox: CommitInbox
    /// A new target size and viewport, applied before the next frame (`resize`).
    private var pendingResize: (width: Int, height: Int, viewport: CGRect, scale: CGFloat)?
    /// Whether the next tick draws even with nothing changed (`resize`, `setNeedsFrame`).
    private var frameRequested = false
    /// Debug options to use from the next frame on (`setDebugOptions`).
    private var pendingDebugOptions: DebugOptions?
    /// The clear colour to use from the next frame on (`setClearColor`).
    private var pendingClearColor: SIMD4<Float>?
    /// Prints frame statistics each second when `LK_STATS` asks.
    private let statisticsReporter = StatisticsReporter.fromEnvironment()
    /// Records commits and frames when `LK_TRACE` asks (or the host passes one); the render thread records
    /// frames, committing threads record commits (the recorder locks).
    private let trace: TraceRecorder?
    private var renderedCount = 0
    private var running = false
    private var thread: Thread?
    /// Signalled by the render thread as it returns (`stop()` waits for it).
    private let exited = DispatchSemaphore(value: 0)
    private let onError: @Sendable (Error) -> Void

    /// A server drawing `root` (a snapshot of its current state is its starting tree) with the debug
    /// views and switches `debugOptions`, tracing into `trace` (by default `LK_TRACE`'s).
    package init(root: CALayer, builder: RenderGraphBuilder, clock: FrameClock, executor: RenderGraphExecutor,
                 debugOptions: DebugOptions = [], trace: TraceRecorder? = TraceRecorder.fromEnvironment(),
                 onError: @escaping @Sendable (Error) -> Void = { _ in }) {
        CATransaction.flush()
        let condition = NSCondition()
        lock = condition
        self.trace = trace
        // A commit wakes the render thread.
        inbox = CommitInbox(onReceive: { condition.lock(); condition.signal(); condition.unlock() }, trace: trace)
        producer = FrameProducer(builder: builder, capabilities: executor.capabilities, debugOptions: debugOptions)
        producer.reset(root: root.layerID, snapshot: inbox.show(root))
        self.clock = clock
        self.executor = executor
        self.onError = onError
    }

    deinit { stop() }

    /// Changes the target's size in pixels and the viewport (the region of the root's superlayer space
    /// shown, in points, at `scale` pixels per point) — a window was resized. Any thread; applied on the
    /// render thread before the next frame, which is drawn even if nothing else changed.
    package func resize(width: Int, height: Int, viewport: CGRect, scale: CGFloat) {
        lock.lock()
        pendingResize = (width, height, viewport, scale)
        frameRequested = true
        lock.signal()
        lock.unlock()
    }

    /// Switches debug views and switches (`DebugOptions`) from the next frame on, which is drawn even if
    /// nothing else changed. Any thread.
    package func setDebugOptions(_ options: DebugOptions) {
        lock.lock()
        pendingDebugOptions = options
        frameRequested = true
        lock.signal()
        lock.unlock()
    }

    /// Clears frames to `rgba` (premultiplied) from the next frame on, which is drawn even if nothing else
    /// changed. Any thread.
    package func setClearColor(_ rgba: SIMD4<Float>) {
        lock.lock()
        pendingClearColor = rgba
        frameRequested = true
        lock.signal()
        lock.unlock()
    }

    /// Whether a commit is waiting that the render thread has not taken yet (a host that commits once per
    /// frame drawn waits for it). Any thread.
    package var hasUntakenCommits: Bool { !inbox.isEmpty }

    /// Draws one more frame even if nothing changed (a window was restored, a snapshot is wanted). Any thread.
    package func setNeedsFrame() {
        lock.lock()
        frameRequested = true
        lock.signal()
        lock.unlock()
    }

    /// Asks for a frame now and waits until the render thread has finished one that started after this
    /// call — drawn, or failed (its error goes to `onError`). False when `timeout` passed first. Any
    /// thread but the render thread.
    package func drawFrameAndWait(timeout: TimeInterval) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        requestSerial += 1
        let request = requestSerial
        frameRequested = true
        lock.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while servedSerial < request && running {
            if !lock.wait(until: deadline) { return false }
        }
        return servedSerial >= request
    }

    /// Frame requests made (`drawFrameAndWait`), and the last one a finished frame had taken (guarded
    /// by `lock`): a frame under way when a request came took the commits before it, so only a frame
    /// that took the request serves it.
    private var requestSerial = 0
    private var servedSerial = 0

    /// Starts the render thread.
    package func start() {
        lock.lock()
        guard !running else { return lock.unlock() }
        running = true
        lock.unlock()
        let exited = self.exited
        let thread = Thread { [unowned self] in
            self.run()
            exited.signal()  // `stop()` waits for it: everything the thread did happens before stop returns
        }
        thread.name = Self.threadName
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Stops the render thread and waits for it to finish its frame; then writes the trace, if any.
    package func stop() {
        lock.lock()
        guard running else { return lock.unlock() }
        running = false
        lock.broadcast()
        lock.unlock()
        clock.stop()
        exited.wait()
        thread = nil
        trace?.write()
    }

    /// The render thread's name (its trace track's too).
    private static let threadName = "LayerKit render server"

    /// Marks the requests the finished tick (drawn, failed, or nothing to draw) took as served.
    private func finishFrame(serving request: Int) {
        lock.lock()
        servedSerial = max(servedSerial, request)
        lock.broadcast()
        lock.unlock()
    }

    package func assertOnRenderThread() {
        assert(Thread.current === thread, "render-server state touched off the render thread")
    }

    private func run() {
        while true {
            // Sleep while there is nothing to draw: no commits waiting, nothing animating.
            lock.lock()
            while running && inbox.isEmpty && !frameRequested && !producer.needsFrame { lock.wait() }
            let keepRunning = running
            lock.unlock()
            guard keepRunning, let time = clock.waitForNextFrame() else { return }
            let began = StageClock.now()
            lock.lock()
            let packets = inbox.take()
            let resize = pendingResize
            pendingResize = nil
            let forced = frameRequested
            frameRequested = false
            let request = requestSerial
            let debugOptions = pendingDebugOptions
            pendingDebugOptions = nil
            let clearColor = pendingClearColor
            pendingClearColor = nil
            lock.unlock()
            if let debugOptions { producer.debugOptions = debugOptions }
            if let clearColor { producer.clearColor = clearColor }
            assertOnRenderThread()
            for packet in packets { producer.apply(packet) }
            if let resize {
                producer.builder.targetWidth = resize.width
                producer.builder.targetHeight = resize.height
                producer.builder.viewport = resize.viewport
                producer.builder.scale = resize.scale
            }
            guard producer.needsFrame || forced else { finishFrame(serving: request); continue }
            let produceStarted = StageClock.now()
            let (graph, events) = producer.produceFrame(at: time)
            AnimationCallbacks.shared.post(events)
            do {
                let executeStarted = StageClock.now()
                try executor.execute(graph)
                let executeEnded = StageClock.now()
                lock.lock()
                renderedCount += 1
                lock.unlock()
                statisticsReporter?.record(executor.lastFrameStatistics ?? graph.statistics, graph: graph)
                trace?.recordFrame(executor.lastFrameStatistics ?? graph.statistics, timeline: FrameTimeline(
                    began: began, produceStarted: produceStarted, executeStarted: executeStarted, executeEnded: executeEnded,
                    thread: .current(named: Self.threadName)))
            } catch {
                producer.forgetBitmaps(drawnBy: graph)
                onError(error)
            }
            // Bitmaps the backend dropped (memory pressure, skipped frames) must be drawn again.
            let lost = executor.takeLostRasterizations()
            if !lost.isEmpty { producer.builder.rasterizationCache.forget(lost) }
            finishFrame(serving: request)
        }
    }
}
