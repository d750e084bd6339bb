// layer_quad.frag: shades one fragment of a layer quad.
//
// Input: the varyings of layer_quad.vert; the batch's texture (set 1, binding 0; a 1x1 white texture
// for untextured batches).
// Output: premultiplied color * coverage, blended source-over by the pipeline (ONE, ONE_MINUS_SRC_ALPHA).
// Coverage: the rounded rect `shape` (or, with Flags.border, the ring between `shape` and `shape` inset by
// the border width, inner radii max(0, r - width)), times, with Flags.clip, the always-antialiased
// rounded rect `clipRect` at the clip-space point. Derivatives and the texture read happen in uniform
// control flow; the flags only select results.
// Cost: one texture read and two or three rounded-rect evaluations per fragment.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "layer_instance.glsl"
#include "rounded_rect_coverage.glsl"
#include "premultiplied.glsl"

layout(set = 1, binding = 0) uniform sampler2D layerTexture;

layout(location = 0) in vec2 vLocal;
layout(location = 1) in vec2 vUV;
layout(location = 2) in vec3 vClip;
layout(location = 3) flat in vec4 vColor;
layout(location = 4) flat in vec4 vShape;
layout(location = 5) flat in vec4 vShapeRadii;
layout(location = 6) flat in vec4 vParams;
layout(location = 7) flat in vec4 vClipRect;
layout(location = 8) flat in vec4 vClipRadii;

layout(location = 0) out vec4 outColor;

void main() {
    uint flags = floatBitsToUint(vParams.y);
    bool antialiasEdges = (flags & LAYER_FLAG_ANTIALIAS_EDGES) != 0u;

    vec2 dpdx = dFdx(vLocal);
    vec2 dpdy = dFdy(vLocal);
    vec2 clipPoint = vClip.xy / vClip.z;
    vec2 dcdx = dFdx(clipPoint);
    vec2 dcdy = dFdy(clipPoint);
    vec4 texel = texture(layerTexture, vUV);

    float coverage = roundedRectCoverage(vLocal, dpdx, dpdy, vShape, vShapeRadii, antialiasEdges);
    if ((flags & LAYER_FLAG_BORDER) != 0u) {
        float width = vParams.x;
        vec4 inner = vShape + vec4(width, width, -width, -width);
        vec4 innerRadii = max(vShapeRadii - vec4(width), vec4(0.0));
        coverage *= 1.0 - roundedRectCoverage(vLocal, dpdx, dpdy, inner, innerRadii, antialiasEdges);
    }
    if ((flags & LAYER_FLAG_CLIP) != 0u) {
        coverage *= roundedRectCoverage(clipPoint, dcdx, dcdy, vClipRect, vClipRadii, true);
    }

    vec4 color = (flags & LAYER_FLAG_TEXTURED) != 0u ? texel * vColor : vColor;
    outColor = premultipliedScale(color, coverage);
}
