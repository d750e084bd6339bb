// Gradient paint of a layer quad (LAYER_FLAG_GRADIENT): CAGradientLayer's axial, radial and conic
// gradients, evaluated per fragment. The Swift side is GradientPaint (Sources/LayerKitRender/Drawing).
//
// Input: the layer-space point, the instance's gradient geometry (start.xy, end.zw; radial: centre.xy,
// radii.zw), its kind, stop count and first stop word, and the stop words in the instance buffer:
// `count` premultiplied gamma-encoded colors, then the locations four to a word (non-decreasing).
// Output: the premultiplied color at the point. Before the first location the first color, after the
// last the last; between two stops a linear mix of their premultiplied colors.
// Dithering: orderedDither() gives a 4x4 Bayer threshold in (-0.5, 0.5) per pixel; the caller adds it
// (in 1/255 units) so a long, shallow ramp, in color or in alpha, quantizes to 8 bits without visible bands.
// Cost: a few ALU operations plus one or two buffer reads per stop passed.
#ifndef GRADIENT_PAINT_GLSL
#define GRADIENT_PAINT_GLSL

const uint GRADIENT_AXIAL = 0u;
const uint GRADIENT_RADIAL = 1u;
const uint GRADIENT_CONIC = 2u;

// Where p lies along the gradient: 0 at the start, 1 at the end (unclamped).
float gradientParameter(uint kind, vec2 p, vec4 geometry) {
    vec2 start = geometry.xy;
    vec2 d = p - start;
    if (kind == GRADIENT_RADIAL) {
        // A zero radius puts everything off the centre line past the end.
        vec2 radii = geometry.zw;
        vec2 q = vec2(radii.x > 0.0 ? d.x / radii.x : (d.x == 0.0 ? 0.0 : 1e20),
                      radii.y > 0.0 ? d.y / radii.y : (d.y == 0.0 ? 0.0 : 1e20));
        return length(q);
    }
    vec2 axis = geometry.zw - start;
    if (kind == GRADIENT_CONIC) {
        // Clockwise on screen (y down) from the direction start -> end, once around.
        const float tau = 6.283185307179586;
        float angle = atan(d.y, d.x) - atan(axis.y, axis.x);
        return fract(angle / tau);
    }
    float lengthSquared = dot(axis, axis);
    return lengthSquared > 0.0 ? dot(d, axis) / lengthSquared : 0.0;
}

// Location of stop i; stop words start at `first`, locations after the `count` colors (`word(k)`: word k
// of the instance buffer).
#define GRADIENT_LOCATION(word, first, count, i) (word((first) + (count) + ((i) >> 2))[(i) & 3u])

// 4x4 Bayer threshold for the pixel at fragCoord, in (-0.5, 0.5).
float orderedDither(vec2 fragCoord) {
    const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0,
                                      3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    ivec2 c = ivec2(fragCoord) & 3;
    return (bayer[c.y * 4 + c.x] + 0.5) / 16.0 - 0.5;
}

#endif
