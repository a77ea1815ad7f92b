#version 450
// max_pooling2 over N, C, D, H, W (the host gives a 4-D op a D axis of size 1).
// Window taps come from the tables the host copied from core's PoolingPlan;
// batch and channel map to themselves, as the plan defines. Rules
// (core/max_pooling.h): the first maximum in row-major window order wins, a
// NaN beats every number and the first NaN stays, padded taps never win,
// -0 equals +0. Values compare through an order-preserving unsigned key built
// from the raw bits, so 64-bit types need neither shaderInt64 nor
// shaderFloat64, and denormals compare exactly (no float arithmetic at all).
// The index is the winner's flat row-major position in the logical input.
#extension GL_GOOGLE_include_directive : require
#include "meta_layout.h"

layout(local_size_x = SS_LOCAL_SIZE) in;
layout(constant_id = 0) const uint ES = 4u;           // element size in bytes
layout(constant_id = 1) const uint KIND = 0u;         // 0 unsigned, 1 signed, 2 floating
layout(constant_id = 2) const uint INDEX_BYTES = 0u;  // 0 (no indices), 4 or 8
layout(constant_id = 3) const uint TABLE_QUADS = 1024u;
layout(constant_id = 4) const bool TABLES_IN_STORAGE = false;

layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer Src { uint src_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) buffer Dst { uint dst_words[]; };
layout(set = 0, binding = SS_BINDING_INDICES, std430) writeonly buffer Idx { uint idx_words[]; };

layout(push_constant) uniform Push {
  uint item_base;  // first item of this dispatch within the box
} pc;

#include "meta_access.glsl"
#include "element_io.glsl"

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

void main() {
  uint item = pc.item_base + gl_GlobalInvocationID.x;
  if (item >= box_word(SS_R_ITEMS)) return;
  uint row = fast_div(item, box_word(SS_R_CHUNKS_MAGIC), box_word(SS_R_CHUNKS_SHIFTS));
  uint chunk = item - row * box_word(SS_R_CHUNKS_PER_ROW);

  // Outer coordinates N, C, D, H of the row, innermost first.
  uint o[4];
  for (uint k = 1u; k <= 4u; ++k) {
    uint axis = 4u - k;
    uint rest = fast_div(row, box_word(SS_R_EXT_MAGIC + axis), box_word(SS_R_EXT_SHIFTS + axis));
    o[axis] = box_word(SS_R_LO + axis) + (row - rest * box_word(SS_R_EXT + axis));
    row = rest;
  }
  uint src_nc = o[0] * box_word(SS_P_IN_STRIDES + 0u) + o[1] * box_word(SS_P_IN_STRIDES + 1u) - box_word(SS_R_IN_BASE);
  uint dst_row = 0u - box_word(SS_R_OUT_BASE);
  uint idx_row = 0u - box_word(SS_R_IDX_BASE);
  for (uint axis = 0u; axis < 4u; ++axis) {
    dst_row += o[axis] * box_word(SS_P_OUT_STRIDES + axis);
    idx_row += o[axis] * box_word(SS_P_IDX_STRIDES + axis);
  }

  uint window_d = box_word(SS_P_WINDOWS + 2u);
  uint window_h = box_word(SS_P_WINDOWS + 3u);
  uint window_w = box_word(SS_P_WINDOWS + 4u);
  uint taps_d = box_word(SS_P_TAPS_AT + 2u) + o[2] * window_d;
  uint taps_h = box_word(SS_P_TAPS_AT + 3u) + o[3] * window_h;
  uint taps_w0 = box_word(SS_P_TAPS_AT + 4u);
  uint stride_d = box_word(SS_P_IN_STRIDES + 2u);
  uint stride_h = box_word(SS_P_IN_STRIDES + 3u);
  uint stride_w = box_word(SS_P_IN_STRIDES + 4u);
  uint dst_stride = box_word(SS_P_OUT_STRIDES + 4u);
  uint idx_stride = box_word(SS_P_IDX_STRIDES + 4u);

  uint chunk_size = box_word(SS_CHUNK);
  uint box_begin = box_word(SS_R_LO + 4u);
  uint col = box_begin + chunk * chunk_size;
  uint col_end = min(col + chunk_size, box_begin + box_word(SS_R_EXT + 4u));
  for (; col < col_end; ++col) {
    uint taps_w = taps_w0 + col * window_w;
    bool found = false;
    bool best_nan = false;
    uvec2 best_key = uvec2(0u);
    uvec2 best_bits = uvec2(0u);
    uvec3 best_tap = uvec3(0u);  // input index along D, H, W
    for (uint kd = 0u; kd < window_d; ++kd) {
      uint id = table_word(taps_d + kd);
      if (id == SS_PADDING_INDEX) continue;
      for (uint kh = 0u; kh < window_h; ++kh) {
        uint ih = table_word(taps_h + kh);
        if (ih == SS_PADDING_INDEX) continue;
        uint src_dh = src_nc + id * stride_d + ih * stride_h;
        for (uint kw = 0u; kw < window_w; ++kw) {
          uint iw = table_word(taps_w + kw);
          if (iw == SS_PADDING_INDEX) continue;
          uvec2 bits = load_element(src_dh + iw * stride_w);
          bool nan = is_nan(bits);
          uvec2 key = order_key(bits);
          bool take = !found || (!best_nan && (nan || key_greater(key, best_key)));
          if (take) {
            found = true;
            best_nan = nan;
            best_key = key;
            best_bits = bits;
            best_tap = uvec3(id, ih, iw);
          }
        }
      }
    }
    store_element(dst_row + col * dst_stride, best_bits);
    if (INDEX_BYTES != 0u) {
      uvec2 flat_index = add_64(flat_term(0u, o[0]), flat_term(1u, o[1]));
      flat_index = add_64(flat_index, flat_term(2u, best_tap.x));
      flat_index = add_64(flat_index, flat_term(3u, best_tap.y));
      flat_index = add_64(flat_index, flat_term(4u, best_tap.z));
      uint e = idx_row + col * idx_stride;
      if (INDEX_BYTES == 8u) {
        idx_words[2u * e] = flat_index.x;
        idx_words[2u * e + 1u] = flat_index.y;
      } else {
        idx_words[e] = flat_index.x;
      }
    }
  }
  flush_element_stores();
}
