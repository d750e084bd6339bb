// The game's SDL window: made by the game, with SDL's Vulkan support, and shown through the game's own
// swapchain (`TileMapGame.Presenter`). LayerKit never sees the window: it draws into the game's frame.
import CSDL2
import CVulkan

final class GameWindow {
    let window: OpaquePointer

    /// A window of `width`×`height` pixels, or nil with SDL's reason when there is no display.
    init(title: String, width: Int, height: Int) throws {
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw GameWindowError(String(cString: SDL_GetError())) }
        guard let window = SDL_CreateWindow(title, Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(width),
                                            Int32(height), SDL_WINDOW_VULKAN.rawValue | SDL_WINDOW_SHOWN.rawValue) else {
            let reason = String(cString: SDL_GetError())
            SDL_Quit()
            throw GameWindowError(reason)
        }
        self.window = window
    }

    deinit {
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// The instance extensions SDL needs for this window's surface.
    func instanceExtensions() throws -> [String] {
        var count: UInt32 = 0
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, nil) == SDL_TRUE else { throw GameWindowError(String(cString: SDL_GetError())) }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(count))
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, &names) == SDL_TRUE else { throw GameWindowError(String(cString: SDL_GetError())) }
        return names.prefix(Int(count)).compactMap { $0.map { String(cString: $0) } }
    }

    /// The window's surface on `instance`.
    func makeSurface(instance: VkInstance) throws -> VkSurfaceKHR {
        var surface: VkSurfaceKHR?
        guard SDL_Vulkan_CreateSurface(window, instance, &surface) == SDL_TRUE, let surface else {
            throw GameWindowError(String(cString: SDL_GetError()))
        }
        return surface
    }

    /// Handles the window's events; false once the player closed it or pressed Escape.
    func pumpEvents() -> Bool {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            if event.type == SDL_QUIT.rawValue { return false }
            if event.type == SDL_KEYDOWN.rawValue && event.key.keysym.sym == Int32(SDLK_ESCAPE.rawValue) { return false }
        }
        return true
    }
}

struct GameWindowError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
