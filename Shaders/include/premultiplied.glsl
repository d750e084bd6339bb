// Premultiplied-alpha color helpers. Every color in LayerKit's shaders is premultiplied RGBA in
// gamma-encoded sRGB (UNORM targets, no sRGB formats), as Core Animation composites.
#ifndef PREMULTIPLIED_GLSL
#define PREMULTIPLIED_GLSL

// Scales a premultiplied color by coverage or opacity: all four channels.
vec4 premultipliedScale(vec4 color, float amount) {
    return color * amount;
}

// Source-over of two premultiplied colors: src + dst * (1 - src.a). The pipeline's fixed-function
// blend does this for the target; shaders use it when they composite internally.
vec4 premultipliedOver(vec4 src, vec4 dst) {
    return src + dst * (1.0 - src.a);
}

#endif
