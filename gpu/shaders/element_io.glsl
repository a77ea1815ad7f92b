// Moving raw element bits through uint32 words, so that no optional device
// feature (8/16-bit storage, shaderInt64, shaderFloat64) is needed and no
// value ever passes through a float register.
//
// Expects: `const uint ES` (element size: 1, 2, 4 or 8), buffers `src_words`
// (read) and `dst_words` (written), with element offsets counted from the
// start of the bound windows.
//
// Sub-word elements (ES 1, 2): a store gathers the bytes one invocation puts
// into the same word and writes the word once. A word the invocation fills
// completely belongs to it alone (outputs never overlap), so a plain store is
// safe; a partial word may be shared with other invocations or hold bytes
// outside the tensor (gaps), so it is merged with atomicAnd/atomicOr on the
// invocation's own bytes, which leaves every other byte as it was.

// Element `e` of the source window as (low word, high word), zero-extended.
uvec2 load_element(uint e) {
  if (ES == 8u) return uvec2(src_words[2u * e], src_words[2u * e + 1u]);
  if (ES == 4u) return uvec2(src_words[e], 0u);
  if (ES == 2u) return uvec2((src_words[e >> 1u] >> ((e & 1u) * 16u)) & 0xFFFFu, 0u);
  return uvec2((src_words[e >> 2u] >> ((e & 3u) * 8u)) & 0xFFu, 0u);
}

uint pending_word = 0xFFFFFFFFu;
uint pending_bits = 0u;
uint pending_mask = 0u;

void flush_element_stores() {
  if (pending_mask == 0xFFFFFFFFu) {
    dst_words[pending_word] = pending_bits;
  } else if (pending_mask != 0u) {
    atomicAnd(dst_words[pending_word], ~pending_mask);
    atomicOr(dst_words[pending_word], pending_bits);
  }
  pending_mask = 0u;
  pending_bits = 0u;
}

// Writes the low ES bytes of `bits` to element `e` of the destination window.
// Call flush_element_stores() once the invocation is done.
void store_element(uint e, uvec2 bits) {
  if (ES == 8u) {
    dst_words[2u * e] = bits.x;
    dst_words[2u * e + 1u] = bits.y;
    return;
  }
  if (ES == 4u) {
    dst_words[e] = bits.x;
    return;
  }
  uint word = (ES == 2u) ? (e >> 1u) : (e >> 2u);
  uint shift = (ES == 2u) ? ((e & 1u) * 16u) : ((e & 3u) * 8u);
  uint mask = ((ES == 2u) ? 0xFFFFu : 0xFFu) << shift;
  if (word != pending_word) {
    flush_element_stores();
    pending_word = word;
  }
  pending_bits = (pending_bits & ~mask) | ((bits.x << shift) & mask);
  pending_mask |= mask;
}
