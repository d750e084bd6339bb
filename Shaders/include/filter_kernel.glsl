// One pass of a filter kernel over a surface, and the colour matrix filters apply per pixel.
//
// Input: the surface (sampled with linear filtering at texel centres, so a tap reads one texel exactly
// unless the pass downsamples), the fragment's uv, the uv rect of the surface's own pixels (a pooled image
// may be larger, a packed page holds others: taps are clamped to the surface's edge texels), the kernel
// kind and its parameters: the step between taps in source texels (one texel along the pass's direction),
// the tap radius R (taps at -R..R) and, for a Gaussian, its standard deviation in taps.
// Output: premultiplied RGBA. Gaussian and box are weighted averages (weights normalized over the taps
// taken, so a truncated kernel loses no light); maximum and minimum are per-channel extremes (dilation and
// erosion). Separable kernels run as two passes, x then y (`FilterPlan` on the Swift side).
// Cost: 2R + 1 texture reads; a Gaussian adds one exponential per tap.
#ifndef FILTER_KERNEL_GLSL
#define FILTER_KERNEL_GLSL

#include "blend_modes.glsl"

const uint KERNEL_COPY = 0u;
const uint KERNEL_GAUSSIAN = 1u;
const uint KERNEL_BOX = 2u;
const uint KERNEL_MAXIMUM = 3u;
const uint KERNEL_MINIMUM = 4u;
const uint KERNEL_PIXELLATE = 5u;
const uint KERNEL_DISC = 6u;
const uint KERNEL_ZOOM = 7u;
const uint KERNEL_VIBRANCE = 8u;
const uint KERNEL_CRYSTALLIZE = 9u;
const uint KERNEL_BLEND = 10u;

// Positions of the kernels below are in the surface's normalized space (0...1 across its own pixels).
vec2 surfaceUV(vec2 normalized, vec4 uvRect) {
    return uvRect.xy + normalized * (uvRect.zw - uvRect.xy);
}

// The centre of the texel holding uv: a cell's colour is one source pixel's, never a blend of several.
vec2 texelCentre(vec2 uv, vec2 texel) {
    return (floor(uv / texel) + 0.5) * texel;
}

// A hash of a cell's integer coordinates to a point in the unit square (crystallize's feature points).
vec2 cellPoint(vec2 cell) {
    vec2 p = vec2(dot(cell, vec2(127.1, 311.7)), dot(cell, vec2(269.5, 183.3)));
    return fract(sin(p) * 43758.5453);
}

// The kernels that are not a weighted line of taps: CIPixellate (the colour of the source pixel at the
// centre of the pixel's cell; parameters: cell size and grid origin, normalized), CIDiscBlur (the mean over a disc of radius
// parameters.z texels), CIZoomBlur (the mean along the segment from the pixel a fraction parameters.z of
// the way toward the centre parameters.xy), CIVibrance (saturation raised most where it is low, by
// parameters.x; the published stand-in, Core Image's kernel is not), CICrystallize (the colour at the
// nearest of one hashed feature point per cell; cell size parameters.xy, grid origin parameters.zw).
vec4 spatialKernel(sampler2D source, vec2 uv, vec4 uvRect, vec2 low, vec2 high, vec2 texel, uint kind, vec4 parameters) {
    vec2 size = uvRect.zw - uvRect.xy;
    vec2 normalized = (uv - uvRect.xy) / size;
    if (kind == KERNEL_PIXELLATE) {
        vec2 cell = max(parameters.xy, vec2(1e-6));
        vec2 centre = parameters.zw + (floor((normalized - parameters.zw) / cell) + 0.5) * cell;
        return textureLod(source, clamp(texelCentre(surfaceUV(centre, uvRect), texel), low, high), 0.0);
    }
    if (kind == KERNEL_DISC) {
        int radius = int(parameters.z);
        vec4 sum = vec4(0.0);
        float count = 0.0;
        for (int j = -radius; j <= radius; ++j) {
            for (int i = -radius; i <= radius; ++i) {
                if (i * i + j * j > radius * radius) {
                    continue;
                }
                sum += textureLod(source, clamp(uv + vec2(i, j) * texel, low, high), 0.0);
                count += 1.0;
            }
        }
        return sum / max(count, 1.0);
    }
    if (kind == KERNEL_ZOOM) {
        vec2 towardCentre = (parameters.xy - normalized) * parameters.z;
        int taps = int(clamp(ceil(length(towardCentre * size / texel)), 1.0, 64.0));
        vec4 sum = vec4(0.0);
        for (int k = 0; k <= taps; ++k) {
            vec2 p = normalized + towardCentre * (float(k) / float(taps));
            sum += textureLod(source, clamp(surfaceUV(p, uvRect), low, high), 0.0);
        }
        return sum / float(taps + 1);
    }
    if (kind == KERNEL_VIBRANCE) {
        vec4 c = textureLod(source, clamp(uv, low, high), 0.0);
        if (c.a <= 0.0) {
            return c;
        }
        vec3 rgb = c.rgb / c.a;
        float average = (rgb.r + rgb.g + rgb.b) / 3.0;
        float largest = max(rgb.r, max(rgb.g, rgb.b));
        float amount = (largest - average) * (-3.0 * parameters.x);
        rgb = clamp(mix(rgb, vec3(largest), amount), vec3(0.0), vec3(1.0));
        return vec4(rgb * c.a, c.a);
    }
    // KERNEL_CRYSTALLIZE
    vec2 cellSize = max(parameters.xy, vec2(1e-6));
    vec2 grid = (normalized - parameters.zw) / cellSize;
    vec2 base = floor(grid);
    vec2 nearest = vec2(0.0);
    float best = 1e20;
    for (int j = -1; j <= 1; ++j) {
        for (int i = -1; i <= 1; ++i) {
            vec2 cell = base + vec2(i, j);
            vec2 feature = cell + cellPoint(cell);
            vec2 d = (feature - grid) * cellSize * size / texel;
            float distance = dot(d, d);
            if (distance < best) {
                best = distance;
                nearest = feature;
            }
        }
    }
    return textureLod(source, clamp(texelCentre(surfaceUV(parameters.zw + nearest * cellSize, uvRect), texel), low, high), 0.0);
}

vec4 filterKernel(sampler2D source, vec2 uv, vec4 uvRect, uint kind, vec4 parameters) {
    vec2 texel = 1.0 / vec2(textureSize(source, 0));
    vec2 stepUV = parameters.xy * texel;
    vec2 low = uvRect.xy + 0.5 * texel;
    vec2 high = max(uvRect.zw - 0.5 * texel, low);
    int radius = int(parameters.z);
    float sigma = max(parameters.w, 1e-6);
    if (kind == KERNEL_BLEND) {
        // The source is this draw's half of a pair surface (its uv rect), the backdrop the half left of it.
        vec2 shift = vec2(uvRect.z - uvRect.x, 0.0);
        // The layer's opacity (parameters.y) fades the source before it blends.
        vec4 foreground = textureLod(source, clamp(uv, low, high), 0.0) * parameters.y;
        vec4 backdrop = textureLod(source, clamp(uv - shift, low - shift, high - shift), 0.0);
        return blendWithBackdrop(uint(parameters.x), foreground, backdrop);
    }
    if (kind >= KERNEL_PIXELLATE) {
        return spatialKernel(source, uv, uvRect, low, high, texel, kind, parameters);
    }
    vec4 center = textureLod(source, clamp(uv, low, high), 0.0);
    if (kind == KERNEL_COPY || radius <= 0) {
        return center;
    }
    vec4 sum = vec4(0.0);
    float weights = 0.0;
    vec4 extreme = center;
    for (int i = -radius; i <= radius; ++i) {
        vec4 tap = textureLod(source, clamp(uv + float(i) * stepUV, low, high), 0.0);
        extreme = kind == KERNEL_MAXIMUM ? max(extreme, tap) : min(extreme, tap);
        float weight = kind == KERNEL_GAUSSIAN ? exp(-0.5 * float(i * i) / (sigma * sigma)) : 1.0;
        sum += weight * tap;
        weights += weight;
    }
    return kind == KERNEL_MAXIMUM || kind == KERNEL_MINIMUM ? extreme : sum / weights;
}

// Core Image's colour matrix on a premultiplied colour: unpremultiplied, each channel becomes
// dot(row, rgba) + bias, clamped to 0...1, then premultiplied again.
vec4 applyColorMatrix(vec4 premultiplied, vec4 red, vec4 green, vec4 blue, vec4 alpha, vec4 bias) {
    vec4 straight = premultiplied.a > 0.0 ? vec4(premultiplied.rgb / premultiplied.a, premultiplied.a) : vec4(0.0);
    vec4 result = clamp(vec4(dot(red, straight), dot(green, straight), dot(blue, straight), dot(alpha, straight)) + bias,
                        vec4(0.0), vec4(1.0));
    return vec4(result.rgb * result.a, result.a);
}

#endif
