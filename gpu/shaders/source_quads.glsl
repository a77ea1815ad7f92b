// src_quad(q): the source window's 16-byte quad q (bytes [16 q, 16 q + 16)).
//
// Built twice (gpu/CMakeLists.txt). With SS_SOURCE_TEXELS the quads come
// through a uniform texel buffer of R32G32B32A32_UINT over the same window:
// llvmpipe builds texel fetches as vector address arithmetic and one gather,
// while a storage-buffer load runs a bounds-checked loop over the lanes;
// reading a quad costs about a third as much on lavapipe 22.3. Real GPUs read
// texel buffers through their texture caches, as fast as storage buffers.
// The host picks this build only when every box's window fits a buffer view
// (maxTexelBufferElements, minTexelBufferOffsetAlignment) and the format
// supports uniform texel buffers. Single elements still come from
// `src_words` (element_io.glsl), bound in both builds.
//
// Callers read only quads wholly inside the window, as the storage path
// requires: the view covers the window's whole quads.
#ifdef SS_SOURCE_TEXELS
layout(set = 0, binding = SS_BINDING_SRC_TEXELS) uniform usamplerBuffer src_texels;
uvec4 src_quad(uint q) { return texelFetch(src_texels, int(q)); }
#else
layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer SrcQuads { uvec4 src_quads[]; };
uvec4 src_quad(uint q) { return src_quads[q]; }
#endif
