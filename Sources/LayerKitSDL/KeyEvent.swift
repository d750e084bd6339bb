import CSDL2

/// A key pressed or released in a `LayerWindow`.
///
/// `keyName` and `keyCode` follow the keyboard layout (on AZERTY the key where QWERTY has "Q" reports
/// "A"); `scanCode` is the physical position, the same on every layout (for WASD-style controls). A key
/// event is not text: composition, dead keys and input methods need SDL's text events, which LayerKit
/// does not deliver yet.
public struct KeyEvent: Equatable, Sendable {
    /// Modifier keys held during the event.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let shift = Modifiers(rawValue: 1 << 0)
        public static let control = Modifiers(rawValue: 1 << 1)
        /// Alt.
        public static let option = Modifiers(rawValue: 1 << 2)
        /// The Super/Windows/Command key.
        public static let command = Modifiers(rawValue: 1 << 3)
        public static let capsLock = Modifiers(rawValue: 1 << 4)
        public static let numLock = Modifiers(rawValue: 1 << 5)

        /// From SDL's `SDL_Keymod` bits.
        init(sdl mod: UInt16) {
            var result: Modifiers = []
            let bits = UInt32(mod)
            if bits & KMOD_SHIFT.rawValue != 0 { result.insert(.shift) }
            if bits & KMOD_CTRL.rawValue != 0 { result.insert(.control) }
            if bits & KMOD_ALT.rawValue != 0 { result.insert(.option) }
            if bits & KMOD_GUI.rawValue != 0 { result.insert(.command) }
            if bits & KMOD_CAPS.rawValue != 0 { result.insert(.capsLock) }
            if bits & KMOD_NUM.rawValue != 0 { result.insert(.numLock) }
            self = result
        }
    }

    /// The key's name on the current layout, as SDL names it: "A", "Space", "Return", "Escape", "Left".
    public var keyName: String
    /// SDL's keycode (`SDL_Keycode`): layout-dependent; printable keys are their lowercase character.
    public var keyCode: Int32
    /// SDL's scancode (`SDL_Scancode`): the physical key, independent of the layout.
    public var scanCode: Int32
    public var modifiers: Modifiers
    /// Whether this is the keyboard's auto-repeat of a held key.
    public var isRepeat: Bool

    public init(keyName: String, keyCode: Int32, scanCode: Int32, modifiers: Modifiers = [], isRepeat: Bool = false) {
        self.keyName = keyName
        self.keyCode = keyCode
        self.scanCode = scanCode
        self.modifiers = modifiers
        self.isRepeat = isRepeat
    }

    /// From an SDL keyboard event.
    init(_ event: SDL_KeyboardEvent) {
        let name = SDL_GetKeyName(event.keysym.sym).map { String(cString: $0) } ?? ""
        self.init(
            keyName: name, keyCode: event.keysym.sym, scanCode: Int32(event.keysym.scancode.rawValue),
            modifiers: Modifiers(sdl: event.keysym.mod), isRepeat: event.repeat != 0)
    }
}
