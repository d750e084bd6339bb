// Coverage of a rounded rectangle at a point, for a layer whose map to pixels is affine: the same
// coverage as roundedRectCoverage (include/rounded_rect_coverage.glsl), without derivatives; and its
// special case for a similarity (rotation, uniform scale, mirror, translation), cheaper still.
//
// Input: q, the layer-space point relative to the rect's centre (interpolated without perspective: under
// an affine map that is exact); the rect's half size; its per-corner radii (top-left, top-right,
// bottom-right, bottom-left; y down) already clamped to [0, half the shorter side]; the pixel metric
// (xx, xy, yy) of the map, G = J J^T for J = d(layer)/d(pixel), flat per primitive; and whether straight
// edges are antialiased.
// Output: coverage in [0, 1].
// Algorithm: the signed distance to the rounded box and its outward gradient n, as roundedRectDistance
// works them out; roundedRectCoverage converts the distance to pixels by dividing by |(n . dp/dx,
// n . dp/dy)|, the layer length of one pixel's step along n, which is sqrt(n^T G n). With n = s * d / |d|
// in a corner (s the quadrant's signs) that is |d| / sqrt(d^T G' d), G' being G with its cross term
// negated in the quadrants where s.x != s.y. Along straight edges each edge's distance is converted by
// its own axis's rate, sqrt(G.xx) or sqrt(G.yy), and the larger taken: the nearer edge on screen, which
// under a non-uniform scale need not be the nearer in layer units. The metric replaces six derivatives
// per fragment. An empty rect arrives as a half size of -1e30 (its distance is huge: no coverage).
// Under a similarity G is a multiple of the identity, so every direction has the same rate: the distance
// is scaled by one flat number of pixels per layer unit (similarRoundedRectCoverage).
// Cost: one square root, three inverse square roots, about forty-five ALU operations (a similarity: one
// square root, about twenty-five); no divisions, no derivatives.
#ifndef AFFINE_ROUNDED_RECT_COVERAGE_GLSL
#define AFFINE_ROUNDED_RECT_COVERAGE_GLSL

float affineRoundedRectCoverage(vec2 q, vec2 halfSize, vec4 clampedRadii, vec3 pixelMetric, bool antialiasStraightEdges) {
    bvec2 negative = lessThan(q, vec2(0.0));
    float radius = negative.x ? (negative.y ? clampedRadii.x : clampedRadii.w) : (negative.y ? clampedRadii.y : clampedRadii.z);
    vec2 d = abs(q) - halfSize + radius;
    bool inCorner = radius > 0.0 && d.x > 0.0 && d.y > 0.0;
    float cornerLength = length(d);
    float distance = inCorner ? cornerLength - radius : max(d.x, d.y) - radius;
    // In a corner the distance is converted by the pixel rate along d (whose length divides out below).
    float cross = negative.x != negative.y ? -pixelMetric.y : pixelMetric.y;
    float squaredRate = d.x * d.x * pixelMetric.x + 2.0 * d.x * d.y * cross + d.y * d.y * pixelMetric.z;
    // Straight edges: each edge's distance in pixels by its own axis's rate, the larger taken (under a
    // non-uniform scale the larger in layer units can be the smaller on screen).
    vec2 edgePixels = (abs(q) - halfSize) * inversesqrt(pixelMetric.xz);
    float pixelDistance = inCorner ? distance * cornerLength * inversesqrt(squaredRate) : max(edgePixels.x, edgePixels.y);
    float ramp = clamp(0.5 - pixelDistance, 0.0, 1.0);
    float step = distance <= 0.0 ? 1.0 : 0.0;
    return inCorner || antialiasStraightEdges ? ramp : step;
}

// The special case of a similarity: `pixelsPerUnit` = 1 / sqrt(G.xx) = 1 / sqrt(G.yy), G.xy = 0.
float similarRoundedRectCoverage(vec2 q, vec2 halfSize, vec4 clampedRadii, float pixelsPerUnit, bool antialiasStraightEdges) {
    bvec2 negative = lessThan(q, vec2(0.0));
    float radius = negative.x ? (negative.y ? clampedRadii.x : clampedRadii.w) : (negative.y ? clampedRadii.y : clampedRadii.z);
    vec2 d = abs(q) - halfSize + radius;
    bool inCorner = radius > 0.0 && d.x > 0.0 && d.y > 0.0;
    float distance = (inCorner ? length(d) : max(d.x, d.y)) - radius;
    float ramp = clamp(0.5 - distance * pixelsPerUnit, 0.0, 1.0);
    float step = distance <= 0.0 ? 1.0 : 0.0;
    return inCorner || antialiasStraightEdges ? ramp : step;
}

#endif
