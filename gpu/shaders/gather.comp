#version 450
// identity, slice, slice1 and padding: out[o] = in[sum_d source[d][o_d] * inStride[d]]
// or the padding value, following the per-axis tables that the host built from
// core's GatherPlan (see meta_layout.h for their run-length encoding). No
// operator formula is evaluated here.
//
// One invocation handles SS_CHUNK consecutive elements of one output row (the
// last axis) inside its box, or several whole rows where a row fits a chunk;
// the row's other coordinates are decoded once per invocation. The host's
// boxes leave out columns that vkCmdCopyBuffer wrote, or name them
// (SS_R_SKIP_LO/HI) so that one invocation writes both sides of a copied
// run. Contiguous output moves a 16-byte quad at a time (wide_io.glsl,
// reverse_io.glsl for runs of step -1; quad_stores.glsl writes the quads).
#extension GL_GOOGLE_include_directive : require
#ifdef SS_STORE_PAIRS
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "meta_layout.h"

layout(local_size_x = SS_LOCAL_SIZE) in;
layout(constant_id = 0) const uint ES = 4u;  // element size in bytes
layout(constant_id = 3) const uint TABLE_QUADS = 1024u;
layout(constant_id = 4) const bool TABLES_IN_STORAGE = false;
layout(constant_id = 5) const uint GATHER_PATHS = 0x1Fu;  // SS_PATH_* the op needs

layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer Src { uint src_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) buffer Dst { uint dst_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstQuads { uvec4 dst_quads[]; };

layout(push_constant) uniform Push {
  uint item_base;  // first item of this dispatch within the box
} pc;

#include "meta_access.glsl"
#include "source_quads.glsl"
#include "element_io.glsl"
#include "quad_stores.glsl"
#include "wide_io.glsl"
#include "reverse_io.glsl"

uvec4 segment_at(uint segment) {
  uint w = 4u * segment;
  return uvec4(table_word(w), table_word(w + 1u), table_word(w + 2u), table_word(w + 3u));  // begin, value, step, pad
}

// The segment of an axis holding output index `o`: the last whose begin <= o.
uint find_segment(uint first, uint count, uint o) {
  uint lo = 0u;
  uint hi = count;
  while (hi - lo > 1u) {
    uint mid = (lo + hi) >> 1u;
    if (table_word(4u * (first + mid)) <= o) lo = mid; else hi = mid;
  }
  return first + lo;
}

// The first column from `col` on that the transfers did not write.
uint past_skip(uint col) {
  return (col >= box_word(SS_R_SKIP_LO) && col < box_word(SS_R_SKIP_HI)) ? box_word(SS_R_SKIP_HI) : col;
}

// One run of `count` elements of a row: the padding value (`fill`), or the
// source elements from `src` on, `step` apart.
void write_run(bool fill, uint src, uint step, uint dst, uint dst_stride, uint count, uvec2 pad_bits) {
  bool scatter = (GATHER_PATHS & SS_PATH_SCATTER) != 0u && dst_stride != 1u;
  if ((GATHER_PATHS & SS_PATH_FILL) != 0u && fill) {
    if (scatter) {
      for (uint i = 0u; i < count; ++i, dst += dst_stride) store_element(dst, pad_bits);
    } else {
      fill_run(dst, count, pad_bits);
    }
  } else if (scatter) {
    for (uint i = 0u; i < count; ++i, dst += dst_stride, src += step) store_element(dst, load_element(src));
  } else if ((GATHER_PATHS & SS_PATH_REVERSE) != 0u && step == 0xFFFFFFFFu) {
    reverse_run(src, dst, count);
  } else if ((GATHER_PATHS & SS_PATH_GATHER) == 0u || ((GATHER_PATHS & SS_PATH_COPY) != 0u && step == 1u)) {
    copy_run(src, dst, count);
  } else {
    gather_run(src, step, dst, count);
  }
}

// The `rows` runs of `count` elements, run r from src + r * row_step.x and
// dst + r * row_step.y, `step` apart in the source, in one loop where the
// step and the runs' alignment allow (gather_step2_rows, reverse_rows);
// returns the runs written, all or none.
uint all_rows(uint src, uint step, uint dst, uint count, uint rows, uvec2 row_step) {
  if ((GATHER_PATHS & SS_PATH_GATHER) != 0u && step == 2u) return gather_step2_rows(src, dst, count, rows, row_step);
  if ((GATHER_PATHS & SS_PATH_REVERSE) != 0u && step == 0xFFFFFFFFu) return reverse_rows(src, dst, count, rows, row_step);
  return 0u;
}

// Output columns [col, col_end) of `rows` rows, row r at src_row + r *
// src_step and dst_row + r * dst_step, less the skipped columns: the padding
// value where the rows or the column's segment are padding, else the source
// elements. The segments are walked once for all the rows. One loop walks
// the runs on both sides of the skipped columns: llvmpipe runs every store
// site under a lane mask, taken or not, so a second copy of this code (one
// call per side) would cost each invocation as much again.
void write_columns(uint col, uint col_end, bool valid, uvec2 row_at, uint rows, uvec2 row_step) {
  uint inner = box_word(SS_RANK) - 1u;
  uint skip_lo = box_word(SS_R_SKIP_LO);
  uint row_size = box_word(SS_G_SIZES + inner);
  uint dst_stride = box_word(SS_G_OUT_STRIDES + inner);
  uvec2 pad_bits = uvec2(box_word(SS_G_PAD_LO), box_word(SS_G_PAD_HI));
  uint first = box_word(SS_G_SEG_FIRST + inner);
  uint last = first + box_word(SS_G_SEG_COUNT + inner) - 1u;
  col = past_skip(col);
  if (col >= col_end) return;
  for (uint segment = find_segment(first, last - first + 1u, col); col < col_end;) {
    uvec4 s = segment_at(segment);
    uint stop = min(col_end, segment < last ? table_word(4u * (segment + 1u)) : row_size);
    if (col < skip_lo) stop = min(stop, skip_lo);
    bool fill = !valid || s.w != 0u;
    uint src = row_at.x + s.y + (col - s.x) * s.z;
    uint dst = row_at.y + col * dst_stride;
    uint r = (fill || dst_stride != 1u) ? 0u : all_rows(src, s.z, dst, stop - col, rows, row_step);
    src += r * row_step.x;
    dst += r * row_step.y;
    for (; r < rows; ++r, src += row_step.x, dst += row_step.y) {
      write_run(fill, src, s.z, dst, dst_stride, stop - col, pad_bits);
    }
    col = past_skip(stop);
    while (segment < last && table_word(4u * (segment + 1u)) <= col) ++segment;
  }
}

// Adds axis `axis` at output index `o` to a row's offsets (relative to the
// bound windows; they wrap mod 2^32 and are exact there).
void add_axis(uint axis, uint o, inout bool valid, inout uint src_row, inout uint dst_row) {
  uint first = box_word(SS_G_SEG_FIRST + axis);
  uint count = box_word(SS_G_SEG_COUNT + axis);
  uvec4 s = segment_at(count == 1u ? first : find_segment(first, count, o));
  if (s.w != 0u) {
    valid = false;
  } else {
    src_row += s.y + (o - s.x) * s.z;
  }
  dst_row += o * box_word(SS_G_OUT_STRIDES + axis);
}

// Row `row` of the box (its outer coordinates, innermost first): the index
// along the axis next to the row (x; 0 at rank 1) and the offsets and
// validity that the axes outside that one give (y, z, w != 0).
uvec4 decode_row(uint row, uint inner) {
  bool valid = true;
  uint src_row = box_word(SS_G_INPUT_BASE) - box_word(SS_R_IN_BASE);
  uint dst_row = 0u - box_word(SS_R_OUT_BASE);
  uint next = 0u;
  for (uint k = 1u; k <= inner; ++k) {
    uint axis = inner - k;
    uint rest = fast_div(row, box_word(SS_R_EXT_MAGIC + axis), box_word(SS_R_EXT_SHIFTS + axis));
    uint o = box_word(SS_R_LO + axis) + (row - rest * box_word(SS_R_EXT + axis));
    row = rest;
    if (k == 1u) {
      next = o;
    } else {
      add_axis(axis, o, valid, src_row, dst_row);
    }
  }
  return uvec4(next, src_row, dst_row, valid ? 1u : 0u);
}

// The rows from `row` on that follow each other at constant offsets: at
// most `rows` of them, inside one segment of the axis next to the row
// (`outer` as decode_row gives it). Writes their offsets (src, dst) and
// steps, whether they are padding, and returns how many there are.
uint row_run(uvec4 outer, uint rows, out uvec2 row_at, out uvec2 row_step, out bool valid) {
  uint inner = box_word(SS_RANK) - 1u;
  valid = outer.w != 0u;
  row_at = outer.yz;
  row_step = uvec2(0u);
  if (inner == 0u) return 1u;
  uint axis = inner - 1u;
  uint o = outer.x;
  uint first = box_word(SS_G_SEG_FIRST + axis);
  uint count = box_word(SS_G_SEG_COUNT + axis);
  uint segment = count == 1u ? first : find_segment(first, count, o);
  uvec4 s = segment_at(segment);
  uint end = segment + 1u < first + count ? table_word(4u * (segment + 1u)) : box_word(SS_G_SIZES + axis);
  if (s.w != 0u) valid = false;
  row_step = uvec2(s.z, box_word(SS_G_OUT_STRIDES + axis));
  row_at += uvec2(s.y + (o - s.x) * s.z, o * row_step.y);
  return min(rows, end - o);
}

// An invocation writes SS_R_ROWS_PER_ITEM consecutive rows of the box (one
// unless a row fits a chunk), a run of rows at constant offsets at a time,
// decoding a row again only where the axis next to the row wraps.
void main() {
  uint item = pc.item_base + gl_GlobalInvocationID.x;
  if (item >= box_word(SS_R_ITEMS)) return;

  uint inner = box_word(SS_RANK) - 1u;
  uint group = fast_div(item, box_word(SS_R_CHUNKS_MAGIC), box_word(SS_R_CHUNKS_SHIFTS));
  uint chunk = item - group * box_word(SS_R_CHUNKS_PER_ROW);
  uint chunk_size = box_word(SS_CHUNK);
  uint col = box_word(SS_R_LO + inner) + chunk * chunk_size;
  uint col_end = min(col + chunk_size, box_word(SS_R_LO + inner) + box_word(SS_R_EXT + inner));

  uint row = group * box_word(SS_R_ROWS_PER_ITEM);
  uint row_end = min(row + box_word(SS_R_ROWS_PER_ITEM), box_word(SS_R_ROWS));
  uint next_end = inner == 0u ? 1u : box_word(SS_R_LO + inner - 1u) + box_word(SS_R_EXT + inner - 1u);
  uvec4 outer = uvec4(next_end, 0u, 0u, 0u);
  while (row < row_end) {
    if (outer.x == next_end) outer = decode_row(row, inner);
    uvec2 row_at;
    uvec2 row_step;
    bool valid;
    uint rows = row_run(outer, min(row_end - row, next_end - outer.x), row_at, row_step, valid);
    write_columns(col, col_end, valid, row_at, rows, row_step);
    row += rows;
    outer.x += rows;
  }
  flush_element_stores();
}
