// Core Image's blend modes that need the backdrop's colour (W3C Compositing and Blending; Photoshop's
// subtract, divide, linear burn and pin light as Core Image documents them).
//
// Input: premultiplied source s and backdrop b, and the mode (`CompositingOperation.shaderMode`).
// Output: premultiplied co = cs·(1 − ab) + cb·(1 − as) + as·ab·B(Cb, Cs), alpha as + ab·(1 − as), where Cs
// and Cb are the straight colours and B is the mode's blend function (separable per channel, or for hue,
// saturation, colour and luminosity the non-separable SetLum/SetSat forms with Lum = 0.3 R + 0.59 G + 0.11 B).
// Results of B are clamped to 0...1.
#ifndef BLEND_MODES_GLSL
#define BLEND_MODES_GLSL

float blendLum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }

vec3 blendClipColor(vec3 c) {
    float l = blendLum(c);
    float n = min(c.r, min(c.g, c.b));
    float x = max(c.r, max(c.g, c.b));
    if (n < 0.0) { c = l + (c - l) * l / max(l - n, 1e-6); }
    if (x > 1.0) { c = l + (c - l) * (1.0 - l) / max(x - l, 1e-6); }
    return c;
}

vec3 blendSetLum(vec3 c, float l) { return blendClipColor(c + (l - blendLum(c))); }

float blendSat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }

vec3 blendSetSat(vec3 c, float s) {
    float low = min(c.r, min(c.g, c.b));
    float high = max(c.r, max(c.g, c.b));
    return high > low ? (c - low) * s / (high - low) : vec3(0.0);
}

float blendSoftLightD(float x) { return x <= 0.25 ? ((16.0 * x - 12.0) * x + 4.0) * x : sqrt(x); }

float blendChannel(uint mode, float cb, float cs) {
    if (mode == 1u) { return cb <= 0.5 ? 2.0 * cs * cb : 1.0 - 2.0 * (1.0 - cs) * (1.0 - cb); }  // overlay
    if (mode == 2u) {  // soft light
        return cs <= 0.5 ? cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb) : cb + (2.0 * cs - 1.0) * (blendSoftLightD(cb) - cb);
    }
    if (mode == 3u) { return cs <= 0.5 ? 2.0 * cs * cb : 1.0 - 2.0 * (1.0 - cs) * (1.0 - cb); }  // hard light
    if (mode == 4u) { return cb == 0.0 ? 0.0 : (cs >= 1.0 ? 1.0 : min(1.0, cb / (1.0 - cs))); }  // colour dodge
    if (mode == 5u) { return cb >= 1.0 ? 1.0 : (cs <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - cb) / cs)); }  // colour burn
    if (mode == 6u) { return abs(cb - cs); }  // difference
    if (mode == 7u) { return cb - cs; }  // subtract: the source taken from the background
    if (mode == 8u) { return cs <= 0.0 ? 1.0 : cb / cs; }  // divide
    if (mode == 9u) { return cb + cs - 1.0; }  // linear burn
    return cs < 0.5 ? min(cb, 2.0 * cs) : max(cb, 2.0 * cs - 1.0);  // pin light
}

vec4 blendWithBackdrop(uint mode, vec4 s, vec4 b) {
    vec3 cs = s.a > 0.0 ? s.rgb / s.a : vec3(0.0);
    vec3 cb = b.a > 0.0 ? b.rgb / b.a : vec3(0.0);
    vec3 blended;
    if (mode == 11u) {
        blended = blendSetLum(blendSetSat(cs, blendSat(cb)), blendLum(cb));  // hue
    } else if (mode == 12u) {
        blended = blendSetLum(blendSetSat(cb, blendSat(cs)), blendLum(cb));  // saturation
    } else if (mode == 13u) {
        blended = blendSetLum(cs, blendLum(cb));  // colour
    } else if (mode == 14u) {
        blended = blendSetLum(cb, blendLum(cs));  // luminosity
    } else {
        blended = vec3(blendChannel(mode, cb.r, cs.r), blendChannel(mode, cb.g, cs.g), blendChannel(mode, cb.b, cs.b));
    }
    blended = clamp(blended, vec3(0.0), vec3(1.0));
    vec3 co = s.rgb * (1.0 - b.a) + b.rgb * (1.0 - s.a) + s.a * b.a * blended;
    return vec4(co, s.a + b.a * (1.0 - s.a));
}

#endif
