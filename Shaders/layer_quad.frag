// layer_quad.frag: shades one fragment of a layer quad.
//
// Input: the varyings of layer_quad.vert; the batch's texture (set 1, binding 0; a 1x1 white texture
// for untextured batches).
// Output: premultiplied color * coverage, blended source-over by the pipeline (ONE, ONE_MINUS_SRC_ALPHA).
// Coverage: the rounded rect `shape` (or, with Flags.border, the ring between `shape` and `shape` inset by
// the border width, inner radii max(0, r - width)), times, with Flags.clip, the always-antialiased
// rounded rect `clipRect` at the clip-space point. Derivatives and the texture read happen in uniform
// control flow; the flags only select results. With Flags.clampUV the texture coordinates are clamped to
// the instance's uvClamp rect first (an image inside an atlas page).
// Opaque variant (specialization constant 0 true, the depth-writing pipeline of depth-ordered passes):
// a fragment whose coverage is below 1 is discarded, so depth is written only where the item paints
// its pixel completely; such items have hard edges, so coverage is 0 or 1 and nothing else changes.
// Clip-shape variant (specialization constant 1 true, the stencil clip pipelines): a fragment whose
// coverage is below one half is discarded, so the stencil marks the pixels whose centres the shape (and
// the analytic clip it carries) covers; the pipeline writes no color.
// Gradient (Flags.gradient, include/gradient_paint.glsl): the color is the gradient at the layer-space
// point, its stops read from the instance buffer (set 0, binding 0, viewed as vec4 words: the stops of
// the frame's gradients follow its instances), times vColor (opacity); after coverage, ordered dithering
// of under +-0.5/255 on all four channels, color kept within alpha so the result stays premultiplied.
// Debug flags: countFragments outputs 1/255 whatever the coverage (counted additively into a surface);
// overdrawHeatMap maps the sampled count to the heat-map tint (DebugVisualization.heatMapTint).
// Materials (specialization constants 2 and 3, `Material` on the Swift side): each batch runs a pipeline
// specialized to what its draws need, and the compiler drops the rest. PAINT says which paints may occur
// (texture, texture with clamped uv, gradient, debug views; untextured draws never sample); COVERAGE
// says whether coverage is computed at all (none: every fragment the rasterizer produces is fully covered,
// so no derivative, distance or discard — the opaque phase keeps early depth testing), for the shape
// alone under a similarity or under an affine map (no derivatives: the vertex shader hands on the map's
// pixel metric, see include/affine_rounded_rect_coverage.glsl; the same coverage as the next), for the
// shape alone under any map, or with border and clip too.
// Shadow (Flags.shadow, PAINT_SHADOW): coverage is the shape blurred by a Gaussian (include/
// blurred_rounded_rect.glsl), sigma in params.x; a sigma of 0 keeps the shape's own hard or antialiased edge.
// Filter (Flags.filterKernel or colorMatrix, PAINT_FILTER): the texture is a surface read through a kernel
// (include/filter_kernel.glsl) and optionally a colour matrix read from the instance words; no coverage.
// Cost: per material; the whole shader is one texture read and two or three rounded-rect evaluations.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "layer_instance.glsl"
#include "rounded_rect_coverage.glsl"
#include "affine_rounded_rect_coverage.glsl"
#include "premultiplied.glsl"
#include "gradient_paint.glsl"
#include "blurred_rounded_rect.glsl"
#include "filter_kernel.glsl"

layout(constant_id = 0) const bool DISCARD_PARTIAL_COVERAGE = false;
layout(constant_id = 1) const bool CLIP_SHAPE = false;
// The material (`Material` in Sources/LayerKitRender/Batching/Material.swift): which paints the batch
// may use and how much coverage math it needs. The defaults are the whole shader.
const uint PAINT_TEXTURED = 1u;
const uint PAINT_CLAMPED_UV = 2u;
const uint PAINT_GRADIENT = 4u;
const uint PAINT_DEBUG = 8u;
const uint PAINT_SHADOW = 16u;
const uint PAINT_FILTER = 32u;
layout(constant_id = 2) const uint PAINT = 63u;
const uint COVERAGE_NONE = 0u;
const uint COVERAGE_SIMILAR_SHAPE = 1u;
const uint COVERAGE_AFFINE_SHAPE = 2u;
const uint COVERAGE_SHAPE = 3u;
const uint COVERAGE_BORDER_CLIP = 4u;
layout(constant_id = 3) const uint COVERAGE = 4u;

layout(set = 1, binding = 0) uniform sampler2D layerTexture;

// The frame's instance buffer as 16-byte words: gradient stops live after the instances. Read through
// its texel view where the device allows (specialization constant 4, as in layer_quad.vert): lavapipe
// loads a storage buffer at a per-fragment address one lane at a time, a loop and a branch per lane,
// where a texel fetch is one gather.
layout(std430, set = 0, binding = 0) readonly buffer InstanceWords {
    vec4 instanceWords[];
};
layout(set = 0, binding = 1) uniform usamplerBuffer instanceTexels;
layout(constant_id = 4) const bool INSTANCES_AS_TEXELS = false;

// Word `index` of the instance buffer.
vec4 instanceWord(uint index) {
    if (INSTANCES_AS_TEXELS) { return uintBitsToFloat(texelFetch(instanceTexels, int(index))); }
    return instanceWords[index];
}

layout(location = 0) in vec2 vLocal;
layout(location = 1) in vec2 vUV;
layout(location = 2) in vec3 vClip;
layout(location = 3) flat in vec4 vColor;
layout(location = 4) flat in vec4 vShape;
layout(location = 5) flat in vec4 vShapeRadii;
layout(location = 6) flat in vec4 vParams;
layout(location = 7) flat in vec4 vClipRect;
layout(location = 8) flat in vec4 vClipRadii;
layout(location = 9) flat in vec4 vUVClamp;
layout(location = 10) flat in vec4 vGradientGeometry;
layout(location = 11) noperspective in vec2 vShapeOffset;

layout(location = 0) out vec4 outColor;

// The gradient's premultiplied color at layer-space point p (see gradient_paint.glsl).
vec4 gradientColor(vec2 p) {
    uint kind = floatBitsToUint(vUVClamp.x);
    uint count = floatBitsToUint(vUVClamp.y);
    uint first = floatBitsToUint(vUVClamp.z);
    if (count == 0u) {
        return vec4(0.0);
    }
    float t = gradientParameter(kind, p, vGradientGeometry);
    vec4 previousColor = instanceWord(first);
    float previousLocation = GRADIENT_LOCATION(instanceWord, first, count, 0u);
    if (t <= previousLocation) {
        return previousColor;
    }
    for (uint i = 1u; i < count; ++i) {
        vec4 stopColor = instanceWord(first + i);
        float location = GRADIENT_LOCATION(instanceWord, first, count, i);
        if (t < location) {
            // previousLocation <= t < location, so the span is not empty.
            return mix(previousColor, stopColor, (t - previousLocation) / (location - previousLocation));
        }
        previousColor = stopColor;
        previousLocation = location;
    }
    return previousColor;
}

void main() {
    uint flags = floatBitsToUint(vParams.y);

    // Coverage: only the materials that need it pay for derivatives and rounded-rect distances.
    float coverage = 1.0;
    if (COVERAGE == COVERAGE_SIMILAR_SHAPE || COVERAGE == COVERAGE_AFFINE_SHAPE) {
        // Flat per primitive. These materials have no analytic clip: vClipRect holds the map's pixel
        // metric (layer_quad.vert). An empty shape gets a half size that leaves nothing covered.
        vec2 halfSize = 0.5 * (vShape.zw - vShape.xy);
        halfSize = halfSize.x <= 0.0 || halfSize.y <= 0.0 ? vec2(-1e30) : halfSize;
        vec4 pixelMetric = vClipRect;
        bool antialiasEdges = (flags & LAYER_FLAG_ANTIALIAS_EDGES) != 0u;
        coverage = COVERAGE == COVERAGE_SIMILAR_SHAPE
            ? similarRoundedRectCoverage(vShapeOffset, halfSize, vShapeRadii, pixelMetric.w, antialiasEdges)
            : affineRoundedRectCoverage(vShapeOffset, halfSize, vShapeRadii, pixelMetric.xyz, antialiasEdges);
    } else if (COVERAGE >= COVERAGE_SHAPE) {
        vec2 dpdx = dFdx(vLocal);
        vec2 dpdy = dFdy(vLocal);
        bool antialiasEdges = (flags & LAYER_FLAG_ANTIALIAS_EDGES) != 0u;
        coverage = roundedRectCoverage(vLocal, dpdx, dpdy, vShape, vShapeRadii, antialiasEdges);
        if ((PAINT & PAINT_SHADOW) != 0u && (flags & LAYER_FLAG_SHADOW) != 0u && vParams.x > 0.0) {
            coverage = blurredRoundedRectCoverage(vLocal, vShape, vShapeRadii, vParams.x);
        }
        if (COVERAGE >= COVERAGE_BORDER_CLIP) {
            vec2 clipPoint = vClip.xy / vClip.z;
            vec2 dcdx = dFdx(clipPoint);
            vec2 dcdy = dFdy(clipPoint);
            if ((flags & LAYER_FLAG_BORDER) != 0u) {
                float width = vParams.x;
                vec4 inner = vShape + vec4(width, width, -width, -width);
                vec4 innerRadii = max(vShapeRadii - vec4(width), vec4(0.0));
                coverage *= 1.0 - roundedRectCoverage(vLocal, dpdx, dpdy, inner, innerRadii, antialiasEdges);
            }
            if ((flags & LAYER_FLAG_CLIP) != 0u) {
                coverage *= roundedRectCoverage(clipPoint, dcdx, dcdy, vClipRect, vClipRadii, true);
            }
        }
    }
    if (DISCARD_PARTIAL_COVERAGE && COVERAGE != COVERAGE_NONE && coverage < 1.0) {
        discard;
    }
    if (CLIP_SHAPE && coverage < 0.5) {
        discard;
    }

    // Paint: only textured materials sample, only gradient materials walk stops.
    vec4 texel = vec4(1.0);
    if ((PAINT & PAINT_CLAMPED_UV) != 0u) {
        // One read whether or not the draw clamps: a CPU rasterizer runs both sides of a branch on a
        // per-draw flag, so two reads in two branches cost two reads. The level of detail comes from the
        // unclamped coordinates either way, as an implicit-derivative read of vUV would take it.
        bool clampUV = (flags & LAYER_FLAG_CLAMP_UV) != 0u;
        vec2 uv = clampUV ? clamp(vUV, vUVClamp.xy, vUVClamp.zw) : vUV;
        texel = textureGrad(layerTexture, uv, dFdx(vUV), dFdy(vUV));
    } else if ((PAINT & PAINT_TEXTURED) != 0u) {
        texel = texture(layerTexture, vUV);
    }
    vec4 color = vColor;
    if ((PAINT & (PAINT_TEXTURED | PAINT_CLAMPED_UV)) != 0u && (flags & LAYER_FLAG_TEXTURED) != 0u) {
        color = texel * vColor;
    }
    bool gradient = (PAINT & PAINT_GRADIENT) != 0u && (flags & LAYER_FLAG_GRADIENT) != 0u;
    if (gradient) {
        color = gradientColor(vLocal) * vColor;
    }
    if ((PAINT & PAINT_FILTER) != 0u && (flags & (LAYER_FLAG_FILTER_KERNEL | LAYER_FLAG_COLOR_MATRIX)) != 0u) {
        // A kernel draw's uv spans its whole source surface (the instance's uv, passed on flat).
        vec4 filtered = filterKernel(layerTexture, vUV, vGradientGeometry, floatBitsToUint(vParams.x), vUVClamp);
        if ((flags & LAYER_FLAG_COLOR_MATRIX) != 0u) {
            uint word = floatBitsToUint(vParams.w) * 16u + 10u;
            filtered = applyColorMatrix(filtered, instanceWord(word), instanceWord(word + 1u), instanceWord(word + 2u),
                                        instanceWord(word + 3u), instanceWord(word + 4u));
        }
        color = filtered * vColor;
    }
    outColor = COVERAGE == COVERAGE_NONE ? color : premultipliedScale(color, coverage);
    if (gradient) {
        // The same threshold on all four channels, so fades to transparent do not band either; under
        // half a level, it never turns a 0 or 255 alpha into another level.
        float threshold = orderedDither(gl_FragCoord.xy) / 255.0;
        outColor.a = clamp(outColor.a + threshold, 0.0, 1.0);
        outColor.rgb = clamp(outColor.rgb + threshold, vec3(0.0), vec3(outColor.a));
    }
    if ((PAINT & PAINT_DEBUG) != 0u) {
        if ((flags & LAYER_FLAG_OVERDRAW_HEAT_MAP) != 0u) {
            // Counts 0 and 1 untinted; 2 blue, 3 green, 4 pink, 5 and more red; half strength over the frame.
            uint count = uint(texel.r * 255.0 + 0.5);
            vec3 tint = count >= 5u ? vec3(1.0, 0.0, 0.0)
                      : count == 4u ? vec3(1.0, 0.5, 0.75)
                      : count == 3u ? vec3(0.0, 1.0, 0.0)
                      : count == 2u ? vec3(0.0, 0.0, 1.0)
                      : vec3(0.0);
            float alpha = count >= 2u ? 0.5 : 0.0;
            outColor = premultipliedScale(vec4(tint, 1.0) * alpha, coverage);
        }
        if ((flags & LAYER_FLAG_COUNT_FRAGMENTS) != 0u) {
            outColor = vec4(1.0 / 255.0);
        }
    }
}
