// What the host gives the shaders besides the tensors, shared by C++
// (gpu/*.cpp) and GLSL (gpu/shaders/*.comp), hence macros. Every entry is
// one uint32 word; 64-bit quantities are split in lo/hi words.
//
// Two blocks, both read through uniform buffers where they fit, because
// llvmpipe turns every storage-buffer load into a loop over the lanes but
// loads a uniform-buffer word once for all lanes (or gathers it):
//   - the box block (binding 0): the op's header, then the record of the box
//     this dispatch works on (one block, and one descriptor set, per box);
//   - the tables (binding 1 as a uniform buffer, or binding 2 as a storage
//     buffer when they exceed maxUniformBufferRange): per-axis index tables.
#ifndef STRIDESCOPE_GPU_META_LAYOUT_H
#define STRIDESCOPE_GPU_META_LAYOUT_H

#define SS_MAX_AXES 8u
#define SS_PADDING_INDEX 0xFFFFFFFFu  // kPaddingIndex (core/padding_index.h) in 32-bit tables
#define SS_LOCAL_SIZE 64u
// tiled_transpose: a workgroup moves square tiles of SS_TILE_BYTES / ES
// elements a side (a 128-byte line of input, and of output, per tile row)
// through shared memory: 8 x 8 blocks of one quad by 16 / ES elements, one
// block per invocation, SS_TILE_BYTES^2 / ES bytes of shared memory (at most
// the 16,384 of maxComputeSharedMemorySize that every Vulkan device has).
#define SS_TILE_BYTES 128u

// --- bindings -----------------------------------------------------------
#define SS_BINDING_BOX 0
#define SS_BINDING_TABLES_UNIFORM 1
#define SS_BINDING_TABLES_STORAGE 2
#define SS_BINDING_SRC 3
#define SS_BINDING_DST 4
#define SS_BINDING_INDICES 5
#define SS_BINDING_SRC_TEXELS 6  // source_quads.glsl's texel build only

// --- gather: which ways of writing a row the op needs (specialization
// constant GATHER_PATHS): llvmpipe runs both sides of a branch under a lane
// mask, so code an op never needs still costs every invocation its time.
#define SS_PATH_COPY 1u     // runs of step 1 into a contiguous row
#define SS_PATH_GATHER 2u   // runs of any other step (not 1, not -1) into a contiguous row
#define SS_PATH_SCATTER 4u  // rows whose output elements are not contiguous
#define SS_PATH_FILL 8u     // padding
#define SS_PATH_REVERSE 16u  // runs of step -1 into a contiguous row

// --- common header ---------------------------------------------------------
#define SS_RANK 0u   // axes of the (coalesced) output; the last is the row
#define SS_CHUNK 1u  // row elements per invocation

// --- gather (identity, slice, slice1, padding) ----------------------------
// Axis d's index table is run-length encoded as segments of 4 table words
// {begin, value, step, pad}: for output index o in [begin, next begin),
// source[d][o] * inputStride[d] = value + (o - begin) * step (mod 2^32),
// or, when pad != 0, CONSTANT padding supplies the element.
#define SS_G_PAD_LO 5u       // padding value bits
#define SS_G_PAD_HI 6u
#define SS_G_INPUT_BASE 7u   // element offset of axes folded away (mod 2^32)
#define SS_G_SIZES 8u        // [SS_MAX_AXES] output size per axis
#define SS_G_OUT_STRIDES 16u // [SS_MAX_AXES] output stride per axis (mod 2^32)
#define SS_G_SEG_FIRST 24u   // [SS_MAX_AXES] first segment of the axis in the tables
#define SS_G_SEG_COUNT 32u   // [SS_MAX_AXES] segments of the axis

// --- max_pooling2: always 5 axes N, C, D, H, W (a 4-D op gets D of size 1) --
#define SS_P_SIZES 3u          // [5] output sizes
#define SS_P_WINDOWS 8u        // [5] window per axis (1 for N and C)
#define SS_P_OUT_STRIDES 13u   // [5] output strides (mod 2^32)
#define SS_P_IDX_STRIDES 18u   // [5] indices strides (mod 2^32)
#define SS_P_IN_STRIDES 23u    // [5] input strides (mod 2^32)
#define SS_P_FLAT_LO 28u       // [5] packed row-major strides of the logical input,
#define SS_P_FLAT_HI 33u       // [5]   for flat indices (64-bit)
#define SS_P_TAPS_AT 38u       // [5] first table word of the axis's taps (D, H, W):
                               //   taps[o * window + k] = input index or SS_PADDING_INDEX
// W outputs [INNER_LO, INNER_HI) read no padding and their taps follow
// BASE + o * STEP_O + k * STEP_K (mod 2^32; the host checked every entry
// against the table), so the shader computes them instead of reading the table.
#define SS_P_W_INNER_LO 43u
#define SS_P_W_INNER_HI 44u
#define SS_P_W_BASE 45u
#define SS_P_W_STEP_O 46u
#define SS_P_W_STEP_K 47u
// The tables start with the H run and the D run: outputs [lo, hi) of the
// axis read no padding and their taps step by step_k from the first (words
// lo, hi, step_k); then the quad path's left edge (SS_P_W_EDGE); the taps
// follow.
#define SS_P_H_RUN 0u
#define SS_P_D_RUN 3u
// The quad path's left edge group: outputs [EDGE, W_INNER_LO) whose W taps
// follow the W run's rule where it gives a column >= 0 and are padding where
// it gives a negative one (the host checked every entry against the table),
// so that the group of SS_PQ_GROUP outputs from EDGE pools them from quads
// too, instead of one invocation in each SIMD batch walking the tables.
// Words: EDGE (SS_PADDING_INDEX: none); PAD, the group's leading span words
// that lie in padding (1 to 4); STARTS, per output g (8 bits at 8 * g) the
// span word of its first real tap, the winner of an all-lowest window.
#define SS_P_W_EDGE 6u
// The interior pipeline's rows (gpu/pooling_interior.h), D and H: where the
// axis's real-tap pairs start in the tables. Pair o, for output o of the
// axis: its first real tap (an input index), and its real taps less one,
// which step by the run's step_k; outside the interior unused. The shader
// pools the real taps in window order, then the last one again in place
// of the padded ones: a repeat never wins, as the compare is strict.
#define SS_P_D_REAL 9u
#define SS_P_H_REAL 10u
#define SS_P_RUN_WORDS 11u
// max_pooling2's pipeline for a box (specialization constant 8): the
// general one; the interior one (gpu/pooling_interior.h); or the interior
// one whose group spans all start at word k of a quad, SS_INTERIOR_AT + k,
// so that realigning them is no work and they load only the quads they use.
#define SS_GENERAL 0u
#define SS_INTERIOR 1u
#define SS_INTERIOR_AT 2u
// The quad path (specialization constant POOL_QUADS, 0 when off): 4-byte
// elements, W input stride 1, and a W run whose taps step by STEP_K, outputs
// by STEP_O; four outputs then read SS_PQ_SPAN consecutive input words per
// window row, which SS_PQ_MAX_SPAN bounds so that the words fit registers.
// ROWS and PLANES, the H and D window sizes up to SS_PQ_MAX_ROWS (0: larger,
// read from the header), make the window-row loops' counts constants: llvmpipe
// then unrolls them, where a loop whose count it reads runs its body once
// more, every lane off, as it exits (a sixth of the pooling time on lavapipe).
#define SS_PQ_WINDOW(q) ((q) & 0xFFu)
#define SS_PQ_STEP_O(q) (((q) >> 8u) & 0xFFu)
#define SS_PQ_STEP_K(q) (((q) >> 16u) & 0xFFu)
#define SS_PQ_ROWS(q) (((q) >> 24u) & 0xFu)
#define SS_PQ_PLANES(q) ((q) >> 28u)
#define SS_PQ_MAX_ROWS 15u
#define SS_PQ_GROUP 4u
#define SS_PQ_SPAN(q) ((SS_PQ_GROUP - 1u) * SS_PQ_STEP_O(q) + (SS_PQ_WINDOW(q) - 1u) * SS_PQ_STEP_K(q) + 1u)
#define SS_PQ_MAX_SPAN 12u

#define SS_HEADER_WORDS 48u

// --- box record, after the header in the box block ---------------------------
// Divisions by a box's extents use multiply-high with precomputed magic
// numbers (Granlund-Montgomery): q = (t + ((n - t) >> s1)) >> s2, t = umulhi(n, m),
// because llvmpipe turns integer division into one scalar divide per lane.
#define SS_R_LO 48u              // [SS_MAX_AXES] first output index of the box per axis
#define SS_R_EXT 56u             // [SS_MAX_AXES] box extent per axis
#define SS_R_EXT_MAGIC 64u       // [SS_MAX_AXES] m for dividing by the extent
#define SS_R_EXT_SHIFTS 72u      // [SS_MAX_AXES] s1 | s2 << 8
#define SS_R_IN_BASE 80u         // element offset where the bound input window starts
#define SS_R_OUT_BASE 81u        // ... output window
#define SS_R_IDX_BASE 82u        // ... indices window
#define SS_R_CHUNKS_PER_ROW 83u
#define SS_R_CHUNKS_MAGIC 84u
#define SS_R_CHUNKS_SHIFTS 85u
#define SS_R_ITEMS 86u           // invocations the box needs (rows * chunks per row)
#define SS_R_SKIP_LO 87u         // gather: row columns [lo, hi) that the transfers
#define SS_R_SKIP_HI 88u         //   write, left alone by the shader (lo == hi: none)
#define SS_R_TILES_T 89u         // tiled_transpose: tiles along the box's next-to-last axis
#define SS_R_TILES_T_MAGIC 90u   //   and the magic number and shifts for dividing by them
#define SS_R_TILES_T_SHIFTS 91u

#define SS_R_IN_QUADS 92u        // whole 16-byte quads in the input window (the most a quad read may reach)
#define SS_R_ROWS_PER_ITEM 93u   // gather: consecutive rows of the box one invocation writes
#define SS_R_ROWS 94u            //   and the box's rows (the product of its extents but the row's)

#define SS_BOX_WORDS 96u
#define SS_BOX_QUADS 24u

#endif
