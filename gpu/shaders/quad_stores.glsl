// store_quad(q, v): the destination window's 16-byte quad q (bytes
// [16 q, 16 q + 16)) becomes v. Expects the uvec4 view `dst_quads` of the
// destination binding. With SS_INDEX_QUADS (max_pooling2), store_index_quad
// does the same in the indices window, through its uvec4 view `idx_quads`.
//
// Built twice (gpu/CMakeLists.txt). With SS_STORE_PAIRS a quad goes out as
// two 64-bit stores: llvmpipe builds a storage-buffer store as a loop over
// the lanes with a branch and a scalar store per component, so two 64-bit
// components cost about half what four 32-bit ones do, and the stores are
// most of a gather's time there. GPUs write a uvec4 as one 16-byte store
// either way; the host picks this build only where DeviceLimits::store_pairs
// says so (CPU devices with shaderInt64, which it then enables).
#ifdef SS_STORE_PAIRS
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstPairs { u64vec2 dst_pairs[]; };
void store_quad(uint q, uvec4 v) { dst_pairs[q] = u64vec2(packUint2x32(v.xy), packUint2x32(v.zw)); }
#ifdef SS_INDEX_QUADS
layout(set = 0, binding = SS_BINDING_INDICES, std430) writeonly buffer IdxPairs { u64vec2 idx_pairs[]; };
void store_index_quad(uint q, uvec4 v) { idx_pairs[q] = u64vec2(packUint2x32(v.xy), packUint2x32(v.zw)); }
#endif
#else
void store_quad(uint q, uvec4 v) { dst_quads[q] = v; }
#ifdef SS_INDEX_QUADS
void store_index_quad(uint q, uvec4 v) { idx_quads[q] = v; }
#endif
#endif
