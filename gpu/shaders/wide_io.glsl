// Contiguous runs move 16 bytes at a time: llvmpipe executes one load or
// store per lane, so a uvec4 access moves four times what a uint access
// does. Expects element_io.glsl and the uvec4 views `src_quads` and
// `dst_quads` of the same bindings as `src_words` and `dst_words`.
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
    for (uint q = 0u; q < quads; ++q) dst_quads[q_dst + q] = src_quads[q_src + q];
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
    for (uint q = 0u; q < quads; ++q) dst_quads[q_dst + q] = pattern;
    i = head + quads * (16u / ES);
  }
  for (; i < count; ++i) store_element(d + i, bits);
}
