// Coverage of a rounded rectangle blurred by a Gaussian: the analytic shadow of a rect or rounded rect.
//
// Input: a point p in layer space, the rect (minX, minY, maxX, maxY), its per-corner radii (top-left,
// top-right, bottom-right, bottom-left; y down) and the Gaussian's standard deviation sigma (> 0), all in
// layer units.
// Output: the convolution of the shape's indicator with the 2D Gaussian at p, in [0, 1].
// Algorithm: a square-cornered rect is separable: the product of two 1D integrals, each a difference of
// error functions (exact up to the erf approximation, |error| < 5e-4, Abramowitz and Stegun 7.1.27).
// A rounded rect is integrated in closed form along x (the shape's width at each height is known) and
// numerically along y with six midpoint samples over the +-3 sigma window the Gaussian lives in (Evan
// Wallace's method, as WebRender's box shadows approximate it). The corner radius is the one of the
// quadrant p lies in.
// Cost: four erf evaluations for a rect; six for a rounded rect plus six exponentials. No texture reads.
#ifndef BLURRED_ROUNDED_RECT_GLSL
#define BLURRED_ROUNDED_RECT_GLSL

vec4 approximateErf(vec4 x) {
    vec4 s = sign(x), a = abs(x);
    vec4 t = 1.0 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a;
    t *= t;
    return s - s / (t * t);
}

vec2 approximateErf(vec2 x) {
    return approximateErf(vec4(x, 0.0, 0.0)).xy;
}

// The blurred width profile at height y (relative to the centre): the integral along x of the rounded
// rect's row at y against the 1D Gaussian centred on x.
float blurredRoundedRectRow(float x, float y, float sigma, float radius, vec2 halfSize) {
    float delta = min(halfSize.y - radius - abs(y), 0.0);
    float halfWidth = halfSize.x - radius + sqrt(max(0.0, radius * radius - delta * delta));
    vec2 integral = 0.5 + 0.5 * approximateErf((x + vec2(-halfWidth, halfWidth)) * (0.70710678 / sigma));
    return integral.y - integral.x;
}

float blurredRoundedRectCoverage(vec2 p, vec4 rect, vec4 radii, float sigma) {
    if (rect.z <= rect.x || rect.w <= rect.y) {
        return 0.0;
    }
    vec2 center = 0.5 * (rect.xy + rect.zw);
    vec2 halfSize = 0.5 * (rect.zw - rect.xy);
    vec2 q = p - center;
    float radius = q.x < 0.0 ? (q.y < 0.0 ? radii.x : radii.w) : (q.y < 0.0 ? radii.y : radii.z);
    radius = clamp(radius, 0.0, min(halfSize.x, halfSize.y));
    if (radius <= 0.0) {
        vec4 e = approximateErf(vec4(q.x + halfSize.x, halfSize.x - q.x, q.y + halfSize.y, halfSize.y - q.y) * (0.70710678 / sigma));
        return 0.25 * (e.x + e.y) * (e.z + e.w);
    }
    // Only rows within 3 sigma of p, and inside the shape, contribute.
    float low = q.y - halfSize.y;
    float high = q.y + halfSize.y;
    float start = clamp(-3.0 * sigma, low, high);
    float end = clamp(3.0 * sigma, low, high);
    float step = (end - start) / 6.0;
    float y = start + 0.5 * step;
    float value = 0.0;
    for (int i = 0; i < 6; ++i) {
        float weight = exp(-0.5 * y * y / (sigma * sigma)) * 0.39894228 / sigma;
        value += blurredRoundedRectRow(q.x, q.y - y, sigma, radius, halfSize) * weight * step;
        y += step;
    }
    return clamp(value, 0.0, 1.0);
}

#endif
