// store_quad(q, v): the destination window's 16-byte quad q (bytes
// [16 q, 16 q + 16)) becomes v. store_quad_pair(p, a, b): its 32 bytes from
// 32 p on become a then b. Expects the uvec4 view `dst_quads` of the
// destination binding. With SS_INDEX_QUADS (max_pooling2), store_index_quad
// does what store_quad does in the indices window, through its uvec4 view
// `idx_quads`.
//
// Built twice (gpu/CMakeLists.txt). With SS_STORE_PAIRS a quad goes out as
// two 64-bit stores: llvmpipe builds a storage-buffer store as a loop over
// the lanes with a branch and a scalar store per component, so two 64-bit
// components cost about half what four 32-bit ones do, and the stores are
// most of a gather's time there. A pair of quads goes out as one store of
// four 64-bit components, which share one such loop (f16 stride-2 slice: 17%
// fewer shader instructions than with two quad stores). GPUs write a uvec4
// as one 16-byte store either way; the host picks this build only where
// DeviceLimits::store_pairs says so (CPU devices with shaderInt64, which it
// then enables, on hosts without AVX-512: there a lane's 64-bit word is read
// back from a 512-bit vector's stack copy, which stalls).
#ifdef SS_STORE_PAIRS
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstPairs { u64vec2 dst_pairs[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstPairs4 { u64vec4 dst_pairs4[]; };
void store_quad(uint q, uvec4 v) { dst_pairs[q] = u64vec2(packUint2x32(v.xy), packUint2x32(v.zw)); }
void store_quad_pair(uint p, uvec4 a, uvec4 b) {
  dst_pairs4[p] = u64vec4(packUint2x32(a.xy), packUint2x32(a.zw), packUint2x32(b.xy), packUint2x32(b.zw));
}
#ifdef SS_INDEX_QUADS
layout(set = 0, binding = SS_BINDING_INDICES, std430) writeonly buffer IdxPairs { u64vec2 idx_pairs[]; };
void store_index_quad(uint q, uvec4 v) { idx_pairs[q] = u64vec2(packUint2x32(v.xy), packUint2x32(v.zw)); }
#endif
#else
void store_quad(uint q, uvec4 v) { dst_quads[q] = v; }
void store_quad_pair(uint p, uvec4 a, uvec4 b) {
  dst_quads[2u * p] = a;
  dst_quads[2u * p + 1u] = b;
}
#ifdef SS_INDEX_QUADS
void store_index_quad(uint q, uvec4 v) { idx_quads[q] = v; }
#endif
#endif
