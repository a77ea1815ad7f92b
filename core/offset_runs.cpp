#include "core/offset_runs.h"

namespace stridescope {

std::vector<OffsetRun> affine_runs(std::span<const int64_t> offsets, int64_t padding_marker) {
  std::vector<OffsetRun> runs;
  const uint64_t n = offsets.size();
  uint64_t i = 0;
  while (i < n) {
    OffsetRun run;
    run.begin = i;
    uint64_t j = i + 1;
    if (offsets[i] == padding_marker) {
      run.padding = true;
      while (j < n && offsets[j] == padding_marker) ++j;
    } else {
      run.first = offsets[i];
      if (j < n && offsets[j] != padding_marker) {
        run.step = offsets[j] - offsets[i];
        while (j < n && offsets[j] != padding_marker && offsets[j] - offsets[j - 1] == run.step) ++j;
      }
    }
    run.length = j - i;
    runs.push_back(run);
    i = j;
  }
  return runs;
}

}  // namespace stridescope
