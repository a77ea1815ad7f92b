// max_pooling2 in NumPy and PyTorch as an exact gather: one pass per window
// tap in row-major window order, keeping the running maximum by StrideScope's
// rules (core/max_pooling.h). Written out rather than calling a framework's
// pooling so that ties, NaN and padded taps follow those rules by construction.
#include <vector>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"

namespace stridescope::codegen {
namespace {

std::string pooling_parameters(const Operation& op) {
  const auto& p = op.params_as<MaxPooling2Params>();
  const Sizes& out = op.output().sizes();
  const std::vector<uint64_t> out_spatial(out.begin() + 2, out.end());
  return "window_size = " + python_tuple(p.window_size) + "\nstrides = " + python_tuple(p.strides) +
         "\nstart_padding = " + python_tuple(p.start_padding) + "\ndilations = " + python_tuple(p.dilations) +
         "  # EndPadding " + bracket_list(p.end_padding) + " shows only in the output sizes\n" +
         "out_spatial = " + python_tuple(out_spatial) + "\n";
}

constexpr const char* kRules =
    "# The window maximum is taken tap by tap in row-major window order, which states\n"
    "# StrideScope's rules exactly: padded taps never win, the first maximum wins a tie\n"
    "# (-0 and +0 tie), a NaN beats every number and the first NaN met stays. The index\n"
    "# is DirectML's: the winner's row-major position in the whole logical input.\n";

}  // namespace

std::string numpy_pooling_code(const Operation& op) {
  const bool floating = is_floating(op.input().data_type());
  std::string text = "# max_pooling2. NumPy has no max pooling.\n";
  text += kRules;
  text += pooling_parameters(op);
  text +=
      "batch, channels, spatial = x.shape[0], x.shape[1], x.shape[2:]\n"
      "result = np.zeros((batch, channels) + out_spatial, dtype=x.dtype)\n"
      "flat_index = np.zeros(result.shape, dtype=np.int64)\n"
      "found = np.zeros(result.shape, dtype=bool)\n"
      "plane = (np.arange(batch)[:, None] * channels + np.arange(channels)[None, :])\n"
      "plane = plane.reshape((batch, channels) + (1,) * len(spatial))\n"
      "for tap in np.ndindex(*window_size):\n"
      "    valid = np.ones(out_spatial, dtype=bool)\n"
      "    coords, flat = [], plane\n"
      "    for d in range(len(spatial)):\n"
      "        i = np.arange(out_spatial[d]) * strides[d] - start_padding[d] + tap[d] * dilations[d]\n"
      "        shape = [1] * len(spatial)\n"
      "        shape[d] = out_spatial[d]\n"
      "        valid = valid & ((i >= 0) & (i < spatial[d])).reshape(shape)\n"
      "        i = np.clip(i, 0, spatial[d] - 1).reshape(shape)\n"
      "        coords.append(i)\n"
      "        flat = flat * spatial[d] + i\n"
      "    candidate = x[(slice(None), slice(None)) + tuple(coords)]\n";
  text += floating ? "    better = ~np.isnan(result) & (np.isnan(candidate) | (candidate > result))\n"
                   : "    better = candidate > result\n";
  text +=
      "    take = valid & (~found | better)\n"
      "    result = np.where(take, candidate, result)\n"
      "    flat_index = np.where(take, flat, flat_index)\n"
      "    found |= valid\n";
  return text;
}

std::string torch_pooling_code(const Operation& op) {
  const auto& p = op.params_as<MaxPooling2Params>();
  const bool floating = is_floating(op.input().data_type());
  const bool three_d = p.spatial_rank() == 3;
  std::string text = "# max_pooling2. F.max_pool" + std::string(three_d ? "3d" : "2d") +
                     " is not used, since it cannot state these rules:\n"
                     "# it takes floating types only (not float16 on the CPU), pads both sides alike (at most\n"
                     "# half the window), gives per-plane indices, may let a later NaN replace an earlier one,\n"
                     "# and padding with F.pad(-inf) first would let a padded tap tie an input -inf.\n";
  text += kRules;
  text += pooling_parameters(op);
  text +=
      "batch, channels, spatial = x.shape[0], x.shape[1], tuple(x.shape[2:])\n"
      "result = torch.zeros((batch, channels) + out_spatial, dtype=x.dtype)\n"
      "flat_index = torch.zeros(result.shape, dtype=torch.int64)\n"
      "found = torch.zeros(result.shape, dtype=torch.bool)\n"
      "plane = torch.arange(batch)[:, None] * channels + torch.arange(channels)[None, :]\n"
      "plane = plane.reshape((batch, channels) + (1,) * len(spatial))\n"
      "for tap in itertools.product(*(range(k) for k in window_size)):\n"
      "    valid = torch.ones(out_spatial, dtype=torch.bool)\n"
      "    coords, flat = [], plane\n"
      "    for d in range(len(spatial)):\n"
      "        i = torch.arange(out_spatial[d]) * strides[d] - start_padding[d] + tap[d] * dilations[d]\n"
      "        shape = [1] * len(spatial)\n"
      "        shape[d] = out_spatial[d]\n"
      "        valid = valid & ((i >= 0) & (i < spatial[d])).reshape(shape)\n"
      "        i = i.clamp(0, spatial[d] - 1).reshape(shape)\n"
      "        coords.append(i)\n"
      "        flat = flat * spatial[d] + i\n"
      "    candidate = x[(slice(None), slice(None)) + tuple(coords)]\n";
  text += floating ? "    better = ~torch.isnan(result) & (torch.isnan(candidate) | (candidate > result))\n"
                   : "    better = candidate > result\n";
  text +=
      "    take = valid & (~found | better)\n"
      "    result = torch.where(take, candidate, result)\n"
      "    flat_index = torch.where(take, flat, flat_index)\n"
      "    found |= valid\n";
  return text;
}

}  // namespace stridescope::codegen
