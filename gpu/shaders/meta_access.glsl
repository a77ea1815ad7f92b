// Reading the box block and the tables (meta_layout.h). Expects the
// specialization constants TABLE_QUADS (uvec4s the uniform tables block
// declares: maxUniformBufferRange / 16, at most 4096) and TABLES_IN_STORAGE.
layout(set = 0, binding = SS_BINDING_BOX, std140) uniform BoxBlock { uvec4 box_quads[SS_BOX_QUADS]; };
layout(set = 0, binding = SS_BINDING_TABLES_UNIFORM, std140) uniform TablesUniform { uvec4 table_quads[TABLE_QUADS]; };
layout(set = 0, binding = SS_BINDING_TABLES_STORAGE, std430) readonly buffer TablesStorage { uint table_words[]; };

uint box_word(uint i) { return box_quads[i >> 2u][i & 3u]; }
uint table_word(uint i) { return TABLES_IN_STORAGE ? table_words[i] : table_quads[i >> 2u][i & 3u]; }

// Division by a box's extents without the divide instruction, which
// llvmpipe executes once per lane: the host precomputes the magic number m
// and shifts s1 | s2 << 8 (gpu/work_split.h, DivisionMagic), exact for every
// 32-bit n and divisor >= 1.
uint fast_div(uint n, uint magic, uint shifts) {
  uint t;
  uint unused;
  umulExtended(n, magic, t, unused);
  return (t + ((n - t) >> (shifts & 0xFFu))) >> (shifts >> 8u);
}
