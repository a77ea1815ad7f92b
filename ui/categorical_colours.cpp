#include "ui/categorical_colours.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace stridescope::ui {
namespace {

constexpr std::array<QRgb, 9> kTolLight = {0xff77aadd, 0xffee8866, 0xff44bb99, 0xffeedd88, 0xffffaabb,
                                           0xff99ddff, 0xffbbcc33, 0xffaaaa00, 0xffdddddd};

}  // namespace

int categorical_palette_size() { return static_cast<int>(kTolLight.size()); }

QRgb categorical_rgb(int index) {
  const int n = categorical_palette_size();
  return kTolLight[static_cast<std::size_t>(((index % n) + n) % n)];
}

std::vector<int> categorical_classes(const std::vector<std::optional<uint64_t>>& values, int rows, int columns,
                                     int palette_size) {
  std::vector<int> classes(values.size(), -1);
  if (rows <= 0 || columns <= 0 || values.size() != static_cast<std::size_t>(rows) * columns || palette_size <= 0) {
    return classes;
  }
  // Every cell of each value, values in the order they first appear.
  std::unordered_map<uint64_t, std::vector<int>> cells_of;
  std::vector<uint64_t> order;
  for (int i = 0; i < static_cast<int>(values.size()); ++i) {
    if (!values[i]) continue;
    auto [it, inserted] = cells_of.try_emplace(*values[i]);
    if (inserted) order.push_back(*values[i]);
    it->second.push_back(i);
  }
  std::vector<char> taken(static_cast<std::size_t>(palette_size));
  for (const uint64_t value : order) {
    std::fill(taken.begin(), taken.end(), 0);
    for (const int i : cells_of[value]) {
      const int r = i / columns;
      const int c = i % columns;
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const int nr = r + dr;
          const int nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= rows || nc >= columns) continue;
          const int neighbour = classes[static_cast<std::size_t>(nr) * columns + nc];
          if (neighbour >= 0 && values[static_cast<std::size_t>(nr) * columns + nc] != value) taken[neighbour] = 1;
        }
      }
    }
    int chosen = static_cast<int>(value % static_cast<uint64_t>(palette_size));
    for (int k = 0; k < palette_size; ++k) {
      if (!taken[k]) {
        chosen = k;
        break;
      }
    }
    for (const int i : cells_of[value]) classes[i] = chosen;
  }
  return classes;
}

}  // namespace stridescope::ui
