#version 450
// max_pooling2 over N, C, D, H, W (the host gives a 4-D op a D axis of size 1).
// Window taps come from the tables the host copied from core's PoolingPlan;
// batch and channel map to themselves, as the plan defines. Rules
// (core/max_pooling.h): the first maximum in row-major window order wins, a
// NaN beats every number and the first NaN stays, padded taps never win,
// -0 equals +0. Values compare through an order-preserving key built from
// the raw bits (one signed int for 4-byte types, key32), so 64-bit types
// need neither shaderInt64 nor shaderFloat64, and denormals compare exactly
// (no float arithmetic at all).
// The index is the winner's flat row-major position in the logical input.
// Outputs whose taps the host found unpadded and affine along D, H and W
// (SS_P_D_RUN, SS_P_H_RUN, SS_P_W_*) compute their taps; the others read
// the tables; on the quad path (pooling_quads.glsl) groups of those outputs
// read their taps a 16-byte quad at a time. Each chunk runs
// one loop per kind of output rather than a branch per output, because
// llvmpipe runs both sides of a branch for every SIMD batch; it still runs
// a loop's body once, every lane off, where no lane enters it, so the
// boxes the quad path covers whole run the interior pipeline (INTERIOR,
// gpu/pooling_interior.h), which has no other loop compiled in.
#extension GL_GOOGLE_include_directive : require
#ifdef SS_STORE_PAIRS
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "meta_layout.h"

layout(local_size_x = SS_LOCAL_SIZE) in;
layout(constant_id = 0) const uint ES = 4u;           // element size in bytes
layout(constant_id = 1) const uint KIND = 0u;         // 0 unsigned, 1 signed, 2 floating
layout(constant_id = 2) const uint INDEX_BYTES = 0u;  // 0 (no indices), 4 or 8
layout(constant_id = 3) const uint TABLE_QUADS = 1024u;
layout(constant_id = 4) const bool TABLES_IN_STORAGE = false;
layout(constant_id = 6) const uint POOL_QUADS = 0u;   // the quad path's SS_PQ_* geometry, 0: off
// The interior pipeline (gpu/pooling_interior.h): every output of the box is
// pooled by a whole group of the quad path and stored as whole quads, so no
// other path is compiled in. SS_GENERAL, SS_INTERIOR or SS_INTERIOR_AT + k.
layout(constant_id = 8) const uint PIPELINE = SS_GENERAL;
const bool INTERIOR = PIPELINE != SS_GENERAL;

layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer Src { uint src_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) buffer Dst { uint dst_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstQuads { uvec4 dst_quads[]; };
layout(set = 0, binding = SS_BINDING_INDICES, std430) writeonly buffer Idx { uint idx_words[]; };
layout(set = 0, binding = SS_BINDING_INDICES, std430) writeonly buffer IdxQuads { uvec4 idx_quads[]; };

layout(push_constant) uniform Push {
  uint item_base;  // first item of this dispatch within the box
} pc;

#include "meta_access.glsl"
#include "source_quads.glsl"
#include "element_io.glsl"
#define SS_INDEX_QUADS 1
#include "quad_stores.glsl"

// Order key: a larger key means a larger value (x = high word, y = low word).
// Both zeros map to the key of +0, so -0 and +0 tie and the first one stays.
uvec2 order_key(uvec2 bits) {
  uint bit_count = ES * 8u;
  if (KIND == 2u) {
    if (ES == 8u) {
      uint hi = bits.y;
      uint lo = bits.x;
      if ((hi & 0x7FFFFFFFu) == 0u && lo == 0u) hi = 0u;
      return (hi & 0x80000000u) != 0u ? uvec2(~hi, ~lo) : uvec2(hi | 0x80000000u, lo);
    }
    uint sign = 1u << (bit_count - 1u);
    uint all = (ES == 4u) ? 0xFFFFFFFFu : 0xFFFFu;
    uint v = bits.x;
    if ((v & ~sign & all) == 0u) v = 0u;
    return uvec2(0u, (v & sign) != 0u ? (~v & all) : (v | sign));
  }
  if (ES == 8u) {
    return uvec2(KIND == 1u ? (bits.y ^ 0x80000000u) : bits.y, bits.x);
  }
  if (KIND == 1u) {
    // Sign-extend to 32 bits, then flip the sign bit: signed order as unsigned.
    uint shift = 32u - bit_count;
    int extended = int(bits.x << shift) >> shift;
    return uvec2(0u, uint(extended) ^ 0x80000000u);
  }
  return uvec2(0u, bits.x);
}

bool is_nan(uvec2 bits) {
  if (KIND != 2u) return false;
  if (ES == 8u) {
    uint hi = bits.y & 0x7FFFFFFFu;
    return hi > 0x7FF00000u || (hi == 0x7FF00000u && bits.x != 0u);
  }
  if (ES == 4u) return (bits.x & 0x7FFFFFFFu) > 0x7F800000u;
  return (bits.x & 0x7FFFu) > 0x7C00u;
}

// The signed order key of a 4-byte element: floats from sign and magnitude
// to two's complement, which gives both zeros key 0, and every NaN the
// largest key, which no number has; integers signed or offset. One signed
// compare then keeps all the rules: a NaN beats every number, a later NaN
// (equal key) never replaces the first.
int key32(uint v) {
  if (KIND == 2u) {
    uint magnitude = v & 0x7FFFFFFFu;
    int sign = int(v) >> 31;
    int key = (int(magnitude) ^ sign) - sign;
    return magnitude > 0x7F800000u ? 0x7FFFFFFF : key;
  }
  return KIND == 1u ? int(v) : int(v ^ 0x80000000u);
}

bool key_greater(uvec2 a, uvec2 b) { return a.x > b.x || (a.x == b.x && a.y > b.y); }

// (lo, hi) of a * b where b is 64-bit, modulo 2^64.
uvec2 mul_64(uint a, uint b_lo, uint b_hi) {
  uint hi;
  uint lo;
  umulExtended(a, b_lo, hi, lo);
  return uvec2(lo, hi + a * b_hi);
}

uvec2 add_64(uvec2 a, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}

uvec2 flat_term(uint axis, uint index) {
  return mul_64(index, box_word(SS_P_FLAT_LO + axis), box_word(SS_P_FLAT_HI + axis));
}

// The running winner of one window.
struct Best {
  bool found;
  bool nan;
  uvec2 key;
  uvec2 bits;
  uvec3 tap;  // input index along D, H, W
};

Best no_best() { return Best(false, false, uvec2(0u), uvec2(0u), uvec3(0u)); }

void consider(inout Best best, uvec2 bits, uvec3 tap) {
  if (ES == 4u) {
    int key = key32(bits.x);
    if (!best.found || key > int(best.key.x)) best = Best(true, false, uvec2(uint(key), 0u), bits, tap);
    return;
  }
  bool nan = is_nan(bits);
  uvec2 key = order_key(bits);
  if (!best.found || (!best.nan && (nan || key_greater(key, best.key)))) best = Best(true, nan, key, bits, tap);
}

// The row's context, set once per invocation by main().
uint o_axes[4];  // output index along N, C, D, H
uint src_nc;
uint dst_row;
uint idx_row;
uint taps_d;
uint taps_h;
uint id0;  // the row's first D tap (the interior pipeline: its first real one)
uint ih0;  // the row's first H tap (the interior pipeline: its first real one)
uint last_kd;  // the row's real D and H taps less one: the quad path repeats
uint last_kh;  //   the last in place of padded ones (SS_P_D_REAL)
uint flat_row;  // 32-bit indices on the quad path: low word of the flat position of (id0, ih0, 0)

// The window of output column `col`, W taps from the table.
Best pool_from_table(uint col) {
  uint window_w = box_word(SS_P_WINDOWS + 4u);
  uint taps_w = box_word(SS_P_TAPS_AT + 4u) + col * window_w;
  uint stride_w = box_word(SS_P_IN_STRIDES + 4u);
  Best best = no_best();
  for (uint kd = 0u; kd < box_word(SS_P_WINDOWS + 2u); ++kd) {
    uint id = table_word(taps_d + kd);
    if (id == SS_PADDING_INDEX) continue;
    for (uint kh = 0u; kh < box_word(SS_P_WINDOWS + 3u); ++kh) {
      uint ih = table_word(taps_h + kh);
      if (ih == SS_PADDING_INDEX) continue;
      uint src_dh = src_nc + id * box_word(SS_P_IN_STRIDES + 2u) + ih * box_word(SS_P_IN_STRIDES + 3u);
      for (uint kw = 0u; kw < window_w; ++kw) {
        uint iw = table_word(taps_w + kw);
        if (iw == SS_PADDING_INDEX) continue;
        consider(best, load_element(src_dh + iw * stride_w), uvec3(id, ih, iw));
      }
    }
  }
  return best;
}

// The window of output column `col` of a row inside the D and H runs,
// column inside the W run: taps computed, no padding test at all.
Best pool_inner(uint col) {
  uint window_w = box_word(SS_P_WINDOWS + 4u);
  uint step_k = box_word(SS_P_W_STEP_K);
  uint iw0 = box_word(SS_P_W_BASE) + col * box_word(SS_P_W_STEP_O);
  uint stride_w = box_word(SS_P_IN_STRIDES + 4u);
  uint src_step = step_k * stride_w;
  uint stride_h = box_word(SS_P_IN_STRIDES + 3u);
  uint step_kh = table_word(SS_P_H_RUN + 2u);
  uint src_step_h = step_kh * stride_h;
  uint step_kd = table_word(SS_P_D_RUN + 2u);
  uint src_step_d = step_kd * box_word(SS_P_IN_STRIDES + 2u);
  uint id = id0;
  uint src_d = src_nc + id0 * box_word(SS_P_IN_STRIDES + 2u) + ih0 * stride_h + iw0 * stride_w;
  Best best = no_best();
  for (uint kd = 0u; kd < box_word(SS_P_WINDOWS + 2u); ++kd) {
    uint ih = ih0;
    uint src_h = src_d;
    for (uint kh = 0u; kh < box_word(SS_P_WINDOWS + 3u); ++kh) {
      uint src = src_h;
      uint iw = iw0;
      for (uint kw = 0u; kw < window_w; ++kw) {
        consider(best, load_element(src), uvec3(id, ih, iw));
        src += src_step;
        iw += step_k;
      }
      src_h += src_step_h;
      ih += step_kh;
    }
    src_d += src_step_d;
    id += step_kd;
  }
  return best;
}

// The flat row-major input position of `tap` in the current row's N and C.
uvec2 flat_index(uvec3 tap) {
  uvec2 sum = add_64(flat_term(0u, o_axes[0]), flat_term(1u, o_axes[1]));
  sum = add_64(sum, flat_term(2u, tap.x));
  sum = add_64(sum, flat_term(3u, tap.y));
  return add_64(sum, flat_term(4u, tap.z));
}

// Writes `position` to element `e` of the indices window (INDEX_BYTES != 0).
void write_index(uint e, uvec2 position) {
  if (INDEX_BYTES == 8u) {
    idx_words[2u * e] = position.x;
    idx_words[2u * e + 1u] = position.y;
  } else {
    idx_words[e] = position.x;
  }
}

void write_output(uint col, Best best) {
  store_element(dst_row + col * box_word(SS_P_OUT_STRIDES + 4u), best.bits);
  if (INDEX_BYTES == 0u) return;
  write_index(idx_row + col * box_word(SS_P_IDX_STRIDES + 4u), flat_index(best.tap));
}

#include "pooling_quads.glsl"

// Sets the row's context from `row` (the box's outer index).
void set_row(uint row) {
  // Outer coordinates N, C, D, H of the row, innermost first.
  for (uint k = 1u; k <= 4u; ++k) {
    uint axis = 4u - k;
    uint rest = fast_div(row, box_word(SS_R_EXT_MAGIC + axis), box_word(SS_R_EXT_SHIFTS + axis));
    o_axes[axis] = box_word(SS_R_LO + axis) + (row - rest * box_word(SS_R_EXT + axis));
    row = rest;
  }
  src_nc = o_axes[0] * box_word(SS_P_IN_STRIDES + 0u) + o_axes[1] * box_word(SS_P_IN_STRIDES + 1u) -
           box_word(SS_R_IN_BASE);
  dst_row = 0u - box_word(SS_R_OUT_BASE);
  idx_row = 0u - box_word(SS_R_IDX_BASE);
  for (uint axis = 0u; axis < 4u; ++axis) {
    dst_row += o_axes[axis] * box_word(SS_P_OUT_STRIDES + axis);
    idx_row += o_axes[axis] * box_word(SS_P_IDX_STRIDES + axis);
  }
  taps_d = box_word(SS_P_TAPS_AT + 2u) + o_axes[2] * box_word(SS_P_WINDOWS + 2u);
  taps_h = box_word(SS_P_TAPS_AT + 3u) + o_axes[3] * box_word(SS_P_WINDOWS + 3u);
  if (INTERIOR) {
    uint d_pair = table_word(SS_P_D_REAL) + 2u * o_axes[2];
    uint h_pair = table_word(SS_P_H_REAL) + 2u * o_axes[3];
    id0 = table_word(d_pair);
    last_kd = table_word(d_pair + 1u);
    ih0 = table_word(h_pair);
    last_kh = table_word(h_pair + 1u);
  } else {
    id0 = table_word(taps_d);
    ih0 = table_word(taps_h);
    last_kd = box_word(SS_P_WINDOWS + 2u) - 1u;
    last_kh = box_word(SS_P_WINDOWS + 3u) - 1u;
  }
  flat_row = INDEX_BYTES == 4u && POOL_QUADS != 0u ? flat_index(uvec3(id0, ih0, 0u)).x : 0u;
}

void main() {
  uint item = pc.item_base + gl_GlobalInvocationID.x;
  if (item >= box_word(SS_R_ITEMS)) return;
  uint row = fast_div(item, box_word(SS_R_CHUNKS_MAGIC), box_word(SS_R_CHUNKS_SHIFTS));
  uint chunk = item - row * box_word(SS_R_CHUNKS_PER_ROW);
  set_row(row);

  uint box_begin = box_word(SS_R_LO + 4u);
  uint col = box_begin + chunk * box_word(SS_CHUNK);
  uint col_end = min(col + box_word(SS_CHUNK), box_begin + box_word(SS_R_EXT + 4u));
  if (INTERIOR) {
    pool_interior_chunk(col, col_end);
    return;
  }
  // A row outside the D or H run reads every tap from the tables.
  bool row_inner = o_axes[3] >= table_word(SS_P_H_RUN) && o_axes[3] < table_word(SS_P_H_RUN + 1u) &&
                   o_axes[2] >= table_word(SS_P_D_RUN) && o_axes[2] < table_word(SS_P_D_RUN + 1u);
  uint inner_lo = clamp(box_word(SS_P_W_INNER_LO), col, col_end);
  uint inner_hi = row_inner ? clamp(box_word(SS_P_W_INNER_HI), inner_lo, col_end) : inner_lo;
  uint quads_from = POOL_QUADS != 0u ? quad_edge(col, inner_lo, row_inner) : inner_lo;
  for (; col < quads_from; ++col) write_output(col, pool_from_table(col));
  if (POOL_QUADS != 0u) {
    uint n = quad_head(col);
    // Tested after each group rather than before it: on lavapipe the loop
    // with its test on top cost about one group more per batch of lanes
    // (the pooling bench, 16-output chunks: 4-9% slower), as llvmpipe runs
    // a loop's body once more, every lane off, as it exits.
    if (col < inner_hi && quad_group_fits(col)) {
      do {
        pool_quad_group(col, min(inner_hi - col, n));
        col += n;
        n = SS_PQ_GROUP;
      } while (col < inner_hi && quad_group_fits(col));
    }
    col = min(col, inner_hi);
  }
  for (; col < inner_hi; ++col) write_output(col, pool_inner(col));
  for (; col < col_end; ++col) write_output(col, pool_from_table(col));
  flush_element_stores();
}
