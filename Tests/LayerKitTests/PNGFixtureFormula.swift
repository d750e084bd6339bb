/// The formulas of Tools/make-png-fixtures.py (see its header), restated so CGImagePNGTests computes
/// every expected pixel itself, independently of libpng and of the decoder under test.
enum PNGFixtureFormula {
    static func pixels(width: Int, height: Int) -> [(x: Int, y: Int)] {
        (0..<height).flatMap { y in (0..<width).map { x in (x, y) } }
    }

    enum Kind: String {
        case gray, grayAlpha = "graya", rgb, rgba, palette

        var colorType: Int {
            switch self {
            case .gray: return 0
            case .rgb: return 2
            case .palette: return 3
            case .grayAlpha: return 4
            case .rgba: return 6
            }
        }
    }

    struct Variant {
        var kind: Kind
        var depth: Int
        var trns = false
        var adam7 = false
        var width = 7
        var height = 5

        init(_ kind: Kind, _ depth: Int, trns: Bool = false, adam7: Bool = false, width: Int = 7, height: Int = 5) {
            (self.kind, self.depth, self.trns, self.adam7, self.width, self.height) = (kind, depth, trns, adam7, width, height)
        }

        var name: String {
            let size = (width, height) == (7, 5) ? "" : "_\(width)x\(height)"
            return "\(kind.rawValue)\(depth)\(trns ? "_trns" : "")\(adam7 ? "_adam7" : "")\(size)"
        }

        /// The one case decoded to within 1 rather than exactly (see `PNGDecoder.readAdam7SixteenBit`).
        var isDecodedWithinOne: Bool { depth == 16 && adam7 && (kind == .rgba || kind == .grayAlpha) }

        /// Every fixture the script writes from the formulas alone.
        static var all: [Variant] {
            let base: [Variant] = [1, 2, 4, 8, 16].flatMap { [Variant(.gray, $0), Variant(.gray, $0, trns: true)] }
                + [8, 16].flatMap { [Variant(.grayAlpha, $0), Variant(.rgb, $0), Variant(.rgb, $0, trns: true), Variant(.rgba, $0)] }
                + [1, 2, 4, 8].flatMap { [Variant(.palette, $0), Variant(.palette, $0, trns: true)] }
            return base + base.map { Variant($0.kind, $0.depth, trns: $0.trns, adam7: true) }
        }
    }

    static func s(_ x: Int, _ y: Int, _ c: Int) -> Int { 37 * x + 101 * y + 59 * c + 13 * x * y + 7 }

    static func sample(_ x: Int, _ y: Int, _ c: Int, bits: Int) -> Int {
        bits == 16 ? (s(x, y, c) * 2741) % 65536 : s(x, y, c) % (1 << bits)
    }

    static func alpha(_ x: Int, _ y: Int, _ c: Int, bits: Int, width: Int) -> Int {
        if x == 0 { return 0 }
        if x == width - 1 { return (1 << bits) - 1 }
        return sample(x, y, c, bits: bits)
    }

    static func paletteSize(_ depth: Int) -> Int { depth == 8 ? 200 : 1 << depth }
    static func paletteEntry(_ k: Int) -> [Int] { [(67 * k + 11) % 256, (131 * k + 29) % 256, (199 * k + 47) % 256] }
    static func paletteAlpha(_ k: Int, depth: Int) -> Int {
        if k == 0 { return 0 }
        return k < paletteSize(depth) / 2 + 1 ? (83 * k + 5) % 256 : 255
    }

    /// A `bits`-deep sample scaled to 8 bits as the PNG spec and the brief define it.
    static func to8Bits(_ v: Int, from bits: Int) -> Int {
        switch bits {
        case 16: return Int((Double(v) / 257).rounded())
        default: return v * 255 / ((1 << bits) - 1)
        }
    }

    static func straightRGBA(_ v: Variant, x: Int, y: Int) -> [Int] {
        let d = v.depth
        switch v.kind {
        case .gray:
            let g = sample(x, y, 0, bits: d)
            let a = v.trns && g == sample(3, 2, 0, bits: d) ? 0 : 255
            return [to8Bits(g, from: d), to8Bits(g, from: d), to8Bits(g, from: d), a]
        case .grayAlpha:
            let g = to8Bits(sample(x, y, 0, bits: d), from: d)
            return [g, g, g, to8Bits(alpha(x, y, 1, bits: d, width: v.width), from: d)]
        case .rgb:
            let rgb = (0..<3).map { sample(x, y, $0, bits: d) }
            let a = v.trns && rgb == (0..<3).map { sample(3, 2, $0, bits: d) } ? 0 : 255
            return rgb.map { to8Bits($0, from: d) } + [a]
        case .rgba:
            return (0..<3).map { to8Bits(sample(x, y, $0, bits: d), from: d) } + [to8Bits(alpha(x, y, 3, bits: d, width: v.width), from: d)]
        case .palette:
            let k = s(x, y, 0) % paletteSize(d)
            return paletteEntry(k) + [v.trns ? paletteAlpha(k, depth: d) : 255]
        }
    }

    /// Premultiplied as the brief defines it: round(c * a / 255) (no ties: 255 is odd).
    static func premultipliedRGBA(_ v: Variant, x: Int, y: Int) -> [Int] {
        let p = straightRGBA(v, x: x, y: y)
        return p.prefix(3).map { Int((Double($0 * p[3]) / 255).rounded()) } + [p[3]]
    }
}
