// layer_quad.vert: expands one LayerInstance into its quad.
//
// Input: the pass's instance buffer (set 0, binding 0); a non-instanced indexed triangle-list draw of 6
// indices per quad, no vertex buffer: the batch's first instance arrives as gl_InstanceIndex (firstInstance
// of a draw of one instance) and quad k of the batch is vertices 4k...4k+3, its corners in strip order,
// indexed as the triangles (0, 1, 2) and (1, 2, 3) (no face is culled, so winding does not matter). The
// driver shades each shared corner once: four vertices a quad, not the six of a plain list (on lavapipe
// the vertex stage runs single-threaded before rasterization starts). One draw of many small quads,
// rather than one instance per quad: lavapipe's vertex pipeline pays a fixed cost per instance that halved the GPU time of 100,000
// quads when it went (the `big` scene), and GPUs shade tiny instances in underfilled vertex waves too.
// The triangles are the strip's, so rasterization is unchanged. A piece of a split plane
// (LAYER_FLAG_PIECE_CORNERS) takes its four strip corners from the instance instead of the quad's, and
// its uv from where the corner lies in `shape` (uv holds the coordinates at shape's corners).
// Output: gl_Position = localToClip * (x, y, 0, 1) for the quad corner, its z replaced by params.z * w so
// the depth is the instance's (0 unless the pass is depth-ordered); the layer-space point and uv,
// interpolated perspective-correctly (Vulkan's default); the clip-space homogeneous point
// clipFromLocal * (x, y, 1), divided by z in the fragment shader (a projective map of the plane, so its
// perspective-correct interpolation is exact); the instance's shading parameters, flat (the raw uv
// too: a gradient's geometry), shape's radii clamped to half its shorter side. For the derivative-free
// coverage materials only (specialization constant 3; include/affine_rounded_rect_coverage.glsl): the
// layer-space point relative to shape's centre, interpolated without perspective (exact where the map is
// affine, the only draws that read it), and, in vClipRect (these materials have no analytic clip), the
// pixel metric G = J J^T of the map's linear part (xyz: xx, xy, yy), J = d(layer)/d(pixel) worked out from
// localToClip and the pass's viewport (push constant: pixels per clip-space unit, half the viewport's
// size), with (w) the similarity material's pixels per layer unit 1 / sqrt(G.xx). On lavapipe every
// output location costs every vertex of every draw (about 1 % of city's frame each), so these add one
// location and reuse one the materials leave unread. For the same reason an output the material's
// fragment shader never reads (specialization constants 2 and 3, shared with layer_quad.frag) is left
// unwritten: a flat opaque or textured quad computes only position, uv, colour, params and uv clamp.
// Cost: one 256-byte instance read per vertex, a 2x2 inverse.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "layer_instance.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Instances {
    LayerInstance instances[];
};
// The same records as 16-byte texels (R32G32B32A32_UINT: bits, never converted), member i of instance k
// at texel 16k + i; read this way where the device allows it (specialization constant 4): lavapipe loads
// a storage buffer at a per-vertex address one lane at a time (a loop and a branch per lane, per load),
// while a texel fetch is one gather. (About a third of lavapipe's vertex work in `city`, measured with
// four loads fewer.)
layout(set = 0, binding = 1) uniform usamplerBuffer instanceTexels;
layout(constant_id = 4) const bool INSTANCES_AS_TEXELS = false;

// Instance `index`, through the texel view or the storage buffer. Members the shader never uses are
// never fetched (the compiler drops the dead reads). The texels follow LayerInstance's member order.
LayerInstance loadInstance(int index) {
    if (!INSTANCES_AS_TEXELS) { return instances[index]; }
    int base = 16 * index;
    LayerInstance instance;
    for (int i = 0; i < 4; i++) { instance.localToClip[i] = uintBitsToFloat(texelFetch(instanceTexels, base + i)); }
    instance.quad = uintBitsToFloat(texelFetch(instanceTexels, base + 4));
    instance.uv = uintBitsToFloat(texelFetch(instanceTexels, base + 5));
    instance.color = uintBitsToFloat(texelFetch(instanceTexels, base + 6));
    instance.shape = uintBitsToFloat(texelFetch(instanceTexels, base + 7));
    instance.shapeRadii = uintBitsToFloat(texelFetch(instanceTexels, base + 8));
    instance.params = uintBitsToFloat(texelFetch(instanceTexels, base + 9));
    for (int i = 0; i < 3; i++) { instance.clipFromLocal[i] = uintBitsToFloat(texelFetch(instanceTexels, base + 10 + i)); }
    instance.clipRect = uintBitsToFloat(texelFetch(instanceTexels, base + 13));
    instance.clipRadii = uintBitsToFloat(texelFetch(instanceTexels, base + 14));
    instance.uvClamp = uintBitsToFloat(texelFetch(instanceTexels, base + 15));
    return instance;
}

layout(location = 0) out vec2 vLocal;
layout(location = 1) out vec2 vUV;
layout(location = 2) out vec3 vClip;
layout(location = 3) flat out vec4 vColor;
layout(location = 4) flat out vec4 vShape;
layout(location = 5) flat out vec4 vShapeRadii;
layout(location = 6) flat out vec4 vParams;
layout(location = 7) flat out vec4 vClipRect;
layout(location = 8) flat out vec4 vClipRadii;
layout(location = 9) flat out vec4 vUVClamp;
layout(location = 10) flat out vec4 vGradientGeometry;
layout(location = 11) noperspective out vec2 vShapeOffset;

// The material's coverage (specialization constant 3, as in layer_quad.frag): only the derivative-free
// coverages (1: under a similarity, 2: under an affine map) read the shape frame and pixel metric, so only
// their pipelines work them out.
layout(constant_id = 3) const uint COVERAGE = 4u;
const uint COVERAGE_NONE = 0u;
const uint COVERAGE_SIMILAR_SHAPE = 1u;
const uint COVERAGE_AFFINE_SHAPE = 2u;
const uint COVERAGE_SHAPE = 3u;
const uint COVERAGE_BORDER_CLIP = 4u;
// The material's paints (specialization constant 2, as in layer_quad.frag).
layout(constant_id = 2) const uint PAINT = 63u;
const uint PAINT_GRADIENT = 4u;
const uint PAINT_FILTER = 32u;

// The pass's viewport: pixels per clip-space unit along x and y (half its width and height).
layout(push_constant) uniform Viewport {
    vec2 pixelsPerClipUnit;
} viewport;

void main() {
    int quadIndex = gl_InstanceIndex + gl_VertexIndex / 4;
    // The corner in strip order, (min, min), (max, min), (min, max), (max, max).
    int vertexIndex = gl_VertexIndex & 3;
    LayerInstance instance = loadInstance(quadIndex);
    vec2 corner = vec2(float(vertexIndex & 1), float(vertexIndex >> 1));
    vec2 p = mix(instance.quad.xy, instance.quad.zw, corner);
    bool piece = (floatBitsToUint(instance.params.y) & LAYER_FLAG_PIECE_CORNERS) != 0u;
    if (piece) {
        vec4 pair = vertexIndex < 2 ? instance.quad : instance.uvClamp;
        p = (vertexIndex & 1) == 0 ? pair.xy : pair.zw;
        corner = (p - instance.shape.xy) / (instance.shape.zw - instance.shape.xy);
    }
    mat4 localToClip = mat4(instance.localToClip[0], instance.localToClip[1],
                            instance.localToClip[2], instance.localToClip[3]);
    gl_Position = localToClip * vec4(p, 0.0, 1.0);
    gl_Position.z = instance.params.z * gl_Position.w;
    vUV = mix(instance.uv.xy, instance.uv.zw, corner);
    vColor = instance.color;
    vParams = instance.params;
    // The fragment shader reads a colour matrix straight from the instance (too many words to pass on).
    vParams.w = uintBitsToFloat(uint(quadIndex));
    // What only some materials read is worked out for those only (the outputs of the others are left
    // unwritten, and their fragment shader never reads them).
    if (COVERAGE >= COVERAGE_SHAPE || (PAINT & PAINT_GRADIENT) != 0u) {
        vLocal = p;
    }
    if (COVERAGE == COVERAGE_BORDER_CLIP) {
        vec3 h = vec3(p, 1.0);
        vClip = vec3(dot(instance.clipFromLocal[0].xyz, h),
                     dot(instance.clipFromLocal[1].xyz, h),
                     dot(instance.clipFromLocal[2].xyz, h));
        vClipRect = instance.clipRect;
        vClipRadii = instance.clipRadii;
    }
    if (COVERAGE != COVERAGE_NONE) {
        vShape = instance.shape;
        // Clamped here once (every coverage clamps them so, and a clamped radius stays clamped): the
        // derivative-free coverages take them as they come.
        vec2 halfSize = 0.5 * (instance.shape.zw - instance.shape.xy);
        vShapeRadii = clamp(instance.shapeRadii, vec4(0.0), vec4(max(0.0, min(halfSize.x, halfSize.y))));
    }
    // The fragment shader reads the gradient header from vUVClamp.xyz; a piece keeps it in clipFromLocal's w.
    bool gradient = (floatBitsToUint(instance.params.y) & LAYER_FLAG_GRADIENT) != 0u;
    vec4 pieceHeader = gradient ? vec4(instance.clipFromLocal[0].w, instance.clipFromLocal[1].w, instance.clipFromLocal[2].w, 0.0)
                                : vec4(0.0);
    vUVClamp = piece ? pieceHeader : instance.uvClamp;
    if ((PAINT & (PAINT_GRADIENT | PAINT_FILTER)) != 0u) {
        vGradientGeometry = instance.uv;
    }

    if (COVERAGE == COVERAGE_SIMILAR_SHAPE || COVERAGE == COVERAGE_AFFINE_SHAPE) {
        // The derivative-free coverages. Where w = localToClip[3].w for every point (no x or y term in w), the
        // map to pixels is p -> A p + t with A's columns the pixel images of the layer's axes; J = A^-1 has the
        // layer steps of one pixel along x and y as its columns.
        vec2 shapeCenter = 0.5 * (instance.shape.xy + instance.shape.zw);
        vShapeOffset = p - shapeCenter;
        vec2 axisX = instance.localToClip[0].xy / instance.localToClip[3].w * viewport.pixelsPerClipUnit;
        vec2 axisY = instance.localToClip[1].xy / instance.localToClip[3].w * viewport.pixelsPerClipUnit;
        float determinant = axisX.x * axisY.y - axisY.x * axisX.y;
        vec2 layerPerPixelX = vec2(axisY.y, -axisX.y) / determinant;
        vec2 layerPerPixelY = vec2(-axisY.x, axisX.x) / determinant;
        vec3 metric = vec3(layerPerPixelX.x * layerPerPixelX.x + layerPerPixelY.x * layerPerPixelY.x,
                           layerPerPixelX.x * layerPerPixelX.y + layerPerPixelY.x * layerPerPixelY.y,
                           layerPerPixelX.y * layerPerPixelX.y + layerPerPixelY.y * layerPerPixelY.y);
        vClipRect = vec4(metric, inversesqrt(metric.x));
    }
}
