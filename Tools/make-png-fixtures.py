#!/usr/bin/env python3
"""Writes the PNG fixtures for Tests/LayerKitTests/CGImagePNGTests.swift.

Usage: Tools/make-png-fixtures.py [OUTPUT_DIR]
       (default: Tests/LayerKitTests/Fixtures/png next to this script's repository root)

Standard library only (zlib + struct): the PNG writer below -- chunk framing, bit packing, the five
scanline filters and Adam7 interlacing -- is written out here, so the fixtures do not come from the
library (libpng) whose decoding they check. Output is deterministic for a given zlib.

Every valid fixture is W x H = 7 x 5 pixels unless its name ends in _WxH (so every Adam7 pass is non-empty and no row of 1-, 2- or
4-bit samples fills whole bytes). Each sample is a known formula of the pixel column x, row y and the
channel index c inside the PNG's own color type (gray 0; gray+alpha 0, 1; RGB 0, 1, 2; RGBA 0..3):

    s(x, y, c)            = 37*x + 101*y + 59*c + 13*x*y + 7
    sample(x, y, c, bits) = s(x, y, c) mod 2^bits                 for bits in 1, 2, 4, 8
    sample(x, y, c, 16)   = (s(x, y, c) * 2741) mod 65536

Alpha channels (gray+alpha, RGBA) use c = index of the alpha channel, except at the edges so that every
alpha image holds both extremes:

    alpha(x, y, c, bits)  = 0 when x == 0;  2^bits - 1 when x == W - 1;  else sample(x, y, c, bits)

Palette images (bit depth d) have N = 2^d entries for d in 1, 2, 4 and N = 200 for d = 8 (a palette
shorter than 256 entries):

    index(x, y)  = s(x, y, 0) mod N
    palette[k]   = ((67*k + 11) mod 256, (131*k + 29) mod 256, (199*k + 47) mod 256)
    tRNS (palette), T = N // 2 + 1 entries (shorter than the palette; entries k >= T are opaque):
    palette_alpha[k] = 0 when k == 0;  (83*k + 5) mod 256 when 0 < k < T;  255 when k >= T

Transparent-key tRNS (gray and RGB): the key is the color of pixel (3, 2); every pixel with exactly that
color (compared at the file's bit depth) is fully transparent, every other pixel opaque.

Scanline filters cycle per row of each (reduced) image: filter type = row index mod 5
(None, Sub, Up, Average, Paeth), so decoders must undo all five.

Names: <colortype><depth>[_trns][_adam7].png with colortype gray, graya, rgb, rgba, palette.
Special fixtures (same formulas):
    rgb8_gamma1.png           rgb8 plus gAMA = 1.0 (linear); LayerKit ignores gAMA, pixels as rgb8
    rgba8_opaque.png          RGBA whose alpha is 255 everywhere; color as rgb8
    rgb8_chunky.png           rgb8 with the zlib stream split over many small IDAT chunks, and tEXt
                              and a private ancillary chunk (lkTs) before and after them
    rgb8_bad_text_crc.png     rgb8 with a tEXt chunk whose CRC is wrong (ancillary: skipped, not fatal)
    rgba16_adam7_64x48.png    rgba16_adam7 and graya16_adam7 at 64 x 48 (W = 64 in the alpha formula)
    graya16_adam7_64x48.png
Invalid fixtures (each must fail with a specific CGImageError; see the Swift tests):
    invalid_huge_dimensions   IHDR 20000 x 20000 (4e8 pixels, over LayerKit's 2^28 limit), valid CRC
    invalid_wide              IHDR 1000001 x 1 (over libpng's 1,000,000-pixel side limit)
    invalid_max_dimensions    IHDR 2^31-1 x 2^31-1
    invalid_zero_width        IHDR width 0
    invalid_ihdr_crc          rgb8 with the IHDR CRC flipped
    invalid_idat_crc          rgb8 with the IDAT CRC flipped
    invalid_bit_depth         RGB with bit depth 3
    invalid_deflate           IDAT that is not a zlib stream (CRC valid)
    invalid_short_image_data  IDAT holding only the first 2 of 5 rows
    invalid_no_idat           IHDR then IEND
    invalid_missing_plte      palette image without PLTE
    invalid_first_chunk       a tEXt chunk before IHDR
"""

import os
import struct
import sys
import zlib

W, H = 7, 5
SIGNATURE = b"\x89PNG\r\n\x1a\n"

GRAY, RGB, PALETTE, GRAY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}
ALPHA_CHANNEL = {GRAY_ALPHA: 1, RGBA: 3}
NAMES = {GRAY: "gray", RGB: "rgb", PALETTE: "palette", GRAY_ALPHA: "graya", RGBA: "rgba"}

# Adam7: (x0, y0, dx, dy) of each pass.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


# ---- the formulas (mirrored in CGImagePNGTests.swift) ----

def s(x, y, c):
    return 37 * x + 101 * y + 59 * c + 13 * x * y + 7


def sample(x, y, c, bits):
    if bits == 16:
        return (s(x, y, c) * 2741) % 65536
    return s(x, y, c) % (1 << bits)


def alpha(x, y, c, bits, width=W):
    if x == 0:
        return 0
    if x == width - 1:
        return (1 << bits) - 1
    return sample(x, y, c, bits)


def palette_size(depth):
    return 200 if depth == 8 else 1 << depth


def palette_index(x, y, depth):
    return s(x, y, 0) % palette_size(depth)


def palette_entry(k):
    return ((67 * k + 11) % 256, (131 * k + 29) % 256, (199 * k + 47) % 256)


def palette_trns_count(depth):
    return palette_size(depth) // 2 + 1


def palette_alpha(k, depth):
    if k == 0:
        return 0
    if k < palette_trns_count(depth):
        return (83 * k + 5) % 256
    return 255


def pixel_samples(color_type, depth, x, y, width=W):
    """The samples of pixel (x, y) as stored in the file (palette: the index)."""
    if color_type == PALETTE:
        return [palette_index(x, y, depth)]
    out = []
    for c in range(CHANNELS[color_type]):
        if ALPHA_CHANNEL.get(color_type) == c:
            out.append(alpha(x, y, c, depth, width))
        else:
            out.append(sample(x, y, c, depth))
    return out


# ---- the PNG writer ----

def chunk(kind, data, crc=None):
    if crc is None:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def ihdr(width, height, depth, color_type, interlace):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, interlace))


def pack_row(samples, depth):
    """Packs a row of samples: sub-byte depths MSB first, padded to a byte; 16-bit big-endian."""
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in samples)
    if depth == 8:
        return bytes(samples)
    out = bytearray()
    acc, nbits = 0, 0
    for v in samples:
        acc = (acc << depth) | v
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    if pb <= pc:
        return b
    return c


def filter_row(kind, row, prev, bpp):
    out = bytearray([kind])
    for i, v in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev is not None else 0
        c = prev[i - bpp] if prev is not None and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((v - predictor) & 0xFF)
    return bytes(out)


def scanlines(pixels, width, height, depth, channels):
    """Filtered scanlines of one (reduced) image; pixels[y][x] is a list of samples."""
    bpp = max(1, channels * depth // 8)
    out, prev = bytearray(), None
    for y in range(height):
        samples = [v for x in range(width) for v in pixels[y][x]]
        row = pack_row(samples, depth)
        out += filter_row(y % 5, row, prev, bpp)
        prev = row
    return bytes(out)


def image_data(color_type, depth, interlace, width=W, height=H, rows=None):
    channels = CHANNELS[color_type]
    full = [[pixel_samples(color_type, depth, x, y, width) for x in range(width)] for y in range(height)]
    if not interlace:
        raw = scanlines(full[:rows] if rows else full, width, rows or height, depth, channels)
    else:
        raw = bytearray()
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, width, dx), range(y0, height, dy)
            if len(xs) == 0 or len(ys) == 0:
                continue
            reduced = [[full[y][x] for x in xs] for y in ys]
            raw += scanlines(reduced, len(xs), len(ys), depth, channels)
    return zlib.compress(bytes(raw), 9)


def ancillary_before_idat(color_type, depth, trns):
    out = b""
    if color_type == PALETTE:
        out += chunk(b"PLTE", b"".join(bytes(palette_entry(k)) for k in range(palette_size(depth))))
        if trns:
            out += chunk(b"tRNS", bytes(palette_alpha(k, depth) for k in range(palette_trns_count(depth))))
    elif trns and color_type == GRAY:
        out += chunk(b"tRNS", struct.pack(">H", sample(3, 2, 0, depth)))
    elif trns and color_type == RGB:
        out += chunk(b"tRNS", struct.pack(">HHH", *(sample(3, 2, c, depth) for c in range(3))))
    return out


def png(color_type, depth, interlace=0, trns=False, extra_before=b"", idat=None, idat_split=None, width=W, height=H):
    data = image_data(color_type, depth, interlace, width, height) if idat is None else idat
    if idat_split:
        idats = b"".join(chunk(b"IDAT", data[i:i + idat_split]) for i in range(0, len(data), idat_split))
    else:
        idats = chunk(b"IDAT", data)
    return (SIGNATURE + ihdr(width, height, depth, color_type, interlace) + extra_before
            + ancillary_before_idat(color_type, depth, trns) + idats + chunk(b"IEND", b""))


def flip_crc(data, kind):
    """Flips every bit of the CRC of the first chunk of type `kind`."""
    at = data.index(kind)
    length = struct.unpack(">I", data[at - 4:at])[0]
    crc_at = at + 4 + length
    return data[:crc_at] + bytes(b ^ 0xFF for b in data[crc_at:crc_at + 4]) + data[crc_at + 4:]


def fixtures():
    out = {}
    variants = [
        (GRAY, [1, 2, 4, 8, 16], [False, True]),
        (GRAY_ALPHA, [8, 16], [False]),
        (RGB, [8, 16], [False, True]),
        (RGBA, [8, 16], [False]),
        (PALETTE, [1, 2, 4, 8], [False, True]),
    ]
    for color_type, depths, trns_options in variants:
        for depth in depths:
            for trns in trns_options:
                for interlace in (0, 1):
                    name = NAMES[color_type] + str(depth) + ("_trns" if trns else "") + ("_adam7" if interlace else "")
                    out[name] = png(color_type, depth, interlace, trns)

    # 16-bit Adam7 with alpha is the one case LayerKit decodes within 1 rather than exactly (a libpng bug
    # forces a detour through premultiplied 16-bit samples); a larger image measures how often.
    out["rgba16_adam7_64x48"] = png(RGBA, 16, 1, width=64, height=48)
    out["graya16_adam7_64x48"] = png(GRAY_ALPHA, 16, 1, width=64, height=48)

    rgb8 = out["rgb8"]
    out["rgb8_gamma1"] = png(RGB, 8, extra_before=chunk(b"gAMA", struct.pack(">I", 100000)))

    opaque_rows = [[sample(x, y, 0, 8), sample(x, y, 1, 8), sample(x, y, 2, 8), 255] for y in range(H) for x in range(W)]
    opaque_raw = b"".join(b"\x00" + bytes(v for p in opaque_rows[y * W:(y + 1) * W] for v in p) for y in range(H))
    out["rgba8_opaque"] = png(RGBA, 8, idat=zlib.compress(opaque_raw, 9))

    text = chunk(b"tEXt", b"Comment\x00LayerKit fixture")
    private = chunk(b"lkTs", b"\x01\x02\x03")
    chunky = png(RGB, 8, extra_before=text + private, idat_split=10)
    iend = chunk(b"IEND", b"")
    out["rgb8_chunky"] = chunky[:-len(iend)] + text + private + iend
    bad_text = chunk(b"tEXt", b"Comment\x00bad crc", crc=0x12345678)
    out["rgb8_bad_text_crc"] = png(RGB, 8, extra_before=bad_text)

    tiny_idat = chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00"))
    out["invalid_huge_dimensions"] = SIGNATURE + ihdr(20000, 20000, 8, RGB, 0) + tiny_idat + iend
    out["invalid_wide"] = SIGNATURE + ihdr(1_000_001, 1, 8, RGB, 0) + tiny_idat + iend
    out["invalid_max_dimensions"] = SIGNATURE + ihdr(0x7FFFFFFF, 0x7FFFFFFF, 8, RGB, 0) + tiny_idat + iend
    out["invalid_zero_width"] = SIGNATURE + ihdr(0, H, 8, RGB, 0) + tiny_idat + iend
    out["invalid_ihdr_crc"] = flip_crc(rgb8, b"IHDR")
    out["invalid_idat_crc"] = flip_crc(rgb8, b"IDAT")
    out["invalid_bit_depth"] = SIGNATURE + ihdr(W, H, 3, RGB, 0) + tiny_idat + iend
    out["invalid_deflate"] = png(RGB, 8, idat=b"this is not a zlib stream at all")
    out["invalid_short_image_data"] = png(RGB, 8, idat=image_data(RGB, 8, 0, rows=2))
    out["invalid_no_idat"] = SIGNATURE + ihdr(W, H, 8, RGB, 0) + iend
    out["invalid_missing_plte"] = SIGNATURE + ihdr(W, H, 8, PALETTE, 0) + chunk(b"IDAT", image_data(PALETTE, 8, 0)) + iend
    out["invalid_first_chunk"] = SIGNATURE + text + rgb8[len(SIGNATURE):]
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "LayerKitTests", "Fixtures", "png")
    os.makedirs(out_dir, exist_ok=True)
    made = fixtures()
    for name in sorted(made):
        with open(os.path.join(out_dir, name + ".png"), "wb") as f:
            f.write(made[name])
    print(f"wrote {len(made)} fixtures to {os.path.relpath(out_dir)}")


if __name__ == "__main__":
    main()
