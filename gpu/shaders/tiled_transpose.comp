#version 450
// Layout changes (e.g. NHWC -> NCHW): gathers whose every axis is affine in
// core's tables, whose row (the last axis, output stride 1) reads the input
// with a step other than 1 and whose next-to-last axis T reads it with step
// 1 (gpu/tiled_transpose.h chooses the order). Walking the row would read
// the input element by element, one cache line per element; instead each
// workgroup moves one SS_TILE x SS_TILE tile of (T, row) through shared
// memory: it reads the tile's T runs, contiguous in the input, 16 bytes per
// invocation and neighbouring invocations on neighbouring quads; then
// writes its row runs, contiguous in the output, the same way. Only element
// bits move (element_io.glsl); no operator formula is evaluated here.
//
// A quad that is not 16-byte aligned, or that the tile's edge cuts (sizes
// that are not multiples of the tile), goes element by element; sub-word
// elements then merge partial words atomically (element_io.glsl).
#extension GL_GOOGLE_include_directive : require
#include "meta_layout.h"

layout(local_size_x = SS_LOCAL_SIZE) in;
layout(constant_id = 0) const uint ES = 4u;  // element size in bytes
layout(constant_id = 3) const uint TABLE_QUADS = 1024u;
layout(constant_id = 4) const bool TABLES_IN_STORAGE = false;

layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer Src { uint src_words[]; };
layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer SrcQuads { uvec4 src_quads[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) buffer Dst { uint dst_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstQuads { uvec4 dst_quads[]; };

layout(push_constant) uniform Push {
  uint item_base;  // first item of this dispatch within the box (SS_LOCAL_SIZE per tile)
} pc;

#include "meta_access.glsl"
#include "element_io.glsl"

const uint PER_QUAD = 16u / ES;         // elements in a quad
const uint RUN_QUADS = SS_TILE / PER_QUAD;  // quads in one tile run
const uint PITCH = SS_TILE + 1u;        // shared row pitch: columns fall in different banks

// tile[row * PITCH + t]: the element of tile row `row` (along the output's
// row axis) and column `t` (along T); high words only for 8-byte elements.
shared uint tile_lo[SS_TILE * PITCH];
shared uint tile_hi[SS_TILE * PITCH];

void put(uint at, uvec2 bits) {
  tile_lo[at] = bits.x;
  if (ES == 8u) tile_hi[at] = bits.y;
}

uvec2 get(uint at) { return uvec2(tile_lo[at], ES == 8u ? tile_hi[at] : 0u); }

// Element i of a quad, zero-extended.
uvec2 quad_element(uvec4 q, uint i) {
  if (ES == 8u) return uvec2(q[2u * i], q[2u * i + 1u]);
  if (ES == 4u) return uvec2(q[i], 0u);
  if (ES == 2u) return uvec2((q[i >> 1u] >> ((i & 1u) * 16u)) & 0xFFFFu, 0u);
  return uvec2((q[i >> 2u] >> ((i & 3u) * 8u)) & 0xFFu, 0u);
}

// The quad whose elements are tile[first + i * PITCH], i < PER_QUAD.
uvec4 column_quad(uint first) {
  uvec4 q = uvec4(0u);
  for (uint i = 0u; i < PER_QUAD; ++i) {
    uvec2 bits = get(first + i * PITCH);
    if (ES == 8u) {
      q[2u * i] = bits.x;
      q[2u * i + 1u] = bits.y;
    } else if (ES == 4u) {
      q[i] = bits.x;
    } else if (ES == 2u) {
      q[i >> 1u] |= bits.x << ((i & 1u) * 16u);
    } else {
      q[i >> 2u] |= bits.x << ((i & 3u) * 8u);
    }
  }
  return q;
}

// Reads the tile: run `row` holds T columns [0, t_count) from source element
// src + row * row_step + t (T steps by one element).
void load_tile(uint src, uint row_step, uint t_count, uint row_count) {
  for (uint pass = 0u; pass < ES; ++pass) {
    uint g = gl_LocalInvocationID.x + pass * SS_LOCAL_SIZE;
    uint row = g / RUN_QUADS;
    uint t = (g % RUN_QUADS) * PER_QUAD;
    if (row >= row_count || t >= t_count) continue;
    uint s = src + row * row_step + t;
    uint at = row * PITCH + t;
    if (t + PER_QUAD <= t_count && ((s * ES) & 15u) == 0u) {
      uvec4 q = src_quads[(s * ES) >> 4u];
      for (uint i = 0u; i < PER_QUAD; ++i) put(at + i, quad_element(q, i));
    } else {
      for (uint i = 0u; i < PER_QUAD && t + i < t_count; ++i) put(at + i, load_element(s + i));
    }
  }
}

// Writes the tile: output T column t is the run of rows [0, row_count) at
// destination element dst + t * t_stride + row.
void store_tile(uint dst, uint t_stride, uint t_count, uint row_count) {
  for (uint pass = 0u; pass < ES; ++pass) {
    uint g = gl_LocalInvocationID.x + pass * SS_LOCAL_SIZE;
    uint t = g / RUN_QUADS;
    uint row = (g % RUN_QUADS) * PER_QUAD;
    if (t >= t_count || row >= row_count) continue;
    uint d = dst + t * t_stride + row;
    uint at = row * PITCH + t;
    if (row + PER_QUAD <= row_count && ((d * ES) & 15u) == 0u) {
      dst_quads[(d * ES) >> 4u] = column_quad(at);
    } else {
      for (uint i = 0u; i < PER_QUAD && row + i < row_count; ++i) store_element(d + i, get(at + i * PITCH));
      flush_element_stores();
    }
  }
}

void main() {
  uint tile_index = pc.item_base / SS_LOCAL_SIZE + gl_WorkGroupID.x;
  if (tile_index * SS_LOCAL_SIZE >= box_word(SS_R_ITEMS)) return;  // the whole workgroup

  uint inner = box_word(SS_RANK) - 1u;
  uint t_axis = inner - 1u;
  // Tiles run along the row fastest, then along T, then the outer axes.
  uint rest = fast_div(tile_index, box_word(SS_R_CHUNKS_MAGIC), box_word(SS_R_CHUNKS_SHIFTS));
  uint row_tile = tile_index - rest * box_word(SS_R_CHUNKS_PER_ROW);
  uint outer = fast_div(rest, box_word(SS_R_TILES_T_MAGIC), box_word(SS_R_TILES_T_SHIFTS));
  uint t_tile = rest - outer * box_word(SS_R_TILES_T);

  // Every axis is one affine segment (the host checked): its source offset
  // is value + (o - begin) * step, taken mod 2^32 relative to the windows.
  uint src = box_word(SS_G_INPUT_BASE) - box_word(SS_R_IN_BASE);
  uint dst = 0u - box_word(SS_R_OUT_BASE);
  for (uint k = 2u; k <= inner; ++k) {
    uint axis = inner - k;
    uint next = fast_div(outer, box_word(SS_R_EXT_MAGIC + axis), box_word(SS_R_EXT_SHIFTS + axis));
    uint o = box_word(SS_R_LO + axis) + (outer - next * box_word(SS_R_EXT + axis));
    outer = next;
    uint w = 4u * box_word(SS_G_SEG_FIRST + axis);  // segment words: begin, value, step, pad
    src += table_word(w + 1u) + (o - table_word(w)) * table_word(w + 2u);
    dst += o * box_word(SS_G_OUT_STRIDES + axis);
  }
  uint t0 = box_word(SS_R_LO + t_axis) + t_tile * SS_TILE;
  uint r0 = box_word(SS_R_LO + inner) + row_tile * SS_TILE;
  uint t_count = min(SS_TILE, box_word(SS_R_LO + t_axis) + box_word(SS_R_EXT + t_axis) - t0);
  uint row_count = min(SS_TILE, box_word(SS_R_LO + inner) + box_word(SS_R_EXT + inner) - r0);
  uint wt = 4u * box_word(SS_G_SEG_FIRST + t_axis);
  uint wr = 4u * box_word(SS_G_SEG_FIRST + inner);
  src += table_word(wt + 1u) + (t0 - table_word(wt)) + table_word(wr + 1u) + (r0 - table_word(wr)) * table_word(wr + 2u);
  dst += t0 * box_word(SS_G_OUT_STRIDES + t_axis) + r0;

  load_tile(src, table_word(wr + 2u), t_count, row_count);
  barrier();
  store_tile(dst, box_word(SS_G_OUT_STRIDES + t_axis), t_count, row_count);
}
