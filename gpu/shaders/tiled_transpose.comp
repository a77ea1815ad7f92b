#version 450
// Layout changes (e.g. NHWC -> NCHW): gathers whose every axis is affine in
// core's tables, whose row (the last axis, output stride 1) reads the input
// with a step other than 1 and whose next-to-last axis T reads it with step
// 1 (gpu/tiled_transpose.h chooses the order). Walking the row would read
// the input element by element, one cache line per element; instead each
// workgroup moves square tiles of (T, row), TILE = SS_TILE_BYTES / ES
// elements a side, through shared memory:
//   - load: invocation (tq, rb) reads the 16-byte quads of T elements
//     [tq * PER_QUAD, +PER_QUAD) of rows [rb * PER_QUAD, +PER_QUAD): eight
//     neighbouring invocations read one 128-byte input run;
//   - it transposes that block of PER_QUAD x PER_QUAD elements in registers
//     and stores it as quads of row elements, one per T index;
//   - store: invocation (rq, tb) writes the quads [rq * PER_QUAD, +PER_QUAD)
//     of T indices [tb * PER_QUAD, +PER_QUAD): eight neighbouring
//     invocations write one 128-byte output run.
// Shared memory moves whole quads: llvmpipe executes one shared-memory
// access per lane, so a quad costs what an element would. On CPU devices
// (TILES_IN_REGISTERS) whole tiles skip shared memory: each invocation
// writes its transposed block straight out. Only element bits
// move (element_io.glsl); no operator formula is evaluated here.
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
// Whole tiles move block by block in registers, without shared memory
// (move_full_tile_in_registers): for CPU devices, where shared memory is
// plain memory behind per-lane loops and each barrier switches every
// invocation's coroutine.
layout(constant_id = 7) const bool TILES_IN_REGISTERS = false;

layout(set = 0, binding = SS_BINDING_SRC, std430) readonly buffer Src { uint src_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) buffer Dst { uint dst_words[]; };
layout(set = 0, binding = SS_BINDING_DST, std430) writeonly buffer DstQuads { uvec4 dst_quads[]; };

layout(push_constant) uniform Push {
  uint item_base;  // first item of this dispatch within the box (SS_LOCAL_SIZE per strip of tiles)
} pc;

#include "meta_access.glsl"
#include "source_quads.glsl"
#include "element_io.glsl"

const uint PER_QUAD = 16u / ES;             // elements in a quad
const uint TILE = SS_TILE_BYTES / ES;       // tile side in elements: 8 quads
const uint TILE_QUADS = TILE / PER_QUAD;    // 8

// tile[t * TILE_QUADS + rq]: row elements [rq * PER_QUAD, +PER_QUAD) of T index t.
shared uvec4 tile[TILE * TILE_QUADS];

// Element i of a quad, zero-extended.
uvec2 quad_element(uvec4 q, uint i) {
  if (ES == 8u) return uvec2(q[2u * i], q[2u * i + 1u]);
  if (ES == 4u) return uvec2(q[i], 0u);
  if (ES == 2u) return uvec2((q[i >> 1u] >> ((i & 1u) * 16u)) & 0xFFFFu, 0u);
  return uvec2((q[i >> 2u] >> ((i & 3u) * 8u)) & 0xFFu, 0u);
}

// q with element i set to `bits` (its other elements as they were).
uvec4 with_element(uvec4 q, uint i, uvec2 bits) {
  if (ES == 8u) {
    q[2u * i] = bits.x;
    q[2u * i + 1u] = bits.y;
  } else if (ES == 4u) {
    q[i] = bits.x;
  } else if (ES == 2u) {
    uint shift = (i & 1u) * 16u;
    q[i >> 1u] = (q[i >> 1u] & ~(0xFFFFu << shift)) | (bits.x << shift);
  } else {
    uint shift = (i & 3u) * 8u;
    q[i >> 2u] = (q[i >> 2u] & ~(0xFFu << shift)) | (bits.x << shift);
  }
  return q;
}

// The `count` (<= PER_QUAD) source elements from `s` as a quad.
uvec4 load_quad(uint s, uint count) {
  if (count == PER_QUAD && ((s * ES) & 15u) == 0u) return src_quad((s * ES) >> 4u);
  uvec4 q = uvec4(0u);
  for (uint i = 0u; i < count; ++i) q = with_element(q, i, load_element(s + i));
  return q;
}

// The first `count` (<= PER_QUAD) elements of q to destination elements from d.
void store_quad(uint d, uint count, uvec4 q) {
  if (count == PER_QUAD && ((d * ES) & 15u) == 0u) {
    dst_quads[(d * ES) >> 4u] = q;
    return;
  }
  for (uint i = 0u; i < count; ++i) store_element(d + i, quad_element(q, i));
  flush_element_stores();
}

// Column i of block (block[j]: the quad of T elements of row j): T element
// i of every row. 4- and 8-byte elements transpose with constant swizzles
// (i is a constant once the callers' loops unroll): llvmpipe turns a
// dynamically indexed vector component into a chain of selects.
uvec4 block_column(uvec4 block[16], uint i) {
  if (ES == 8u) return i == 0u ? uvec4(block[0].xy, block[1].xy) : uvec4(block[0].zw, block[1].zw);
  if (ES == 4u) {
    if (i == 0u) return uvec4(block[0].x, block[1].x, block[2].x, block[3].x);
    if (i == 1u) return uvec4(block[0].y, block[1].y, block[2].y, block[3].y);
    if (i == 2u) return uvec4(block[0].z, block[1].z, block[2].z, block[3].z);
    return uvec4(block[0].w, block[1].w, block[2].w, block[3].w);
  }
  uvec4 column = uvec4(0u);
  for (uint j = 0u; j < PER_QUAD; ++j) column = with_element(column, j, quad_element(block[j], i));
  return column;
}

// Transposes block into the tile from `at`: tile[at + i * TILE_QUADS] holds
// T element i of every row.
void put_block(uvec4 block[16], uint at) {
  for (uint i = 0u; i < PER_QUAD; ++i) tile[at + i * TILE_QUADS] = block_column(block, i);
}

// A whole tile whose runs start on quads on both sides: quads only, no
// edge tests (llvmpipe pays for a branch's both sides).
void load_full_tile(uint src, uint row_step) {
  uint tq = gl_LocalInvocationID.x % TILE_QUADS;
  uint rb = gl_LocalInvocationID.x / TILE_QUADS;
  uint first = src + rb * PER_QUAD * row_step + tq * PER_QUAD;
  uvec4 block[16];
  // Quad indices from each row's element offset: a negative row step taken
  // mod 2^32 does not survive the shift to quads, and a texel fetch, unlike a
  // storage-buffer address, does not wrap.
  for (uint j = 0u; j < PER_QUAD; ++j) block[j] = src_quad(((first + j * row_step) * ES) >> 4u);
  put_block(block, tq * PER_QUAD * TILE_QUADS + rb);
}

// A whole tile without shared memory: invocation (rb, tq) reads the block of
// rows [rb * PER_QUAD, +PER_QUAD) and T elements [tq * PER_QUAD, +PER_QUAD)
// as load_full_tile does and writes its columns straight to the output,
// one quad per T index. Neighbouring invocations take neighbouring rb, so
// that they write neighbouring quads of one output run.
void move_full_tile_in_registers(uint src, uint row_step, uint dst, uint t_stride) {
  uint rb = gl_LocalInvocationID.x % TILE_QUADS;
  uint tq = gl_LocalInvocationID.x / TILE_QUADS;
  uint first = src + rb * PER_QUAD * row_step + tq * PER_QUAD;
  uvec4 block[16];
  for (uint j = 0u; j < PER_QUAD; ++j) block[j] = src_quad(((first + j * row_step) * ES) >> 4u);
  uint q = ((dst + tq * PER_QUAD * t_stride + rb * PER_QUAD) * ES) >> 4u;
  uint q_step = (t_stride * ES) >> 4u;
  for (uint i = 0u; i < PER_QUAD; ++i) dst_quads[q + i * q_step] = block_column(block, i);
}

void store_full_tile(uint dst, uint t_stride) {
  uint rq = gl_LocalInvocationID.x % TILE_QUADS;
  uint tb = gl_LocalInvocationID.x / TILE_QUADS;
  uint q = ((dst + tb * PER_QUAD * t_stride + rq * PER_QUAD) * ES) >> 4u;
  uint q_step = (t_stride * ES) >> 4u;
  for (uint i = 0u; i < PER_QUAD; ++i) dst_quads[q + i * q_step] = tile[(tb * PER_QUAD + i) * TILE_QUADS + rq];
}

// Reads the tile: row r holds T indices [0, t_count) from source element
// src + r * row_step + t (T steps by one element).
void load_tile(uint src, uint row_step, uint t_count, uint row_count) {
  uint tq = gl_LocalInvocationID.x % TILE_QUADS;
  uint rb = gl_LocalInvocationID.x / TILE_QUADS;
  uint t = tq * PER_QUAD;
  uint r = rb * PER_QUAD;
  if (t >= t_count || r >= row_count) return;
  uint t_here = min(PER_QUAD, t_count - t);
  uvec4 block[16];  // block[j]: T elements of row r + j
  for (uint j = 0u; j < PER_QUAD; ++j) {
    block[j] = r + j < row_count ? load_quad(src + (r + j) * row_step + t, t_here) : uvec4(0u);
  }
  put_block(block, t * TILE_QUADS + rb);  // columns past t_count hold nothing the store reads
}

// Writes the tile: T index t is the run of rows [0, row_count) at
// destination element dst + t * t_stride + r.
void store_tile(uint dst, uint t_stride, uint t_count, uint row_count) {
  uint rq = gl_LocalInvocationID.x % TILE_QUADS;
  uint tb = gl_LocalInvocationID.x / TILE_QUADS;
  uint r = rq * PER_QUAD;
  if (r >= row_count) return;
  uint r_here = min(PER_QUAD, row_count - r);
  for (uint i = 0u; i < PER_QUAD; ++i) {
    uint t = tb * PER_QUAD + i;
    if (t < t_count) store_quad(dst + t * t_stride + r, r_here, tile[t * TILE_QUADS + rq]);
  }
}

// The source and destination offsets of outer index `outer` of the box
// (the axes before T, innermost first). Every axis is one affine segment
// (the host checked): its source offset is value + (o - begin) * step,
// taken mod 2^32 relative to the bound windows.
uvec2 outer_offsets(uint outer, uint t_axis) {
  uint src = box_word(SS_G_INPUT_BASE) - box_word(SS_R_IN_BASE);
  uint dst = 0u - box_word(SS_R_OUT_BASE);
  for (uint k = 1u; k <= t_axis; ++k) {
    uint axis = t_axis - k;
    uint next = fast_div(outer, box_word(SS_R_EXT_MAGIC + axis), box_word(SS_R_EXT_SHIFTS + axis));
    uint o = box_word(SS_R_LO + axis) + (outer - next * box_word(SS_R_EXT + axis));
    outer = next;
    uint w = 4u * box_word(SS_G_SEG_FIRST + axis);  // segment words: begin, value, step, pad
    src += table_word(w + 1u) + (o - table_word(w)) * table_word(w + 2u);
    dst += o * box_word(SS_G_OUT_STRIDES + axis);
  }
  return uvec2(src, dst);
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

  uvec2 offsets = outer_offsets(outer, inner - 1u);
  uint src = offsets.x;
  uint dst = offsets.y;
  uint t0 = box_word(SS_R_LO + t_axis) + t_tile * TILE;
  uint t_count = min(TILE, box_word(SS_R_LO + t_axis) + box_word(SS_R_EXT + t_axis) - t0);
  uint wt = 4u * box_word(SS_G_SEG_FIRST + t_axis);
  uint wr = 4u * box_word(SS_G_SEG_FIRST + inner);
  uint row_step = table_word(wr + 2u);
  uint t_stride = box_word(SS_G_OUT_STRIDES + t_axis);
  src += table_word(wt + 1u) + (t0 - table_word(wt)) + table_word(wr + 1u);
  dst += t0 * t_stride;

  // SS_CHUNK row elements per workgroup: several tiles, one after the other.
  uint row_end = box_word(SS_R_LO + inner) + box_word(SS_R_EXT + inner);
  uint r0 = box_word(SS_R_LO + inner) + row_tile * box_word(SS_CHUNK);
  uint r_stop = min(row_end, r0 + box_word(SS_CHUNK));
  bool quads = (((src + (r0 - table_word(wr)) * row_step) * ES | row_step * ES | (dst + r0) * ES | t_stride * ES) &
                15u) == 0u;
  // Whole tiles of quads first, then what is left (a cut tile, or every
  // tile when the runs do not start on quads) with edge tests: two loops
  // rather than a branch per tile, because llvmpipe runs both sides of a
  // branch, while a loop no invocation enters costs nothing.
  if (TILES_IN_REGISTERS && quads && t_count == TILE) {
    for (; r0 + TILE <= r_stop; r0 += TILE) {
      move_full_tile_in_registers(src + (r0 - table_word(wr)) * row_step, row_step, dst + r0, t_stride);
    }
  }
  if (!TILES_IN_REGISTERS && quads && t_count == TILE) {
    for (; r0 + TILE <= r_stop; r0 += TILE) {
      load_full_tile(src + (r0 - table_word(wr)) * row_step, row_step);
      barrier();
      store_full_tile(dst + r0, t_stride);
      barrier();  // the next tile reuses the shared memory
    }
  }
  for (; r0 < r_stop; r0 += TILE) {
    uint row_count = min(TILE, r_stop - r0);
    load_tile(src + (r0 - table_word(wr)) * row_step, row_step, t_count, row_count);
    barrier();
    store_tile(dst + r0, t_stride, t_count, row_count);
    barrier();
  }
}
