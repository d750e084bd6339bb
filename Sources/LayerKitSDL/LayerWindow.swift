import CSDL2
import Foundation
import LayerKitRender
import LayerKitVulkan
import Logging

/// A window that shows a layer tree: the SDL host of LayerKit.
///
///     let window = try LayerWindow(title: "Hello", width: 800, height: 600)
///     window.rootLayer.addSublayer(card)
///     try window.run()
///
/// The root layer is sized to the window in points (`bounds` at the origin, `position` so its frame
/// fills the window) with `contentsScale` the display's scale (drawable pixels per window point), and
/// follows every resize. The thread that creates the window owns it and its layer tree (the main
/// thread): it runs the event loop (`run()`), which dispatches SDL events to the callbacks, calls
/// `onFrame` once per display tick, and commits the implicit transaction with `CATransaction.flush()`
/// (which also delivers animation callbacks). Drawing happens elsewhere: a render server thread applies
/// commits, evaluates animations and presents through a Vulkan swapchain, so a busy main thread never
/// stalls an animation.
///
/// Pacing, under FIFO (the default): the swapchain paces the render thread — a frame starts when the
/// previous frame's present has completed — and each frame's animations are evaluated at the time it
/// will be shown (the last present's time plus the measured present interval, `DisplayTimePredictor`),
/// so animation time steps by the present interval. The event loop follows the same presents: an
/// iteration starts as a present completes (or after one nominal period without one), reads the
/// window's events then, and hands `onFrame` the next frame's predicted display time. Under mailbox and
/// immediate both threads tick on a timer at `framesPerSecond`.
///
/// Environment: `LK_PRESENT_MODE` = `fifo` (default, vsync) | `mailbox` | `immediate`; another value, or a
/// mode the surface lacks, falls back to FIFO with a logged diagnostic. `LK_VALIDATION` and `LK_DEVICE` as
/// for every Vulkan context.
public final class LayerWindow {
    /// The root of the window's layer tree, sized to the window in points.
    public let rootLayer: CALayer

    /// A mouse button went down; `location` in root layer coordinates.
    public var onPointerDown: ((PointerEvent) -> Void)?
    /// The pointer moved (buttons held or not).
    public var onPointerMove: ((PointerEvent) -> Void)?
    /// A mouse button went up.
    public var onPointerUp: ((PointerEvent) -> Void)?
    public var onKeyDown: ((KeyEvent) -> Void)?
    public var onKeyUp: ((KeyEvent) -> Void)?
    /// The mouse wheel or a touchpad scrolled over the window.
    public var onScroll: ((ScrollEvent) -> Void)?
    /// Text typed while `acceptsTextInput` is on (UTF-8, as the keyboard layout and input method make it).
    public var onTextInput: ((String) -> Void)?
    /// Whether typed text is delivered to `onTextInput` (SDL's text input: an input method may show).
    /// Default off.
    public var acceptsTextInput = false {
        didSet {
            guard acceptsTextInput != oldValue else { return }
            if acceptsTextInput { SDL_StartTextInput() } else { SDL_StopTextInput() }
        }
    }
    /// The window changed size (in points), after `rootLayer` was resized (without animation).
    public var onResize: ((CGSize) -> Void)?
    /// The window's close button, or a quit request (Ctrl-C, SIGTERM). When nil, the loop stops.
    public var onQuit: (() -> Void)?
    /// Called on the main thread once per loop iteration (per display tick), before the implicit
    /// transaction is committed, with the time the next frame will be shown (`CACurrentMediaTime()`'s
    /// clock; `CADisplayLink.targetTimestamp`) — a display link.
    public var onFrame: ((CFTimeInterval) -> Void)?

    /// What the last presented frame drew: the render graph's counts and CPU times and recording's
    /// counters, as `CARenderer.lastFrameStatistics` has them, without the GPU's results (the frame may
    /// still be drawing; see `lastCompletedFrameStatistics`).
    public var lastFrameStatistics: FrameStatistics { executor.status.lastFrame }

    /// The most recent frame the GPU has finished, with what it measured (fragments shaded, overdraw,
    /// GPU time; nil where the device cannot measure them); nil before the first such frame.
    public var lastCompletedFrameStatistics: FrameStatistics? { executor.status.lastCompletedFrame }

    /// Frames the render thread has presented since the window opened (frames per second: the change
    /// over a wall-clock interval).
    public var framesPresented: Int { executor.status.framesPresented }

    /// The window's title.
    public var title: String {
        get { SDL_GetWindowTitle(window.handle).map { String(cString: $0) } ?? "" }
        set { SDL_SetWindowTitle(window.handle, newValue) }
    }

    /// The window's size in points.
    public internal(set) var size: CGSize

    /// Drawable pixels per window point.
    public internal(set) var contentsScale: CGFloat

    /// The rate the event loop and the render thread run at, in frames per second: under mailbox and
    /// immediate their timer's; under FIFO the rate assumed until presents are measured, and the loop's
    /// while nothing is presented (the swapchain paces both otherwise).
    public var framesPerSecond: Double { displayLink.framesPerSecond }

    /// The debug views and switches the window draws with (`DebugOptions`: blended, offscreen, overdraw,
    /// batches, rasterize-cache, flash-updates; disable-batching, disable-culling). Starts as `LK_DEBUG`
    /// says; a change applies from the next frame, which is drawn even if nothing else changed.
    public var debugOptions: DebugOptions {
        didSet { server.setDebugOptions(debugOptions) }
    }

    /// The colour each frame starts from, under the root layer (default transparent black, which a
    /// window shows as black). A root whose opaque background covers the window costs the same: that
    /// background is drawn as the clear. A change applies from the next frame.
    public var clearColor: CGColor = .clear {
        didSet { server.setClearColor(clearColor.premultipliedRGBA) }
    }

    /// Whether the loop's implicit commit waits until the render thread has taken the previous one, so
    /// changes made on several ticks between two drawn frames reach it as one commit (its cost is the
    /// distinct properties changed, not the ticks). On by default; off, every iteration commits.
    /// Explicit `CATransaction.begin()`/`commit()` pairs always commit at once.
    public var commitsOncePerFrame = true

    // SDL side (main thread).
    let window: SDLWindowHandle
    let windowID: UInt32
    let displayLink: DisplayLink
    let logger: Logger
    private let ownerThread = pthread_self()
    var isStopRequested = false
    /// The last drawable size sent to the render server.
    var drawableSize: (width: Int, height: Int)
    /// Whether the window is minimized (its frames are skipped until it is restored).
    var isMinimized = false

    // Render side: released in `deinit` before the SDL window goes.
    private var rendering: Rendering?
    private let renderErrors = RenderErrorSlot()
    /// The viewport table of the root layer, once the loop has published what the window shows
    /// (`HostViewports`); left when the window goes away.
    var publishedViewports: HostViewports?

    /// `LK_PRESENTER=swapchain`: present through the Vulkan swapchain even where a CPU device's frames
    /// could go to the window through shared memory (`X11SharedMemoryPresenter`).
    static let presenterEnvironmentVariable = "LK_PRESENTER"

    /// What draws the window: the Vulkan context, the window executor, the render server thread and,
    /// under FIFO, the clock the swapchain's presents pace it by.
    private struct Rendering {
        let context: VulkanContext
        let executor: WindowExecutor
        let server: RenderServer
        /// What the window's event loop follows: the presents, or the render thread's own clock.
        let frames: DisplayLink.Frames

        /// The clock the presents pace (FIFO).
        var pacedClock: PresentPacedClock? {
            if case .presents(let clock) = frames { clock } else { nil }
        }
    }

    /// What the window's rendering is made from, kept to make it again after a device loss.
    private struct RenderingSetup {
        var title: String
        var validation: Bool?
        var presentMode: PresentMode
        var framesPerSecond: Double
        var environment: [String: String]
    }
    private let setup: RenderingSetup

    /// Device losses the window recovered from: each time, the window made a new device and drew its
    /// whole tree again from the model, which loses nothing.
    public private(set) var deviceLossesRecovered = 0
    /// Called on the window's thread after the window recovered from a device loss (other render errors
    /// end `run()` with the error).
    public var onDeviceLost: (() -> Void)?

    /// Makes the Vulkan context (an instance with SDL's surface extensions, a device that can present),
    /// the window's surface, the window executor and the render server showing `root` — the whole
    /// model tree, as committed — at the window's current size.
    private static func makeRendering(_ setup: RenderingSetup, window: OpaquePointer, root: CALayer, points: CGSize,
                                      pixels: (width: Int, height: Int), scale: CGFloat, debugOptions: DebugOptions,
                                      errors: RenderErrorSlot, logger: Logger) throws -> Rendering {
        let context = try VulkanContext(
            applicationName: setup.title, validation: setup.validation,
            instanceExtensions: try SDLVulkanSurface.instanceExtensions(for: window),
            deviceExtensions: WindowExecutor.requiredDeviceExtensions)
        let surface = try SDLVulkanSurface.makeSurface(for: window, context: context)
        // FIFO: the swapchain paces the frames (each starts when the last present completed, at its
        // predicted display time). Mailbox and immediate never hold a present back: a timer at the
        // window's rate paces them, as fast as frames go for a benchmark's 1,000 Hz.
        let pacedClock = setup.presentMode == .fifo ? PresentPacedClock(nominalFramesPerSecond: setup.framesPerSecond, maximumFramesPerSecond: setup.framesPerSecond) : nil
        // A CPU device's frames are in host memory already: under X11 they go to the window through shared
        // memory instead of the swapchain's copy through the X connection (`X11SharedMemoryPresenter`),
        // unless LK_PRESENTER=swapchain asks for the swapchain.
        let hostPresenter = context.rendersOnCPU && setup.environment[Self.presenterEnvironmentVariable] != "swapchain"
            ? X11SharedMemoryPresenter(window: window) : nil
        let executor = try WindowExecutor(context: context, surface: surface, presentMode: setup.presentMode, presentObserver: pacedClock,
                                             hostPresenter: hostPresenter)
        let frames: DisplayLink.Frames = pacedClock.map { .presents($0) } ?? .rendered(DisplayClock(framesPerSecond: setup.framesPerSecond))
        let server = RenderServer(
            root: root,
            builder: RenderGraphBuilder(
                targetWidth: pixels.width, targetHeight: pixels.height, viewport: CGRect(origin: .zero, size: points), scale: scale),
            clock: frames.renderClock, executor: executor, debugOptions: debugOptions,
            trace: TraceRecorder.fromEnvironment(setup.environment),
            onError: { error in
                logger.error("render thread: \(error)")
                errors.record(error)
            })
        return Rendering(context: context, executor: executor, server: server, frames: frames)
    }

    /// Makes `rendering` the window's and starts its render thread (its swapchain suspended while the
    /// window is minimized), and has process exit stop it before the window goes (`OpenWindows`).
    private func start(_ rendering: Rendering) {
        self.rendering = rendering
        displayLink.follow(rendering.frames)
        if isMinimized { rendering.executor.setSuspended(true) }
        rendering.server.start()
        OpenWindows.shared.register(self) { [weak server = rendering.server, weak executor = rendering.executor] in
            server?.stop()
            executor?.waitUntilIdle()
        }
    }

    /// After the render thread lost the device: stops it, lets go of everything made on the old device,
    /// and makes the window's rendering again — a new device, surface, swapchain and render server that
    /// shows the model tree in full (every layer's content uploaded again; nothing of the model lost),
    /// with the window's debug views and clear colour.
    func recoverFromDeviceLoss() throws {
        assertOwnerThread()
        rendering?.server.stop()
        // The stopped thread's report of the loss, if it came after the executor's, is handled here.
        if let error = takeRenderError(), (error as? VulkanError)?.isDeviceLost != true { logger.error("render thread: \(error)") }
        OpenWindows.shared.deregister(self)
        rendering = nil
        let rendering = try Self.makeRendering(setup, window: window.handle, root: rootLayer, points: size, pixels: drawableSize,
                                               scale: contentsScale, debugOptions: debugOptions, errors: renderErrors, logger: logger)
        rendering.server.setClearColor(clearColor.premultipliedRGBA)
        start(rendering)
        deviceLossesRecovered += 1
    }

    /// Test hook: the render thread's next submit reports `VK_ERROR_DEVICE_LOST`, as a lost device would.
    func loseDeviceAtNextSubmit() {
        executor.loseDeviceAtNextSubmit()
    }

    /// Options tests and tools use to run faster than the display or pick a present mode in code.
    struct Options {
        /// Overrides the display's refresh rate for the event loop and the render thread.
        var framesPerSecond: Double?
        /// Overrides `LK_PRESENT_MODE`.
        var presentMode: PresentMode?
        /// Force validation on or off; nil reads `LK_VALIDATION`.
        var validation: Bool?
        var environment = ProcessInfo.processInfo.environment
    }

    /// Opens a `width`×`height`-point window titled `title`, resizable, on the current display.
    ///
    /// - Throws: `LayerWindowError.noDisplay` when SDL cannot open a display (no `DISPLAY`, or SDL's video
    ///   subsystem fails); the backend's `VulkanError` when Vulkan is missing or unusable (its message names
    ///   the Debian package to install); `LayerWindowError.windowCreationFailed` /
    ///   `.surfaceCreationFailed` when SDL fails later.
    /// - Parameter preferredFramesPerSecond: the rate the event loop and the render thread tick at (as
    ///   `CADisplayLink.preferredFramesPerSecond`); nil, the default, is the display's refresh rate. A rate
    ///   above what frames can sustain (a benchmark's 1,000) leaves the frame's own work and the present
    ///   mode to set the pace.
    public convenience init(title: String, width: Int, height: Int, preferredFramesPerSecond: Double? = nil) throws {
        var options = Options()
        options.framesPerSecond = preferredFramesPerSecond.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        try self.init(title: title, width: width, height: height, options: options)
    }

    /// Shows a layer tree in the app's own SDL window (a game's), which must have been created with
    /// `SDL_WINDOW_VULKAN`: LayerKit makes its Vulkan surface, swapchain and render thread for it, and
    /// never destroys the window. The window's events reach this object's callbacks when it pumps them
    /// (`run()` or `pumpEvents()`); other windows' events stay queued.
    ///
    /// - Throws: `LayerWindowError.windowCreationFailed` for a window without Vulkan support; as
    ///   `init(title:width:height:)` otherwise.
    public convenience init(sdlWindow: OpaquePointer, preferredFramesPerSecond: Double? = nil) throws {
        var options = Options()
        options.framesPerSecond = preferredFramesPerSecond.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        try self.init(adopting: sdlWindow, options: options)
    }

    convenience init(title: String, width: Int, height: Int, options: Options) throws {
        guard width > 0, height > 0 else {
            throw LayerWindowError.windowCreationFailed("a window needs a positive size in points, got \(width)x\(height)")
        }
        let video = SDLVideo.shared
        try video.start(environment: options.environment)
        let flags = SDL_WINDOW_VULKAN.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_SHOWN.rawValue
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        guard let handle = SDL_CreateWindow(title, centered, centered, Int32(clamping: width), Int32(clamping: height), flags) else {
            throw LayerWindowError.windowCreationFailed("SDL_CreateWindow (\(video.driverName)): \(sdlErrorMessage())")
        }
        try self.init(window: SDLWindowHandle(handle), title: title, options: options)
    }

    convenience init(adopting handle: OpaquePointer, options: Options) throws {
        try SDLVideo.shared.start(environment: options.environment)
        guard SDL_GetWindowFlags(handle) & SDL_WINDOW_VULKAN.rawValue != 0 else {
            throw LayerWindowError.windowCreationFailed("the app's SDL window was not created with SDL_WINDOW_VULKAN")
        }
        try self.init(window: SDLWindowHandle(handle, owned: false), title: String(cString: SDL_GetWindowTitle(handle)), options: options)
    }

    private init(window: SDLWindowHandle, title: String, options: Options) throws {
        var logger = Logger(label: "LayerKit.SDL")
        logger[metadataKey: "subsystem"] = "sdl"
        self.logger = logger
        let video = SDLVideo.shared
        let handle = window.handle
        self.window = window
        windowID = SDL_GetWindowID(handle)

        // Geometry, in points and pixels.
        var pointWidth: Int32 = 0
        var pointHeight: Int32 = 0
        SDL_GetWindowSize(handle, &pointWidth, &pointHeight)
        let points = CGSize(width: CGFloat(pointWidth), height: CGFloat(pointHeight))
        let pixels = SDLVulkanSurface.drawableSize(of: handle)
        let scale = Self.scale(points: points, pixels: pixels)
        size = points
        contentsScale = scale
        drawableSize = pixels

        let presentMode: PresentMode
        if let forced = options.presentMode {
            presentMode = forced
        } else {
            let (parsed, diagnostic) = PresentMode.parse(options.environment[PresentMode.environmentVariable])
            if let diagnostic { logger.warning("\(diagnostic.description)", metadata: ["diagnostic": .string(diagnostic.name)]) }
            presentMode = parsed
        }
        let refreshRate = DisplayLink.refreshRate(of: handle)
        let framesPerSecond = options.framesPerSecond ?? refreshRate
        displayLink = DisplayLink(framesPerSecond: framesPerSecond, displayRefreshRate: refreshRate)

        let root = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(origin: .zero, size: points)
        root.position = CGPoint(x: points.width * root.anchorPoint.x, y: points.height * root.anchorPoint.y)
        root.contentsScale = scale
        CATransaction.commit()
        rootLayer = root

        debugOptions = DebugOptions.fromEnvironment(options.environment)
        setup = RenderingSetup(title: title, validation: options.validation, presentMode: presentMode, framesPerSecond: framesPerSecond,
                               environment: options.environment)
        let rendering = try Self.makeRendering(setup, window: handle, root: root, points: points, pixels: pixels, scale: scale,
                                               debugOptions: debugOptions, errors: renderErrors, logger: logger)
        isMinimized = pixels.width == 0 || pixels.height == 0
        start(rendering)
        let context = rendering.context
        logger.debug("window open", metadata: [
            "size": "\(points.width)x\(points.height) pt, \(pixels.width)x\(pixels.height) px", "fps": "\(framesPerSecond)",
            "device": "\(context.deviceName)", "video": "\(video.driverName)",
        ])
    }

    deinit {
        // The render thread stops and the swapchain and surface go before the SDL window they draw into.
        OpenWindows.shared.deregister(self)
        publishedViewports?.remove(self)
        rendering?.server.stop()
        rendering = nil
    }

    // MARK: Internals shared by the loop, the events and the tests

    var context: VulkanContext { rendering!.context }
    var executor: WindowExecutor { rendering!.executor }
    /// Whether the window's Vulkan device is a CPU implementation (tests).
    var renderingOnCPU: Bool { context.rendersOnCPU }
    var server: RenderServer { rendering!.server }

    /// The window's last presented frames under FIFO (each frame's animation time and when its present
    /// completed, oldest first; at most `PresentPacedClock.historyLimit`); empty in other present modes.
    /// For measuring pacing (LayerKitBench `--pacing`).
    package var presentedFrames: [PresentedFrame] { rendering?.pacedClock?.presentedFrames ?? [] }

    /// The measured, smoothed interval between presents under FIFO; nil in other present modes.
    package var presentInterval: Double? { rendering?.pacedClock?.presentInterval }

    /// Traps (in debug builds) when called off the thread that created the window.
    func assertOwnerThread(_ function: StaticString = #function) {
        assert(pthread_equal(pthread_self(), ownerThread) != 0, "LayerWindow.\(function) called off the thread that created the window")
    }

    /// The first error the render thread reported since the last call, if any.
    func takeRenderError() -> Error? { renderErrors.take() }

    /// Throws the render thread's last error, except a lost device, which is recovered from
    /// (`recoverFromDeviceLoss`, then `onDeviceLost`).
    func checkRenderError() throws {
        if let error = takeRenderError() {
            guard let vulkan = error as? VulkanError, vulkan.isDeviceLost else { throw error }
            logger.error("the device was lost (\(vulkan)); making the window's rendering again")
        } else {
            // The executor knows before the render thread reports it.
            guard executor.hasLostDevice else { return }
            logger.error("the device was lost; making the window's rendering again")
        }
        try recoverFromDeviceLoss()
        onDeviceLost?()
    }

    static func scale(points: CGSize, pixels: (width: Int, height: Int)) -> CGFloat {
        guard points.width > 0, pixels.width > 0 else { return 1 }
        return CGFloat(pixels.width) / points.width
    }
}

/// Owns an `SDL_Window`; destroys it when released.
final class SDLWindowHandle {
    let handle: OpaquePointer
    /// Whether the window is LayerKit's (an app's own window is only borrowed, never destroyed).
    let ownsWindow: Bool

    init(_ handle: OpaquePointer, owned: Bool = true) {
        self.handle = handle
        ownsWindow = owned
    }

    deinit {
        if ownsWindow { SDL_DestroyWindow(handle) }
    }
}
