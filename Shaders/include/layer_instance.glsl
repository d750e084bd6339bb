// The per-instance record of the layer shader, declared once for GLSL. The Swift side is
// `LayerInstance` in Sources/LayerKitRender/Drawing/LayerInstance.swift; a test parses this block
// and checks member order and stride against it. Every member is a vec4 (or an array of vec4), so
// std430 adds no padding: member i sits at byte 16 * i.
#ifndef LAYER_INSTANCE_GLSL
#define LAYER_INSTANCE_GLSL

// Flags, stored as float bits in params.y (read with floatBitsToUint).
const uint LAYER_FLAG_TEXTURED = 1u << 0;
const uint LAYER_FLAG_BORDER = 1u << 1;
const uint LAYER_FLAG_ANTIALIAS_EDGES = 1u << 2;
const uint LAYER_FLAG_CLIP = 1u << 3;
const uint LAYER_FLAG_CLAMP_UV = 1u << 4;
const uint LAYER_FLAG_COUNT_FRAGMENTS = 1u << 5;
const uint LAYER_FLAG_OVERDRAW_HEAT_MAP = 1u << 6;
const uint LAYER_FLAG_GRADIENT = 1u << 7;
// A piece of a split plane: strip corners in quad.xy, quad.zw, uvClamp.xy, uvClamp.zw; uv at shape's corners
// (a gradient piece: uv keeps the gradient geometry, and its header is in clipFromLocal[0..2].w).
const uint LAYER_FLAG_PIECE_CORNERS = 1u << 8;
// A shadow: coverage is the shape blurred by a Gaussian of standard deviation params.x (layer units;
// 0: the shape itself, hard), times color.
const uint LAYER_FLAG_SHADOW = 1u << 9;
// A filter kernel pass over the texture (a surface): kind in params.x (uint bits), parameters in uvClamp
// (uv step between taps, tap radius, Gaussian sigma in taps). See include/filter_kernel.glsl.
const uint LAYER_FLAG_FILTER_KERNEL = 1u << 10;
// A colour matrix on the sampled colour: rows red, green, blue, alpha in clipFromLocal[0..2] and clipRect,
// the bias in clipRadii (such a draw has no analytic clip).
const uint LAYER_FLAG_COLOR_MATRIX = 1u << 11;
// The map to the target's pixels is a similarity (read on the CPU: it chooses the similarity material).
const uint LAYER_FLAG_SIMILARITY_MAP = 1u << 12;

// BEGIN LayerInstance
struct LayerInstance {
    vec4 localToClip[4];   // columns of the layer-space -> clip-space matrix (clip = M * p)
    vec4 quad;             // drawn quad in layer space: minX, minY, maxX, maxY (a piece: corners 0 and 1)
    vec4 uv;               // texture coordinates at (minX, minY) and (maxX, maxY) (a piece: at shape's); gradient: its geometry
    vec4 color;            // premultiplied color (fill, or texel multiplier)
    vec4 shape;            // covered rounded rect in layer space: minX, minY, maxX, maxY
    vec4 shapeRadii;       // corner radii: top-left, top-right, bottom-right, bottom-left (y down)
    vec4 params;           // x: border width (shadow: blur sigma; kernel: kind bits), y: flags (float bits), z: depth 0..1,
                           // w: unused (the vertex shader passes the instance index on in it)
    vec4 clipFromLocal[3]; // rows of the homography layer space -> clip space: c = H * (x, y, 1) (xyz; w: see piece)
    vec4 clipRect;         // clip rounded rect in clip space: minX, minY, maxX, maxY
    vec4 clipRadii;        // clip corner radii: top-left, top-right, bottom-right, bottom-left
    vec4 uvClamp;          // with LAYER_FLAG_CLAMP_UV: uv clamped to (minU, minV, maxU, maxV); gradient: uint bits of
                           // kind, stop count, first stop word; a piece: corners 2 and 3; 256 bytes in all
};
// END LayerInstance

#endif
