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

const uint KERNEL_COPY = 0u;
const uint KERNEL_GAUSSIAN = 1u;
const uint KERNEL_BOX = 2u;
const uint KERNEL_MAXIMUM = 3u;
const uint KERNEL_MINIMUM = 4u;

vec4 filterKernel(sampler2D source, vec2 uv, vec4 uvRect, uint kind, vec4 parameters) {
    vec2 texel = 1.0 / vec2(textureSize(source, 0));
    vec2 stepUV = parameters.xy * texel;
    vec2 low = uvRect.xy + 0.5 * texel;
    vec2 high = max(uvRect.zw - 0.5 * texel, low);
    int radius = int(parameters.z);
    float sigma = max(parameters.w, 1e-6);
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
