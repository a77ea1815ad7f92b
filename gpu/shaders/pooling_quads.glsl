// max_pooling2's quad path (POOL_QUADS != 0; geometry in meta_layout.h,
// SS_PQ_*): an invocation pools SS_PQ_GROUP consecutive outputs of a row
// inside the D, H and W runs at once. Per window row the group's taps lie in
// SS_PQ_SPAN consecutive input words; they come in as 16-byte quads and are
// realigned with selects, because llvmpipe runs one load or store per lane
// whatever its width (and lanes' addresses differ), so a quad costs what a
// word does, while selects run on all lanes at once. The outputs, and the
// indices, leave as quads where they are contiguous and quad-aligned.
// Expects max_pooling2.comp's row context, flat_index(), write_index() and
// quad_stores.glsl (store_quad, store_index_quad: 64-bit pairs in the pairs build).

const uint PQ_WINDOW = SS_PQ_WINDOW(POOL_QUADS);
const uint PQ_STEP_O = SS_PQ_STEP_O(POOL_QUADS);
const uint PQ_STEP_K = SS_PQ_STEP_K(POOL_QUADS);
const uint PQ_SPAN = POOL_QUADS == 0u ? 1u : SS_PQ_SPAN(POOL_QUADS);
const uint PQ_LOADS = (PQ_SPAN + 6u) / 4u;  // quads holding the span at any alignment
// The word of its first quad where every span starts, if the host knows it
// (SS_INTERIOR_AT), and the quads holding the span from there.
const bool PQ_ALIGNED = PIPELINE >= SS_INTERIOR_AT;
const uint PQ_OFFSET = PQ_ALIGNED ? PIPELINE - SS_INTERIOR_AT : 0u;
const uint PQ_SPAN_LOADS = PQ_ALIGNED ? (PQ_OFFSET + PQ_SPAN + 3u) / 4u : PQ_LOADS;
const uint PQ_ROWS = SS_PQ_ROWS(POOL_QUADS);      // 0: the header's
const uint PQ_PLANES = SS_PQ_PLANES(POOL_QUADS);  // 0: the header's
// Quads a group hands on per window row to the next group of its chunk: with
// aligned spans the next span starts PQ_STEP_O quads later, so its first
// PQ_SPAN_LOADS - PQ_STEP_O quads are this span's last ones. Windows of up to
// PQ_CARRY_ROWS rows (registers). On the 3x3 stride-2 bench a group then
// fetches 6 quads instead of 9, all rows' before any compare (pool_quad_group):
// 3.4-3.7 -> 3.1-3.3 ms on lavapipe, alternating with the build before.
const uint PQ_CARRY_ROWS = 4u;
const uint PQ_WINDOW_ROWS = PQ_ROWS * PQ_PLANES;  // 0 where either comes from the header
const uint PQ_CARRY = PQ_ALIGNED && PQ_WINDOW_ROWS != 0u && PQ_WINDOW_ROWS <= PQ_CARRY_ROWS &&
                              PQ_SPAN_LOADS > PQ_STEP_O
                          ? PQ_SPAN_LOADS - PQ_STEP_O
                          : 0u;
uvec4 carried[PQ_CARRY_ROWS * 3u];  // [window row * 3 + i]: quad i of the next span

// A window's running winner on the quad path. With 32-bit elements and no
// padded taps, one key compare does consider()'s work: a NaN's key is the
// largest key, which no number has, so a NaN beats every number, and a
// later NaN (equal key) never replaces the first. The tap is a row tag plus
// j, the tap's word in the span (see tap_tag_steps).
struct Best32 {
  int key;
  uint bits;
  uint tap;
};

// The order keys (key32) of four words: once per loaded word rather than
// per tap.
ivec4 key32v(uvec4 v) { return ivec4(key32(v.x), key32(v.y), key32(v.z), key32(v.w)); }

Best32 start32(uint j0) { return Best32(int(0x80000000u), KIND == 1u ? 0x80000000u : 0u, j0); }

// A group's four running winners.
struct Group {
  Best32 b0;
  Best32 b1;
  Best32 b2;
  Best32 b3;
};

// `starts`: per output g (8 bits at 8 * g) the span word of its first real
// tap, which the lowest key leaves the winner (the compare is strict).
Group start_group(uint starts) {
  return Group(start32(starts & 0xFFu), start32((starts >> 8u) & 0xFFu), start32((starts >> 16u) & 0xFFu),
               start32(starts >> 24u));
}

// The starts of a group whose taps all lie in the input.
const uint PQ_STARTS = PQ_STEP_O << 8u | 2u * PQ_STEP_O << 16u | 3u * PQ_STEP_O << 24u;

// The group's taps of one window row: input words first, first + 1, ...
// first + PQ_SPAN - 1 of the window, realigned into three quads: vectors
// rather than an array, so that picking a word is a few selects whatever
// the compiler unrolls.
uvec4 span0;
uvec4 span1;
uvec4 span2;
ivec4 keys0;
ivec4 keys1;
ivec4 keys2;
// Leading span words in padding (the left edge group's, else 0): their
// keys become the lowest key, which never beats the start (strict compare).
uint pad_words;

// The quad of words 4 * i + off ... 4 * i + off + 3 from quads a and b
// (words 4 * i ... 4 * i + 7).
uvec4 realign(uvec4 a, uvec4 b, uint off) {
  if (off == 0u) return a;
  if (off == 1u) return uvec4(a.yzw, b.x);
  if (off == 2u) return uvec4(a.zw, b.xy);
  return uvec4(a.w, b.xyz);
}

// Realigns the span from quads a, b, c, d, the first holding the span's
// first word at offset off, and keys its words.
void set_span(uvec4 a, uvec4 b, uvec4 c, uvec4 d, uint off) {
  span0 = realign(a, b, off);
  if (PQ_SPAN > 4u) {
    span1 = realign(b, c, off);
    if (PQ_SPAN > 8u) span2 = realign(c, d, off);
  }
  keys0 = key32v(span0);
  keys0 = mix(keys0, ivec4(0x80000000), lessThan(uvec4(0u, 1u, 2u, 3u), uvec4(pad_words)));
  keys1 = key32v(span1);
  keys2 = key32v(span2);
}

// The quad q of the span, or in the interior pipeline the window's last
// whole quad where q lies past it: the host checked that every word a group
// uses lies in the window's whole quads, so such a quad holds none of them,
// and the span at the window's end needs no fallback.
uvec4 span_quad(uint q) { return src_quad(INTERIOR ? min(q, box_word(SS_R_IN_QUADS) - 1u) : q); }

// The span from input word `first` on. In the interior pipeline the left
// edge group of the window's first row starts up to 4 words before the
// window (first wraps below 0): its first quad then holds padded words
// alone, keyed lowest whatever they are, and the window's first quad
// stands in for it.
uint first_quad(uint first) { return INTERIOR ? uint(int(first) >> 2) : first >> 2u; }  // interior: -1 before the window

// Quad i of the span whose first quad is q0.
uvec4 fetch_span_quad(uint q0, uint i) {
  return i == 0u ? src_quad(INTERIOR ? uint(max(int(q0), 0)) : q0) : span_quad(q0 + i);
}

// Quad i of window row r's span: handed on by the previous group, or fetched.
uvec4 span_load(uint q0, uint r, uint i) {
  if (i >= PQ_SPAN_LOADS) return uvec4(0u);
  return i < PQ_CARRY ? carried[r * 3u + i] : fetch_span_quad(q0, i);
}

uvec4 quad_of(uint i, uvec4 a, uvec4 b, uvec4 c, uvec4 d) { return i == 0u ? a : i == 1u ? b : i == 2u ? c : d; }

// The quads of window row r's span from input word `first` on, in
// fetched[slot]; the quads it hands on in carried.
uvec4 fetched[PQ_CARRY_ROWS * 4u];  // [slot * 4 + i]
uint fetched_offset[PQ_CARRY_ROWS];
void fetch_span(uint first, uint r, uint slot) {
  uint q0 = first_quad(first);
  for (uint i = 0u; i < 4u; ++i) fetched[slot * 4u + i] = span_load(q0, r, i);
  for (uint i = 0u; i < PQ_CARRY; ++i) carried[r * 3u + i] = fetched[slot * 4u + PQ_STEP_O + i];
  fetched_offset[slot] = PQ_ALIGNED ? PQ_OFFSET : first & 3u;
}

void set_fetched_span(uint slot) {
  set_span(fetched[slot * 4u], fetched[slot * 4u + 1u], fetched[slot * 4u + 2u], fetched[slot * 4u + 3u],
           fetched_offset[slot]);
}

int span_key(uint j) {
  if (j < 4u) return keys0[j];
  if (j < 8u) return keys1[j - 4u];
  return keys2[j - 8u];
}

// Word j of the span (j < PQ_SPAN).
uint span_word(uint j) {
  if (j < 4u) return span0[j];
  if (j < 8u) return span1[j - 4u];
  return span2[j - 8u];
}

// The first span word of window row (kd, kh) for the group whose first
// input column is iw0; past the row's last real taps, the last one again
// (last_kd, last_kh).
uint window_row_first(uint iw0, uint kd, uint kh) {
  uint src_step_h = table_word(SS_P_H_RUN + 2u) * box_word(SS_P_IN_STRIDES + 3u);
  uint src_step_d = table_word(SS_P_D_RUN + 2u) * box_word(SS_P_IN_STRIDES + 2u);
  return src_nc + id0 * box_word(SS_P_IN_STRIDES + 2u) + ih0 * box_word(SS_P_IN_STRIDES + 3u) + iw0 +
         min(kd, last_kd) * src_step_d + min(kh, last_kh) * src_step_h;
}

// Whether the quads that the group at `col` loads lie inside the input
// window (the window's end need not be quad-aligned). The last window row
// reads the highest words: strides and tap steps are non-negative.
bool quad_group_fits(uint col) {
  uint first = window_row_first(box_word(SS_P_W_BASE) + col * PQ_STEP_O, box_word(SS_P_WINDOWS + 2u) - 1u,
                                box_word(SS_P_WINDOWS + 3u) - 1u);
  return (first >> 2u) + PQ_LOADS <= box_word(SS_R_IN_QUADS);
}

// How many outputs the first group from `col` pools: up to the next output
// quad boundary, so that the groups after it store quads. An invocation's
// outputs that start off a boundary would otherwise make every group store
// element by element, and llvmpipe runs a lane's element stores for all the
// lanes it runs with.
uint quad_head(uint col) {
  bool packed = box_word(SS_P_OUT_STRIDES + 4u) == 1u;
  uint head = (0u - (dst_row + col)) & 3u;
  return packed && head != 0u ? head : SS_PQ_GROUP;
}

// The first output of the chunk's quad groups: the left edge group's
// (SS_P_W_EDGE) where the chunk holds it from `col` on, its first group
// holds all its edge outputs, and its quads lie inside the input window;
// else inner_lo, where the W run starts. The group's first word is a
// padded column and may lie before the window: its offset then wraps to
// above the last window row's, hence first <= last.
uint quad_edge(uint col, uint inner_lo, bool row_inner) {
  uint edge = table_word(SS_P_W_EDGE);
  if (!row_inner || edge < col || edge >= inner_lo) return inner_lo;
  uint iw0 = box_word(SS_P_W_BASE) + edge * PQ_STEP_O;
  uint first = window_row_first(iw0, 0u, 0u);
  uint last = window_row_first(iw0, box_word(SS_P_WINDOWS + 2u) - 1u, box_word(SS_P_WINDOWS + 3u) - 1u);
  bool fits = first <= last && quad_group_fits(edge);
  return fits && quad_head(edge) >= inner_lo - edge ? edge : inner_lo;
}

// How a tap's row tag steps per window row along D (x) and H (y). 32-bit
// indices: the low word of the flat offset from the window's first tap, so
// that the index is one addition (the W run's packed stride is 1). Else
// kd << 20 | kh << 8 (the host keeps the D and H windows under 4096), and
// the index is computed from the decoded tap.
uvec2 tap_tag_steps() {
  if (INDEX_BYTES != 4u) return uvec2(1u << 20u, 1u << 8u);
  return uvec2(table_word(SS_P_D_RUN + 2u) * box_word(SS_P_FLAT_LO + 2u),
               table_word(SS_P_H_RUN + 2u) * box_word(SS_P_FLAT_LO + 3u));
}

// The flat input position of tap `tap` of a group starting at input column
// iw0, whose first tap's position is `first` (32-bit indices only).
uvec2 quad_tap_index(uint tap, uint iw0, uvec2 first) {
  if (INDEX_BYTES == 4u) return uvec2(first.x + tap, 0u);
  uint id = id0 + (tap >> 20u) * table_word(SS_P_D_RUN + 2u);
  uint ih = ih0 + ((tap >> 8u) & 0xFFFu) * table_word(SS_P_H_RUN + 2u);
  return flat_index(uvec3(id, ih, iw0 + (tap & 0xFFu)));
}

// The flat input positions of the group's winners: low and high words.
struct GroupIndices {
  uvec4 lo;
  uvec4 hi;
};

GroupIndices group_indices(uint iw0, Group g) {
  // The low word of a 64-bit sum is the 32-bit sum of the low words.
  uvec2 first = uvec2(flat_row + iw0 * box_word(SS_P_FLAT_LO + 4u), 0u);
  uvec2 p0 = quad_tap_index(g.b0.tap, iw0, first);
  uvec2 p1 = quad_tap_index(g.b1.tap, iw0, first);
  uvec2 p2 = quad_tap_index(g.b2.tap, iw0, first);
  uvec2 p3 = quad_tap_index(g.b3.tap, iw0, first);
  return GroupIndices(uvec4(p0.x, p1.x, p2.x, p3.x), uvec4(p0.y, p1.y, p2.y, p3.y));
}

// The group's indices from element ei of the indices window on, which is
// quad-aligned (a pair of 64-bit indices: 2-aligned).
void store_index_quads(uint ei, GroupIndices p) {
  if (INDEX_BYTES == 8u) {
    store_index_quad(ei >> 1u, uvec4(p.lo.x, p.hi.x, p.lo.y, p.hi.y));
    store_index_quad((ei >> 1u) + 1u, uvec4(p.lo.z, p.hi.z, p.lo.w, p.hi.w));
  } else {
    store_index_quad(ei >> 2u, p.lo);
  }
}

// Writes the group's first n outputs (1 <= n <= SS_PQ_GROUP).
void write_quad_group(uint col, uint n, uint iw0, Group g) {
  uint stride = box_word(SS_P_OUT_STRIDES + 4u);
  uint e = dst_row + col * stride;
  uvec4 bits = uvec4(g.b0.bits, g.b1.bits, g.b2.bits, g.b3.bits);
  if (INTERIOR) {
    // Packed and quad-aligned, outputs and indices alike (the host checked).
    store_quad(e >> 2u, bits);
    if (INDEX_BYTES != 0u) store_index_quads(idx_row + col, group_indices(iw0, g));
    return;
  }
  bool quad = n == SS_PQ_GROUP && stride == 1u && (e & 3u) == 0u;
  // Loops rather than branches, as measured on lavapipe; llvmpipe still runs
  // a loop's body once, every lane off, where no lane enters it, which is
  // why the interior pipeline compiles in neither.
  for (uint t = 0u; t < (quad ? 1u : 0u); ++t) store_quad(e >> 2u, bits);
  for (uint g = quad ? n : 0u; g < n; ++g) store_element(e + g * stride, uvec2(bits[g], 0u));
  if (INDEX_BYTES == 0u) return;
  GroupIndices p = group_indices(iw0, g);
  uint idx_stride = box_word(SS_P_IDX_STRIDES + 4u);
  uint ei = idx_row + col * idx_stride;
  bool idx_quad = n == SS_PQ_GROUP && idx_stride == 1u && (ei & (INDEX_BYTES == 8u ? 1u : 3u)) == 0u;
  for (uint t = 0u; t < (idx_quad ? 1u : 0u); ++t) store_index_quads(ei, p);
  for (uint g = idx_quad ? n : 0u; g < n; ++g) write_index(ei + g * idx_stride, uvec2(p.lo[g], p.hi[g]));
}

// The taps of one window row (tag: tap_tag_steps) for the output whose
// taps start at span word j0.
void consider_span(inout Best32 best, uint j0, uint tag) {
  for (uint kw = 0u; kw < PQ_WINDOW; ++kw) {
    uint j = j0 + kw * PQ_STEP_K;
    int key = span_key(j);
    if (key > best.key) best = Best32(key, span_word(j), tag + j);
  }
}

void consider_group(inout Group g, uint tag) {
  consider_span(g.b0, 0u, tag);
  consider_span(g.b1, PQ_STEP_O, tag);
  consider_span(g.b2, 2u * PQ_STEP_O, tag);
  consider_span(g.b3, 3u * PQ_STEP_O, tag);
}

// Outputs col, col + 1, ... col + n - 1 (n <= SS_PQ_GROUP); taps in
// row-major window order for each output, as pool_inner takes them. A
// group at the run's end pools SS_PQ_GROUP outputs all the same and writes
// n: the extra ones read words inside the window (quad_group_fits) that no
// output uses, which costs less than a second way of pooling them.
void pool_quad_group(uint col, uint n) {
  uint iw0 = box_word(SS_P_W_BASE) + col * PQ_STEP_O;
  // Only the left edge group starts left of the W run.
  bool edge = col < box_word(SS_P_W_INNER_LO);
  pad_words = edge ? table_word(SS_P_W_EDGE + 1u) : 0u;
  Group g = start_group(edge ? table_word(SS_P_W_EDGE + 2u) : PQ_STARTS);
  uvec2 tag_steps = tap_tag_steps();
  uint planes = PQ_PLANES != 0u ? PQ_PLANES : box_word(SS_P_WINDOWS + 2u);
  uint rows = PQ_ROWS != 0u ? PQ_ROWS : box_word(SS_P_WINDOWS + 3u);
  // Where quads are handed on, the group fetches every window row first,
  // so that its fetches are in flight together (measured: the handing on
  // alone gained nothing); else row by row.
  for (uint kd = 0u; kd < planes && PQ_CARRY != 0u; ++kd) {
    for (uint kh = 0u; kh < rows; ++kh) fetch_span(window_row_first(iw0, kd, kh), kd * rows + kh, kd * rows + kh);
  }
  for (uint kd = 0u; kd < planes; ++kd) {
    uint tag_h = min(kd, last_kd) * tag_steps.x;
    for (uint kh = 0u; kh < rows; ++kh) {
      uint r = kd * rows + kh;
      if (PQ_CARRY == 0u) fetch_span(window_row_first(iw0, kd, kh), r, 0u);
      set_fetched_span(PQ_CARRY != 0u ? r : 0u);
      consider_group(g, tag_h + min(kh, last_kh) * tag_steps.y);
    }
  }
  write_quad_group(col, n, iw0, g);
}

// The interior pipeline's chunk, outputs [col, col_end): whole groups only,
// none at the left edge but the edge group itself, and a test after each
// group (see main()).
void pool_interior_chunk(uint col, uint col_end) {
  if (PQ_CARRY != 0u) {
    // What the first group's "previous group" would hand on.
    uint iw0 = box_word(SS_P_W_BASE) + col * PQ_STEP_O;
    for (uint kd = 0u; kd < PQ_PLANES; ++kd) {
      for (uint kh = 0u; kh < PQ_ROWS; ++kh) {
        uint q0 = first_quad(window_row_first(iw0, kd, kh));
        for (uint i = 0u; i < PQ_CARRY; ++i) carried[(kd * PQ_ROWS + kh) * 3u + i] = fetch_span_quad(q0, i);
      }
    }
  }
  do {
    pool_quad_group(col, SS_PQ_GROUP);
    col += SS_PQ_GROUP;
  } while (col < col_end);
}
