#include "gpu/run_plan.h"

#include <algorithm>
#include <cstring>

#include "gpu/pooling_interior.h"
#include "gpu/pooling_program.h"
#include "gpu/tiled_transpose.h"
#include "gpu/shaders/meta_layout.h"

namespace stridescope::gpu {

namespace {

uint32_t lo32(uint64_t value) { return static_cast<uint32_t>(value); }
uint32_t lo32(int64_t value) { return static_cast<uint32_t>(static_cast<uint64_t>(value)); }

constexpr VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

void put_division(std::vector<uint32_t>& block, uint32_t magic_at, uint32_t shifts_at, uint64_t divisor) {
  const DivisionMagic m = division_magic(lo32(divisor));
  block[magic_at] = m.magic;
  block[shifts_at] = m.shift1 | m.shift2 << 8;
}

// The box block of `box`: the pass's header followed by the box's record.
std::vector<uint32_t> box_block(const ComputePass& pass, const WorkBox& box) {
  std::vector<uint32_t> block = pass.header;
  block.resize(SS_BOX_WORDS, 0);
  for (std::size_t a = 0; a < box.lo.size(); ++a) {
    block[SS_R_LO + a] = lo32(box.lo[a]);
    block[SS_R_EXT + a] = lo32(box.extent[a]);
    put_division(block, SS_R_EXT_MAGIC + static_cast<uint32_t>(a), SS_R_EXT_SHIFTS + static_cast<uint32_t>(a),
                 box.extent[a]);
  }
  block[SS_R_IN_BASE] = lo32(box.input.base_element);
  block[SS_R_OUT_BASE] = lo32(box.output.base_element);
  block[SS_R_IDX_BASE] = lo32(box.indices.base_element);
  block[SS_R_CHUNKS_PER_ROW] = lo32(box.chunks_per_row);
  put_division(block, SS_R_CHUNKS_MAGIC, SS_R_CHUNKS_SHIFTS, box.chunks_per_row);
  block[SS_R_ITEMS] = lo32(box.items);
  block[SS_R_IN_QUADS] = lo32(box.input.range / 16);
  block[SS_R_ROWS_PER_ITEM] = lo32(box.rows_per_item);
  block[SS_R_ROWS] = lo32(box.rows());
  if (pass.key.shader == ShaderId::TiledTranspose) {
    const uint64_t tile = SS_TILE_BYTES / pass.key.constants[kElementSize];
    const uint64_t tiles_t = (box.extent[box.extent.size() - 2] + tile - 1) / tile;
    block[SS_R_TILES_T] = lo32(tiles_t);
    put_division(block, SS_R_TILES_T_MAGIC, SS_R_TILES_T_SHIFTS, tiles_t);
  }
  if (box.skip) {
    block[SS_R_SKIP_LO] = lo32(box.skip->first);
    block[SS_R_SKIP_HI] = lo32(box.skip->second);
  }
  return block;
}

// Whether some shader region writes row columns [begin, end): the regions'
// row ranges less the columns the transfers wrote (skip).
bool shader_writes_columns(const GatherDispatch& program, uint64_t begin, uint64_t end) {
  const std::size_t row = program.axes.size() - 1;
  return std::any_of(program.shader_regions.begin(), program.shader_regions.end(), [&](const Region& r) {
    const uint64_t lo = std::max(begin, r.lo[row]);
    const uint64_t hi = std::min(end, r.lo[row] + r.extent[row]);
    if (lo >= hi) return false;
    return !r.skip || lo < r.skip->first || hi > r.skip->second;
  });
}

// The ways of writing a row that the shader needs for `program` (SS_PATH_*):
// padding along any axis, and how the row segments that the shader writes
// map to the output. On llvmpipe every path compiled in costs each
// invocation time whether taken or not (branches run under a lane mask), so
// a path only the transfers' columns would take is left out.
uint32_t gather_paths(const GatherDispatch& program) {
  uint32_t paths = 0;
  for (const GatherAxis& axis : program.axes) {
    for (const GatherSegment& s : axis.segments) {
      if (s.pad) paths |= SS_PATH_FILL;
    }
  }
  const GatherAxis& row = program.axes.back();
  if (row.out_stride != 1) return paths | SS_PATH_SCATTER;
  for (std::size_t i = 0; i < row.segments.size(); ++i) {
    const GatherSegment& s = row.segments[i];
    if (s.pad || !shader_writes_columns(program, s.begin, row.segment_end(i))) continue;
    paths |= s.step == 1 ? SS_PATH_COPY : s.step == -1 ? SS_PATH_REVERSE : SS_PATH_GATHER;
  }
  return paths;
}

// Row elements per invocation: up to 16 KiB of output. On llvmpipe an
// invocation's set-up (row decoding, segment search, and every branch of the
// shader, which runs under a lane mask whether taken or not) costs far more
// than moving a few quads, so long chunks win; they shrink only so that small
// work still spreads over several workgroups (one workgroup runs on one core).
uint64_t gather_chunk(const GatherDispatch& program) {
  constexpr uint64_t kMaxChunkBytes = 16384;
  constexpr uint64_t kMinChunkBytes = 256;
  constexpr uint64_t kMinItems = 16 * SS_LOCAL_SIZE;
  uint64_t elements = 0;
  for (const Region& r : program.shader_regions) {
    uint64_t n = 1;
    for (uint64_t e : r.extent) n *= e;
    elements += n;
  }
  const uint64_t es = program.element_size;
  return std::clamp<uint64_t>(elements / kMinItems, kMinChunkBytes / es, kMaxChunkBytes / es);
}

// The pass's header and tables: core's segments, per axis in `program`'s order.
ComputePass gather_pass(const GatherDispatch& program, ShaderId shader, uint64_t chunk) {
  const std::size_t rank = program.axes.size();
  ComputePass pass;
  pass.header.assign(SS_HEADER_WORDS, 0);
  pass.key.shader = shader;
  pass.key.constants[kElementSize] = static_cast<uint32_t>(program.element_size);
  std::vector<uint32_t>& header = pass.header;
  header[SS_RANK] = static_cast<uint32_t>(rank);
  header[SS_CHUNK] = static_cast<uint32_t>(chunk);
  header[SS_G_PAD_LO] = lo32(program.padding_bits);
  header[SS_G_PAD_HI] = lo32(program.padding_bits >> 32);
  header[SS_G_INPUT_BASE] = lo32(program.input_base);
  uint32_t segment_index = 0;
  for (std::size_t a = 0; a < rank; ++a) {
    const GatherAxis& axis = program.axes[a];
    header[SS_G_SIZES + a] = lo32(axis.size);
    header[SS_G_OUT_STRIDES + a] = lo32(axis.out_stride);
    header[SS_G_SEG_FIRST + a] = segment_index;
    header[SS_G_SEG_COUNT + a] = static_cast<uint32_t>(axis.segments.size());
    for (const GatherSegment& s : axis.segments) {
      pass.tables.insert(pass.tables.end(), {lo32(s.begin), lo32(s.value), lo32(s.step), s.pad ? 1u : 0u});
    }
    segment_index += static_cast<uint32_t>(axis.segments.size());
  }
  return pass;
}

// Row elements per workgroup: several tiles along the row, one after the
// other. On llvmpipe a workgroup's start costs far more than moving a tile,
// so long strips win; they shrink so that small work still spreads over
// several workgroups (on a GPU, enough to fill its cores).
uint64_t transpose_chunk(const GatherDispatch& program) {
  constexpr uint64_t kMaxTiles = 16;
  constexpr uint64_t kMinGroups = 256;
  const uint64_t tile = SS_TILE_BYTES / program.element_size;
  uint64_t tiles = 1;
  for (std::size_t a = 0; a + 2 < program.axes.size(); ++a) tiles *= program.axes[a].size;
  for (std::size_t a = program.axes.size() - 2; a < program.axes.size(); ++a) {
    tiles *= (program.axes[a].size + tile - 1) / tile;
  }
  return tile * std::clamp<uint64_t>(tiles / kMinGroups, 1, kMaxTiles);
}

// The texel build (shaders/source_quads.glsl) when every box's input window
// can be viewed as a uniform texel buffer of quads: the device has them, the
// window starts where a view may and holds at least one and at most
// max_texel_quads whole quads. Otherwise the pass reads its source as a
// storage buffer.
void choose_source_access(ComputePass& pass, const DeviceLimits& limits) {
  const bool fits = limits.max_texel_quads > 0 && !pass.boxes.empty() &&
                    std::all_of(pass.boxes.begin(), pass.boxes.end(), [&limits](const WorkBox& box) {
                      const uint64_t quads = box.input.range / kSourceTexelBytes;
                      return box.input.offset % limits.texel_offset_alignment == 0 && quads >= 1 &&
                             quads <= limits.max_texel_quads;
                    });
  pass.key.source_texels = fits;
}

// One workgroup per strip (a tile's side along T, `chunk` along the row) per outer
// index; a box's items count SS_LOCAL_SIZE per strip. Splitting counts one
// item per `chunk` row elements of each T index, so a box of extent 1 along
// T has SS_LOCAL_SIZE times fewer items than its strips make: the split's
// limit leaves that room.
Expected<RunPlan> plan_tiled_transpose(const GatherDispatch& program, const Operation& op,
                                       const DeviceLimits& limits) {
  const uint64_t chunk = transpose_chunk(program);
  ComputePass pass = gather_pass(program, ShaderId::TiledTranspose, chunk);
  pass.key.constants[kTilesInRegisters] = limits.tiles_in_registers ? 1 : 0;
  pass.name = "tiled_transpose";
  const WorkModel model = gather_work(program, op, chunk);
  DeviceLimits split_limits = limits;
  split_limits.max_items = std::max<uint64_t>(1, limits.max_items / SS_LOCAL_SIZE);
  SS_ASSIGN_OR_RETURN(pass.boxes, split_work(model, split_limits));
  const std::size_t t_axis = program.axes.size() - 2;
  const uint64_t tile = SS_TILE_BYTES / program.element_size;
  for (WorkBox& box : pass.boxes) {
    uint64_t outer = 1;
    for (std::size_t a = 0; a < t_axis; ++a) outer *= box.extent[a];
    const uint64_t tiles_t = (box.extent[t_axis] + tile - 1) / tile;
    box.items = outer * tiles_t * box.chunks_per_row * SS_LOCAL_SIZE;
  }
  choose_source_access(pass, limits);
  RunPlan plan;
  plan.compute = std::move(pass);
  return plan;
}

Expected<RunPlan> plan_gather(const Operation& op, const DeviceLimits& limits) {
  const GatherDispatch program = make_gather_dispatch(op, limits.gather);
  if (auto tiled = tiled_transpose_order(program)) return plan_tiled_transpose(*tiled, op, limits);
  const uint64_t chunk = gather_chunk(program);
  RunPlan plan;
  plan.copies = program.copies;
  plan.fills = program.fills;
  if (program.shader_regions.empty()) return plan;

  ComputePass pass = gather_pass(program, ShaderId::Gather, chunk);
  pass.key.constants[kGatherPaths] = gather_paths(program);
  pass.key.store_pairs = limits.store_pairs;
  pass.name = "gather";
  WorkModel model = gather_work(program, op, chunk);
  model.several_rows_per_item = true;
  SS_ASSIGN_OR_RETURN(pass.boxes, split_work(model, limits));
  choose_source_access(pass, limits);
  plan.compute = std::move(pass);
  return plan;
}

// Whether `box` lies inside `region` (split_work cuts each region apart).
bool inside(const WorkBox& box, const Region& region) {
  for (std::size_t a = 0; a < box.lo.size(); ++a) {
    if (box.lo[a] < region.lo[a] || box.lo[a] + box.extent[a] > region.lo[a] + region.extent[a]) return false;
  }
  return true;
}

uint32_t compare_kind(DataType type) {
  if (is_floating(type)) return 2;
  return is_signed_integer(type) ? 1 : 0;
}

// Bytes of an index element, 0 without indices.
uint32_t index_bytes(const PoolingProgram& program) {
  return program.index_type ? static_cast<uint32_t>(element_size(*program.index_type)) : 0;
}

// max_pooling2's header (shaders/meta_layout.h, SS_P_*) but the tables' positions.
std::vector<uint32_t> pooling_header(const PoolingProgram& program, uint64_t chunk) {
  std::vector<uint32_t> header(SS_HEADER_WORDS, 0);
  header[SS_RANK] = static_cast<uint32_t>(kPoolingAxes);
  header[SS_CHUNK] = static_cast<uint32_t>(chunk);
  for (std::size_t a = 0; a < kPoolingAxes; ++a) {
    header[SS_P_SIZES + a] = lo32(program.out_sizes[a]);
    header[SS_P_WINDOWS + a] = lo32(program.windows[a]);
    header[SS_P_OUT_STRIDES + a] = lo32(program.out_strides[a]);
    header[SS_P_IDX_STRIDES + a] = lo32(program.index_strides[a]);
    header[SS_P_IN_STRIDES + a] = lo32(program.in_strides[a]);
    header[SS_P_FLAT_LO + a] = lo32(program.flat_strides[a]);
    header[SS_P_FLAT_HI + a] = lo32(program.flat_strides[a] >> 32);
  }
  header[SS_P_W_INNER_LO] = lo32(program.w_inner.lo);
  header[SS_P_W_INNER_HI] = lo32(program.w_inner.hi);
  header[SS_P_W_BASE] = program.w_inner.base;
  header[SS_P_W_STEP_O] = program.w_inner.step_o;
  header[SS_P_W_STEP_K] = program.w_inner.step_k;
  return header;
}

// Its tables: the D and H runs, the left edge group, the interior's
// real-tap pairs, the taps (their positions in header[SS_P_TAPS_AT + axis]).
std::vector<uint32_t> pooling_tables(const PoolingProgram& program, const QuadEdge& edge,
                                     const PoolingRegions& regions, std::vector<uint32_t>& header) {
  std::vector<uint32_t> tables = {lo32(program.h_inner.lo), lo32(program.h_inner.hi), program.h_inner.step_k,
                                  lo32(program.d_inner.lo), lo32(program.d_inner.hi), program.d_inner.step_k,
                                  edge.edge, edge.pad_words, edge.starts, 0, 0};
  static_assert(SS_P_H_RUN == 0 && SS_P_D_RUN == 3 && SS_P_W_EDGE == 6 && SS_P_D_REAL == 9 && SS_P_H_REAL == 10 &&
                SS_P_RUN_WORDS == 11);
  tables[SS_P_D_REAL] = static_cast<uint32_t>(tables.size());
  tables.insert(tables.end(), regions.d_real.begin(), regions.d_real.end());
  tables[SS_P_H_REAL] = static_cast<uint32_t>(tables.size());
  tables.insert(tables.end(), regions.h_real.begin(), regions.h_real.end());
  for (std::size_t a = 2; a < kPoolingAxes; ++a) {
    header[SS_P_TAPS_AT + a] = static_cast<uint32_t>(tables.size());
    tables.insert(tables.end(), program.taps[a].begin(), program.taps[a].end());
  }
  return tables;
}

// What its shader reads and writes, for split_work.
WorkModel pooling_work(const PoolingProgram& program, const Operation& op, uint64_t chunk) {
  const auto es = static_cast<uint32_t>(element_size(program.data_type));
  WorkModel model;
  model.sizes.assign(program.out_sizes.begin(), program.out_sizes.end());
  model.chunk = chunk;
  model.input_range = [&program](std::size_t axis, uint64_t lo, uint64_t hi) {
    return program.input_range(axis, lo, hi);
  };
  model.input = TensorAccess{op.input().buffer_bytes(), es, {}};
  model.output = TensorAccess{op.output().buffer_bytes(), es,
                              std::vector<uint64_t>(program.out_strides.begin(), program.out_strides.end())};
  if (op.output_indices()) {
    model.indices = TensorAccess{op.output_indices()->buffer_bytes(), index_bytes(program),
                                 std::vector<uint64_t>(program.index_strides.begin(), program.index_strides.end())};
  }
  return model;
}

// One pass; its boxes inside the interior region run the interior pipeline
// where their windows allow (gpu/pooling_interior.h).
Expected<RunPlan> plan_pooling(const Operation& op, const DeviceLimits& limits) {
  const PoolingProgram program = make_pooling_program(op);
  ComputePass pass;
  pass.name = "max_pooling2";
  pass.key.shader = ShaderId::MaxPooling2;
  pass.key.constants[kElementSize] = static_cast<uint32_t>(element_size(program.data_type));
  pass.key.constants[kCompareKind] = compare_kind(program.data_type);
  pass.key.constants[kIndexBytes] = index_bytes(program);
  const uint32_t quads = quad_path(program);
  pass.key.constants[kPoolingQuads] = quads;
  pass.key.store_pairs = limits.store_pairs;

  const uint64_t chunk = std::max<uint64_t>(limits.pooling_chunk, 1);
  const QuadEdge edge = quad_edge(program, quads);
  const PoolingRegions regions = pooling_regions(program, quads, edge, chunk);
  pass.header = pooling_header(program, chunk);
  pass.tables = pooling_tables(program, edge, regions, pass.header);

  WorkModel model = pooling_work(program, op, chunk);
  if (regions.interior) {
    model.regions = regions.rest;
    model.regions.push_back(*regions.interior);
  }
  SS_ASSIGN_OR_RETURN(pass.boxes, split_work(model, limits));
  for (WorkBox& box : pass.boxes) {
    box.variant = regions.interior && inside(box, *regions.interior)
                      ? interior_variant(program, quads, edge, regions, box)
                      : SS_GENERAL;
  }
  choose_source_access(pass, limits);
  RunPlan plan;
  plan.compute = std::move(pass);
  return plan;
}

}  // namespace

PipelineKey ComputePass::key_for(const WorkBox& box) const {
  PipelineKey box_key = key;
  box_key.constants[kPoolingPipeline] = box.variant;
  return box_key;
}

Expected<RunPlan> plan_run(const Operation& op, const DeviceLimits& limits) {
  return op.kind() == OpKind::MaxPooling2 ? plan_pooling(op, limits) : plan_gather(op, limits);
}

MetaLayout layout_meta(const ComputePass& pass, const VkPhysicalDeviceLimits& l) {
  const VkDeviceSize uniform_alignment = std::max<VkDeviceSize>(l.minUniformBufferOffsetAlignment, 16);
  const VkDeviceSize alignment = std::max(uniform_alignment, l.minStorageBufferOffsetAlignment);
  MetaLayout m;
  m.table_quads = std::min<uint32_t>(l.maxUniformBufferRange, 65536) / 16;
  m.block_stride = align_up(SS_BOX_WORDS * sizeof(uint32_t), uniform_alignment);
  m.tables_offset = align_up(pass.boxes.size() * m.block_stride, alignment);
  m.table_bytes = std::max<VkDeviceSize>(16, align_up(pass.tables.size() * sizeof(uint32_t), 16));
  m.tables_in_storage = m.table_bytes > m.table_quads * VkDeviceSize{16};
  m.used_bytes = m.tables_offset + m.table_bytes;
  // The uniform tables binding always spans the block the shader declares.
  m.buffer_bytes = m.tables_offset + std::max<VkDeviceSize>(m.table_bytes, m.table_quads * VkDeviceSize{16});
  return m;
}

std::vector<std::byte> meta_buffer_bytes(const ComputePass& pass, const MetaLayout& layout) {
  std::vector<std::byte> bytes(layout.used_bytes, std::byte{0});
  for (std::size_t b = 0; b < pass.boxes.size(); ++b) {
    const std::vector<uint32_t> block = box_block(pass, pass.boxes[b]);
    std::memcpy(bytes.data() + b * layout.block_stride, block.data(), block.size() * sizeof(uint32_t));
  }
  if (!pass.tables.empty()) {
    std::memcpy(bytes.data() + layout.tables_offset, pass.tables.data(), pass.tables.size() * sizeof(uint32_t));
  }
  return bytes;
}

}  // namespace stridescope::gpu
