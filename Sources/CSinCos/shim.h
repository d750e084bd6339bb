// The sine and cosine of one angle from one call (glibc's sincos, the same bits as sin and cos, one
// argument reduction for both): the render thread turns every spinning layer by both each frame.
// Declared here because glibc's math.h declares sincos only under _GNU_SOURCE, which the C library
// module Swift imports is not built with.
extern void sincos(double angle, double *sine, double *cosine);

static inline void lk_sincos(double angle, double *sine, double *cosine) {
    sincos(angle, sine, cosine);
}
