// Runs of step -1 into a contiguous row (reflection, symmetric padding, and
// slices with stride -1): the destination moves a quad at a time, and so does
// the source, at any alignment. Each destination quad's source is the 16
// bytes from some byte `low` on, read as the one or two source quads holding
// them and shifted into place, then put in reverse element order. So no
// element is read on its own inside the run, which on llvmpipe would be a
// bounds-checked per-lane load each. Expects wide_io.glsl (elements_to_quad)
// and the box word SS_R_IN_QUADS: the window's whole quads, the most a read
// may reach.

// Bytes [a, a + 16) of the 32 bytes lo then hi (a < 16, a multiple of ES).
uvec4 funnel_quad(uvec4 lo, uvec4 hi, uint a) {
  uint k = a >> 2u;
  uvec4 w = k == 0u ? lo : k == 1u ? uvec4(lo.yzw, hi.x) : k == 2u ? uvec4(lo.zw, hi.xy) : uvec4(lo.w, hi.xyz);
  if (ES >= 4u) return w;
  uvec4 n = k == 0u ? uvec4(lo.yzw, hi.x) : k == 1u ? uvec4(lo.zw, hi.xy) : k == 2u ? uvec4(lo.w, hi.xyz) : hi;
  uint bits = (a & 3u) * 8u;
  return bits == 0u ? w : (w >> bits) | (n << (32u - bits));
}

// The elements of a quad in reverse order.
uvec4 reverse_quad(uvec4 q) {
  if (ES == 8u) return q.zwxy;
  uvec4 r = q.wzyx;
  if (ES == 2u) return (r >> 16u) | (r << 16u);
  if (ES == 1u) {
    return ((r >> 24u) & 0xFFu) | ((r >> 8u) & 0xFF00u) | ((r << 8u) & 0xFF0000u) | (r << 24u);
  }
  return r;
}

// dst[d + i] = src[s - i] for i < count. One element loop serves the
// elements before the first quad boundary of the destination and those after
// the last: on llvmpipe each loop's body runs at least once under a lane mask,
// so a second loop would cost every invocation its loads and stores again.
void reverse_run(uint s, uint d, uint count) {
  const uint per_quad = 16u / ES;
  uint head = elements_to_quad(d * ES);
  uint quads = 0u;
  if (count >= head + per_quad) {
    // The first destination quad reads the highest source bytes; off a quad
    // boundary it needs the quad after them, which must be a whole quad of
    // the window. Otherwise that quad goes element by element.
    uint low = (s - head - (per_quad - 1u)) * ES;
    if ((low & 15u) != 0u && (low >> 4u) + 1u >= box_word(SS_R_IN_QUADS)) head += per_quad;
    if (count >= head + per_quad) quads = (count - head) / per_quad;
  }
  for (uint i = 0u; i < count; ++i) {
    if (i == head && quads != 0u) {
      // The quads touch none of the words the element stores hold pending.
      uint low = (s - head - (per_quad - 1u)) * ES;
      uint a = low & 15u;
      uint q_src = low >> 4u;
      uint q_dst = (d + head) * ES >> 4u;
      // Going down the source, each quad read is the next one's upper half;
      // on a quad boundary (a == 0) funnel_quad keeps the lower one whole.
      // One loop for both: llvmpipe would run a second one's body, fetches
      // and stores, under an empty lane mask on every run.
      uvec4 hi = src_quad(a == 0u ? q_src : q_src + 1u);
      for (uint q = 0u; q < quads; ++q) {
        uvec4 lo = src_quad(q_src - q);
        store_quad(q_dst + q, reverse_quad(funnel_quad(lo, hi, a)));
        hi = lo;
      }
      i += quads * per_quad;
      if (i >= count) break;
    }
    store_element(d + i, load_element(s - i));
  }
}

// `rows` step -1 runs of `count` elements, run r from source element s +
// r * row_step.x downwards and destination d + r * row_step.y upwards, as
// one loop over their destination quads, two at a time (store_quad_pair);
// only where every run's destination starts and ends on a 32-byte boundary
// and its lowest source element starts a quad, so that each quad read holds
// the run's own elements only. Returns the runs written: all or none. Per
// run, reverse_run's set-up and element loop run on llvmpipe under a lane
// mask whether taken or not; here they run once for all the rows (the sides
// of reflected and symmetric padding are short runs, many to an invocation).
uint reverse_rows(uint s, uint d, uint count, uint rows, uvec2 row_step) {
  uint pairs = count * ES >> 5u;
  uint low = s + 1u - count;
  bool aligned = (((low | row_step.x) * ES) & 15u) == 0u && (((d | row_step.y | count) * ES) & 31u) == 0u;
  if (!aligned || pairs == 0u) return 0u;
  uint total = rows * pairs;
  uint p = 0u;
  for (uint k = 0u; k < total; ++k) {
    uint top = ((s + 1u) * ES >> 4u) - 2u * p;  // one past the pair's highest source quad
    store_quad_pair((d * ES >> 5u) + p, reverse_quad(src_quad(top - 1u)), reverse_quad(src_quad(top - 2u)));
    if (++p == pairs) {
      p = 0u;
      s += row_step.x;
      d += row_step.y;
    }
  }
  return rows;
}
