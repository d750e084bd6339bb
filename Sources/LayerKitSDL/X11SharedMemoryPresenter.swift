import CSDL2
import CXCB
import Foundation
import LayerKitVulkan

/// Shows a window's frames through the X server's shared-memory images (MIT-SHM), on an X connection of
/// its own: the `HostPresenter` of an SDL window under X11 when the Vulkan device is a CPU.
///
/// Why: without DRI3 (Xvfb, remote and virtual displays), lavapipe's swapchain writes each frame into
/// the X connection's socket inside `vkQueuePresentKHR` while holding the queue; here the server copies
/// the frame out of a shared segment instead, on the present thread, while the queue renders the next.
/// Measured on Xvfb at 1280×720 (LayerKitBench windows, alternating runs): `empty` 291 / 139 → 993 / 863
/// fps, `city` 39.0 / 40.0 → 44.3 / 46.0, `groups_live` 124 / 118 → 174 / 150.
/// Input: the SDL window (its X11 window id, through `SDL_GetWindowWMInfo`). Made only when the window is
/// on X11, the server offers MIT-SHM and the window's visual is 24 or 32 bits deep at 32 bits per pixel
/// in little-endian order (B, G, R, X bytes: `WindowExecutor.hostPixelFormat`), and the server can
/// attach a segment of this machine's; otherwise `init` returns nil and the window keeps its swapchain.
/// Per frame (`present`): the pixels are copied into the segment (made again when the frame outgrows
/// it), `ShmPutImage` draws them at the window's top-left corner, and a round trip makes sure the server
/// has read the segment before the next frame writes it.
/// Threading: `present` runs on the executor's present thread only; `init` and `deinit` on the window's
/// thread while no present runs (the executor is made after and released before it). The connection is
/// this object's alone, so SDL's own X connection on the window's thread is never shared.
final class X11SharedMemoryPresenter: HostPresenter, @unchecked Sendable {
    private let connection: OpaquePointer
    private let window: xcb_window_t
    private let graphicsContext: xcb_gcontext_t
    private let depth: UInt8
    /// The shared segment: its server-side id, its address here, its size in bytes.
    private var segment: (id: xcb_shm_seg_t, address: UnsafeMutableRawPointer, size: Int)?

    /// Nil when the window cannot be presented to this way (see the type's contract).
    init?(window sdlWindow: OpaquePointer) {
        var info = SDL_SysWMinfo()
        SDL_GetVersion(&info.version)
        guard SDL_GetWindowWMInfo(sdlWindow, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11 else { return nil }
        window = xcb_window_t(truncatingIfNeeded: info.info.x11.window)
        // SDL opened the display named by DISPLAY (or its hint); the window id means the same on any
        // connection to that server.
        guard let connection = xcb_connect(nil, nil) else { return nil }
        guard xcb_connection_has_error(connection) == 0, Self.offersSharedMemory(connection),
              let depth = Self.drawableDepth(of: window, on: connection) else {
            xcb_disconnect(connection)
            return nil
        }
        self.connection = connection
        self.depth = depth
        graphicsContext = xcb_generate_id(connection)
        xcb_create_gc(connection, graphicsContext, window, 0, nil)
        // A server on another machine offers MIT-SHM but cannot attach this machine's segments: find out
        // now, while the swapchain can still be chosen.
        guard let probe = attachSegment(size: 4096) else { return nil }
        segment = probe
    }

    deinit {
        detachSegment()
        xcb_free_gc(connection, graphicsContext)
        xcb_disconnect(connection)
    }

    func present(pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) -> Bool {
        let rowBytes = width * 4, size = rowBytes * height
        guard width > 0, height > 0, width <= Int(UInt16.max), height <= Int(UInt16.max), bytesPerRow >= rowBytes else { return false }
        if (segment?.size ?? 0) < size {
            detachSegment()
            guard let made = attachSegment(size: size) else { return false }
            segment = made
        }
        guard let segment else { return false }
        PackedRows.copy(rows: height, of: rowBytes, from: pixels, bytesPerRow: bytesPerRow, to: segment.address)
        xcb_shm_put_image(connection, window, graphicsContext, UInt16(width), UInt16(height), 0, 0, UInt16(width), UInt16(height),
                          0, 0, depth, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), 0, segment.id, 0)
        // The server copies the image while it handles the request: once a later request is answered,
        // the segment may be written again.
        free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil))
        return xcb_connection_has_error(connection) == 0
    }

    /// A System V segment of `size` bytes attached here and on the server; it goes away once both detach.
    private func attachSegment(size: Int) -> (id: xcb_shm_seg_t, address: UnsafeMutableRawPointer, size: Int)? {
        let identifier = shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
        guard identifier >= 0 else { return nil }
        defer { shmctl(identifier, IPC_RMID, nil) }
        guard let address = shmat(identifier, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        let id = xcb_generate_id(connection)
        let error = xcb_request_check(connection, xcb_shm_attach_checked(connection, id, UInt32(identifier), 0))
        guard error == nil else {
            free(error)
            shmdt(address)
            return nil
        }
        return (id, address, size)
    }

    private func detachSegment() {
        guard let segment else { return }
        xcb_shm_detach(connection, segment.id)
        // The server must be done with it before it is unmapped here.
        free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil))
        shmdt(segment.address)
        self.segment = nil
    }

    private static func offersSharedMemory(_ connection: OpaquePointer) -> Bool {
        guard let reply = xcb_shm_query_version_reply(connection, xcb_shm_query_version(connection), nil) else { return false }
        free(reply)
        return true
    }

    /// The window's depth, when it is 24 or 32 with 32 bits per pixel and little-endian images.
    private static func drawableDepth(of window: xcb_window_t, on connection: OpaquePointer) -> UInt8? {
        guard let geometry = xcb_get_geometry_reply(connection, xcb_get_geometry(connection, window), nil) else { return nil }
        let depth = geometry.pointee.depth
        free(geometry)
        guard depth == 24 || depth == 32, let setup = xcb_get_setup(connection),
              setup.pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_LSB_FIRST.rawValue) else { return nil }
        var formats = xcb_setup_pixmap_formats_iterator(setup)
        while formats.rem > 0 {
            if formats.data.pointee.depth == depth { return formats.data.pointee.bits_per_pixel == 32 ? depth : nil }
            xcb_format_next(&formats)
        }
        return nil
    }
}
