// Contiguous runs move 16 bytes at a time: llvmpipe executes one load or
// store per lane, so a uvec4 access moves four times what a uint access
// does. Expects meta_access.glsl, element_io.glsl, source_quads.glsl and
// quad_stores.glsl (store_quad over the binding of `dst_words`).
//
// The quads in the middle of a run belong wholly to the invocation, so plain
// stores are safe for every element size; the run's first and last bytes go
// through store_element (atomic merge for partial words).

uvec4 replicate(uvec2 bits) {
  if (ES == 8u) return uvec4(bits.x, bits.y, bits.x, bits.y);
  if (ES == 4u) return uvec4(bits.x);
  if (ES == 2u) return uvec4((bits.x & 0xFFFFu) * 0x10001u);
  return uvec4((bits.x & 0xFFu) * 0x01010101u);
}

// Elements before the next 16-byte boundary of byte offset `bytes`.
uint elements_to_quad(uint bytes) { return ((16u - (bytes & 15u)) & 15u) / ES; }

// dst[d + i] = src[s + i] for i < count.
void copy_run(uint s, uint d, uint count) {
  uint i = 0u;
  uint head = elements_to_quad(d * ES);
  if (((s * ES) & 15u) == ((d * ES) & 15u) && count >= head && (count - head) * ES >= 16u) {
    for (; i < head; ++i) store_element(d + i, load_element(s + i));
    flush_element_stores();
    uint q_src = (s + head) * ES >> 4u;
    uint q_dst = (d + head) * ES >> 4u;
    uint quads = (count - head) * ES >> 4u;
    for (uint q = 0u; q < quads; ++q) store_quad(q_dst + q, src_quad(q_src + q));
    i = head + quads * (16u / ES);
  }
  for (; i < count; ++i) store_element(d + i, load_element(s + i));
}

// dst[d + i] = bits for i < count.
void fill_run(uint d, uint count, uvec2 bits) {
  uint i = 0u;
  uint head = elements_to_quad(d * ES);
  if (count >= head && (count - head) * ES >= 16u) {
    for (; i < head; ++i) store_element(d + i, bits);
    flush_element_stores();
    uint q_dst = (d + head) * ES >> 4u;
    uint quads = (count - head) * ES >> 4u;
    uvec4 pattern = replicate(bits);
    for (uint q = 0u; q < quads; ++q) store_quad(q_dst + q, pattern);
    i = head + quads * (16u / ES);
  }
  for (; i < count; ++i) store_element(d + i, bits);
}

// The quad of destination elements that read source elements s, s + step,
// s + 2 * step, ... (16 / ES of them), each packed at its byte position.
uvec4 gather_quad(uint s, uint step) {
  if (ES == 8u) return uvec4(load_element(s), load_element(s + step));
  if (ES == 4u) return uvec4(src_words[s], src_words[s + step], src_words[s + 2u * step], src_words[s + 3u * step]);
  uvec4 q;
  for (uint w = 0u; w < 4u; ++w) {
    uint word = 0u;
    for (uint b = 0u; b < 4u / ES; ++b, s += step) word |= load_element(s).x << (b * ES * 8u);
    q[w] = word;
  }
  return q;
}

// The even-numbered elements of source quads a then b: the destination quad
// of a step-2 run whose source starts on a quad. Whole words move as they
// are; 16-bit and 8-bit elements are picked out with shifts and masks (no
// per-element loads).
uint even_halves(uint lo, uint hi) { return (lo & 0xFFFFu) | (hi << 16u); }
uint even_bytes(uint w) { return (w & 0xFFu) | ((w >> 8u) & 0xFF00u); }
uvec4 even_elements(uvec4 a, uvec4 b) {
  if (ES == 8u) return uvec4(a.xy, b.xy);
  if (ES == 4u) return uvec4(a.xz, b.xz);
  if (ES == 2u) {
    return uvec4(even_halves(a.x, a.y), even_halves(a.z, a.w), even_halves(b.x, b.y), even_halves(b.z, b.w));
  }
  return uvec4(even_bytes(a.x) | (even_bytes(a.y) << 16u), even_bytes(a.z) | (even_bytes(a.w) << 16u),
               even_bytes(b.x) | (even_bytes(b.y) << 16u), even_bytes(b.z) | (even_bytes(b.w) << 16u));
}

// Destination quads from q_dst on, taking every other element from source
// quad q_src on: two source quads per destination quad. A destination quad's
// source ends one element past its last element, so the quads stop where
// that element would lie past the bound window's whole quads
// (SS_R_IN_QUADS); returns how many were written, at most `quads`, and the
// caller's element loop writes the rest (no separate store site for that rare
// quad: llvmpipe would run it under a lane mask for every run).
uint gather_step2_quads(uint q_src, uint q_dst, uint quads) {
  uint in_quads = box_word(SS_R_IN_QUADS);
  uint whole = (q_src + 2u * quads <= in_quads) ? quads : quads - 1u;
  for (uint q = 0u; q < whole; ++q) {
    store_quad(q_dst + q, even_elements(src_quad(q_src + 2u * q), src_quad(q_src + 2u * q + 1u)));
  }
  return whole;
}

// `rows` step-2 runs of `count` elements, run r from source s + r *
// row_step.x and destination d + r * row_step.y, as one loop over all their
// destination quads, two at a time (store_quad_pair); only where every run's
// destination starts and ends on a 32-byte boundary, its source starts on a
// quad, and the source quads of the first and last runs (the outermost) lie
// inside the window. Returns the runs written: all or none. On llvmpipe a
// store costs a loop over the lanes whatever its width, and gather_run's
// element loops and other store sites run under a lane mask for every run,
// taken or not; here a store moves 32 bytes and the set-up runs once. The
// loop steps its source quad and destination pair by adds within a row and
// finds them from the element offsets only at a row's start (a row step may
// be negative, which the offsets carry as unsigned wrap-around): 3% fewer
// shader instructions than finding both for each pair (f16 stride-2 slice,
// callgrind).
uint gather_step2_rows(uint s, uint d, uint count, uint rows, uvec2 row_step) {
  uint pairs = count * ES >> 5u;
  uint last = s + (rows - 1u) * row_step.x;
  bool aligned = (((s | row_step.x) * ES) & 15u) == 0u && (((d | row_step.y | count) * ES) & 31u) == 0u;
  if (!aligned || pairs == 0u || (max(s, last) * ES >> 4u) + 4u * pairs > box_word(SS_R_IN_QUADS)) return 0u;
  uint total = rows * pairs;
  uint p = 0u;
  uint a = s * ES >> 4u;
  uint q = d * ES >> 5u;
  for (uint k = 0u; k < total; ++k) {
    store_quad_pair(q, even_elements(src_quad(a), src_quad(a + 1u)), even_elements(src_quad(a + 2u), src_quad(a + 3u)));
    a += 4u;
    ++q;
    if (++p == pairs) {
      p = 0u;
      s += row_step.x;
      d += row_step.y;
      a = s * ES >> 4u;
      q = d * ES >> 5u;
    }
  }
  return rows;
}

// dst[d + i] = src[s + i * step] for i < count (step taken mod 2^32, neither
// 1 nor -1: copy_run and reverse_run move those). The destination moves a
// quad at a time; the source two quads per destination quad where the step
// is 2 and the source then starts on a quad, else element by element.
void gather_run(uint s, uint step, uint d, uint count) {
  uint i = 0u;
  uint head = elements_to_quad(d * ES);
  if (count >= head && (count - head) * ES >= 16u) {
    for (; i < head; ++i, s += step) store_element(d + i, load_element(s));
    flush_element_stores();
    const uint per_quad = 16u / ES;
    uint q_dst = (d + head) * ES >> 4u;
    uint quads = (count - head) * ES >> 4u;
    if (step == 2u && ((s * ES) & 15u) == 0u) {
      quads = gather_step2_quads(s * ES >> 4u, q_dst, quads);
    } else {
      for (uint q = 0u; q < quads; ++q) store_quad(q_dst + q, gather_quad(s + q * per_quad * step, step));
    }
    s += quads * per_quad * step;
    i = head + quads * per_quad;
  }
  for (; i < count; ++i, s += step) store_element(d + i, load_element(s));
}
