// Template part of tensor_text.h.
#pragma once

#include <algorithm>
#include <vector>

namespace stridescope::cli {

template <class CellText>
std::string format_cells(const Sizes& sizes, std::string_view indent, uint64_t max_elements, CellText cell_text) {
  const std::size_t rank = sizes.size();
  const uint64_t columns = sizes[rank - 1];
  const uint64_t rows = rank >= 2 ? sizes[rank - 2] : 1;
  uint64_t blocks = 1;
  for (std::size_t d = 0; d + 2 < rank; ++d) blocks *= sizes[d];  // <= element count

  uint64_t total = 1;
  for (uint64_t size : sizes) total *= size;
  const uint64_t shown = std::min(total, max_elements);

  // Collect the shown cells first so every column can be right-aligned.
  std::vector<std::string> cells;
  cells.reserve(shown);
  Coord coord(rank, 0);
  std::size_t width = 1;
  for (uint64_t i = 0; i < shown; ++i) {
    cells.push_back(cell_text(coord));
    width = std::max(width, cells.back().size());
    next_coord(coord, sizes);
  }

  std::string text;
  const bool headers = blocks > 1;
  uint64_t i = 0;
  for (uint64_t block = 0; block < blocks && i < shown; ++block) {
    if (headers) {
      // The leading coordinate of this block, then * for the grid's axes.
      Coord lead(rank, 0);
      uint64_t rest = block;
      for (std::size_t d = rank - 2; d-- > 0;) {
        lead[d] = rest % sizes[d];
        rest /= sizes[d];
      }
      text += indent;
      text += '[';
      for (std::size_t d = 0; d + 2 < rank; ++d) text += std::to_string(lead[d]) + ",";
      text += "*,*]\n";
    }
    for (uint64_t r = 0; r < rows && i < shown; ++r) {
      text += indent;
      for (uint64_t c = 0; c < columns && i < shown; ++c, ++i) {
        text += ' ';
        text.append(width - cells[i].size(), ' ');
        text += cells[i];
      }
      text += '\n';
    }
  }
  if (shown < total) {
    text += indent;
    text += "... (" + std::to_string(total - shown) + " more elements not shown)\n";
  }
  return text;
}

}  // namespace stridescope::cli
