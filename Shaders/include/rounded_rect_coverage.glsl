// Coverage of a rounded rectangle at a point, antialiased in screen space.
//
// Input: a point p in some plane space (layer space, or a clip's space), the screen-space derivatives
// of p (dFdx(p), dFdy(p), taken by the caller in uniform control flow), the rect (minX, minY, maxX,
// maxY) and its per-corner radii (top-left, top-right, bottom-right, bottom-left; y down).
// Output: coverage in [0, 1].
// Algorithm: exact signed distance to the rounded box with its analytic gradient n; in a corner the
// distance is converted to pixels by the length of n's screen-space rate |(n . dp/dx, n . dp/dy)|, so
// the ramp is one pixel wide under any scale, rotation or perspective; along straight edges each edge's
// distance is converted by its own axis's rate and the larger taken, so the nearer edge is the nearer
// on screen, not in layer units (they differ under a non-uniform scale). Straight edges can instead be hard (a step at
// the pixel centre, matching the rasterizer's own decision); rounded corners are always antialiased.
// Cost: a handful of ALU operations, no texture reads.
#ifndef ROUNDED_RECT_COVERAGE_GLSL
#define ROUNDED_RECT_COVERAGE_GLSL

// Signed distance (negative inside) from p to the rounded rect; `normal` receives the unit outward
// gradient and `inCorner` whether p lies in a rounded corner's region.
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii, out vec2 normal, out bool inCorner) {
    vec2 center = 0.5 * (rect.xy + rect.zw);
    vec2 halfSize = 0.5 * (rect.zw - rect.xy);
    vec2 q = p - center;
    float radius = q.x < 0.0 ? (q.y < 0.0 ? radii.x : radii.w) : (q.y < 0.0 ? radii.y : radii.z);
    radius = clamp(radius, 0.0, max(0.0, min(halfSize.x, halfSize.y)));
    vec2 d = abs(q) - halfSize + radius;
    vec2 s = vec2(q.x < 0.0 ? -1.0 : 1.0, q.y < 0.0 ? -1.0 : 1.0);
    inCorner = radius > 0.0 && d.x > 0.0 && d.y > 0.0;
    if (inCorner) {
        float len = length(d);
        normal = s * d / max(len, 1e-20);
        return len - radius;
    }
    normal = d.x > d.y ? vec2(s.x, 0.0) : vec2(0.0, s.y);
    return max(d.x, d.y) - radius;
}

// Coverage of the rounded rect at p. `antialiasStraightEdges` false: straight edges are a hard step.
float roundedRectCoverage(vec2 p, vec2 dpdx, vec2 dpdy, vec4 rect, vec4 radii, bool antialiasStraightEdges) {
    if (rect.z <= rect.x || rect.w <= rect.y) {
        return 0.0;
    }
    vec2 normal;
    bool inCorner;
    float distance = roundedRectDistance(p, rect, radii, normal, inCorner);
    if (!inCorner && !antialiasStraightEdges) {
        return distance <= 0.0 ? 1.0 : 0.0;
    }
    if (inCorner) {
        float unitsPerPixel = length(vec2(dot(normal, dpdx), dot(normal, dpdy)));
        return clamp(0.5 - distance / max(unitsPerPixel, 1e-20), 0.0, 1.0);
    }
    // Straight edges: the box's distance is the larger of its two edges' signed distances, compared in
    // pixels (under a non-uniform scale the larger in layer units can be the smaller on screen).
    vec2 edges = abs(p - 0.5 * (rect.xy + rect.zw)) - 0.5 * (rect.zw - rect.xy);
    vec2 unitsPerPixel = vec2(length(vec2(dpdx.x, dpdy.x)), length(vec2(dpdx.y, dpdy.y)));
    vec2 pixels = edges / max(unitsPerPixel, vec2(1e-20));
    return clamp(0.5 - max(pixels.x, pixels.y), 0.0, 1.0);
}

#endif
