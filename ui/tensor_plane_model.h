// One 2-D plane of an N-D tensor as a grid: the person picks which dimension
// runs down the rows and which across the columns, and fixes an index for
// every other dimension. Cells carry the element's value, its colour on the
// value palette, and overlay flags that come from the evaluation's
// provenance tables (static: window, padding regions, elements not read) and
// from the linked selection (dynamic: marks, readers, a buffer offset).
#pragma once

#include <array>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/provenance.h"
#include "ui/evaluation.h"
#include "ui/grid_model.h"
#include "ui/plane_tiles.h"

namespace stridescope::ui {

enum class TensorRole { Input, Output, Indices };

QString to_display_string(TensorRole role);
// A value as a cell shows it: exact when short ("14", "-2.5"), else 4
// significant digits ("99.41", "1.235e+09"); tool tips give the exact text.
QString cell_text(const Scalar& value);
// The tensor of `role` in `op`, or nullptr (no indices tensor).
const TensorDesc* tensor_of(const Operation& op, TensorRole role);
const std::vector<std::byte>* buffer_of(const Evaluation& evaluation, TensorRole role);

struct PlaneSelection {
  int row_dim = -1;    // -1: a single row (1-D tensors)
  int column_dim = 0;
  Coord fixed;         // an index per dimension; the row and column entries are ignored
  // Every plane at once, as small multiples (the page holding `fixed`'s plane).
  bool all_planes = false;

  friend bool operator==(const PlaneSelection&, const PlaneSelection&) = default;
};

// The last two dimensions, every other index 0.
PlaneSelection default_plane(const Sizes& sizes);
// `plane` when it still fits `sizes` (indices clamped), else default_plane.
PlaneSelection fit_plane(const PlaneSelection& plane, const Sizes& sizes);

// A dynamic overlay on one element; the coordinate is signed because a
// pooling tap may lie in padding.
struct ElementMark {
  SignedCoord coord;
  quint32 flags = kNoOverlay;
};

using AxisIndexSets = std::array<std::vector<uint64_t>, kMaxRank>;

class TensorPlaneModel : public GridModel {
  Q_OBJECT

 public:
  explicit TensorPlaneModel(TensorRole role, QObject* parent = nullptr);

  TensorRole role() const { return role_; }
  void set_evaluation(EvaluationPtr evaluation);
  const EvaluationPtr& evaluation() const { return evaluation_; }
  const TensorDesc* desc() const { return desc_; }

  void set_plane(const PlaneSelection& plane);
  const PlaneSelection& plane() const { return plane_; }
  void set_palette(ValuePalette palette);

  // Dynamic overlays, set by the linked selection.
  void set_marks(std::vector<ElementMark> marks);
  // Every element whose index along each dimension d is in sets[d] gets kReader.
  void set_reader_sets(std::optional<AxisIndexSets> sets);
  // Every element stored at buffer `offset` gets kOffsetMatch.
  void set_offset_highlight(std::optional<uint64_t> offset);
  void clear_dynamic();

  // Geometry. Rows/columns include margin cells where a pooling input's
  // padding is drawn (max_pooling2 input only).
  int margin_rows_before() const { return margins_[0]; }
  int margin_columns_before() const { return margins_[2]; }
  SignedCoord signed_coord_at(int row, int column) const;
  std::optional<Coord> coord_at(int row, int column) const;  // nullopt on margin cells
  std::optional<std::pair<int, int>> cell_of(const SignedCoord& coord) const;  // on this plane?
  std::optional<std::pair<int, int>> cell_of(const Coord& coord) const;

  // How the planes are laid out (one plane, or all of them tiled).
  const PlaneTiles& tiles() const { return tiles_; }
  // "planes 1–36 of 256" when tiled over several pages, else empty.
  QString page_text() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

  CellVisual cell(int row, int column) const override;
  CellVisual cell_without_text(int row, int column) const override;
  QRgb heat(int row, int column) const override;
  QString row_label(int row) const override;
  QString column_label(int column) const override;
  QString widest_text() const override;
  std::optional<std::pair<double, double>> value_range() const override;
  std::vector<std::pair<QPoint, quint32>> marked_cells() const override;
  bool is_spacer(int row, int column) const override;
  std::vector<GridLabel> labels() const override;

  // Lets typed values be entered into input cells ("values typed into cells").
  void set_editable(bool editable) { editable_ = editable; }

 signals:
  // The plane shown, or the sizes of the tensor it is cut from, changed.
  void planeChanged();
  // A value typed into an input cell: the element's buffer offset and text.
  void valueEdited(quint64 offset, const QString& text);

 protected:
  // The static part of a cell: value, colour, flags from the provenance tables.
  // `with_text` false: only the colour and flags (heat maps).
  virtual void describe(const Coord& coord, CellVisual& visual, bool with_text) const;
  QString tool_tip(int row, int column) const override;
  // After a new evaluation or plane, before views hear of it.
  virtual void plane_state_changed() {}
  double value(int row, int column) const override;
  QVariant coord_data(int row, int column) const override;
  QVariant offset_data(int row, int column) const override;
  // "(1,2)" when `coord` lies on the plane of `reference`, else "[0,1,1,2]".
  QString compact(const Coord& coord, const Coord& reference) const;
  double normalised(double value) const;
  ValuePalette palette() const { return palette_; }

 private:
  struct PairHash {
    std::size_t operator()(const std::pair<int, int>& p) const {
      return std::hash<long long>()((static_cast<long long>(p.first) << 32) ^ static_cast<unsigned>(p.second));
    }
  };

  // Everything a new evaluation or plane replaces at once, so a model reset
  // brackets the whole change.
  struct State {
    EvaluationPtr evaluation;
    const TensorDesc* desc = nullptr;
    const std::vector<std::byte>* bytes = nullptr;
    PlaneSelection plane;
    std::array<int, 4> margins{};
    std::vector<uint64_t> differing;
    PlaneTiles tiles;
  };
  void apply(State next);
  std::array<int, 4> margins_for(const State& state) const;
  void rebuild_mark_cells();
  quint32 dynamic_flags(int row, int column) const;
  static PlaneTiles tiles_for(const State& state);
  CellVisual described_cell(int row, int column, bool with_text) const;
  CellVisual make_cell(int row, int column, bool with_text, bool with_dynamic) const;

  TensorRole role_;
  EvaluationPtr evaluation_;
  const TensorDesc* desc_ = nullptr;
  const std::vector<std::byte>* bytes_ = nullptr;
  PlaneSelection plane_;
  std::array<int, 4> margins_{};  // rows before, rows after, columns before, columns after
  PlaneTiles tiles_;
  ValuePalette palette_ = ValuePalette::Viridis;
  bool editable_ = false;

  std::vector<ElementMark> marks_;
  std::unordered_map<std::pair<int, int>, quint32, PairHash> mark_cells_;
  std::optional<AxisIndexSets> reader_sets_;
  std::optional<uint64_t> offset_highlight_;
  std::vector<uint64_t> differing_;  // flat indices the compare found different (sorted)

  // describe()'s cells, kept while the revision stays (without text, with
  // text): an animation step repaints every cell, and describing one reads
  // the buffer, the provenance and the overlays. Planes past
  // kMaxDescribedCells are described afresh (views paint only what shows).
  static constexpr std::size_t kMaxDescribedCells = std::size_t{1} << 16;
  struct DescribedCells {
    quint64 revision = ~quint64{0};
    std::vector<std::optional<CellVisual>> cells;
  };
  mutable std::array<DescribedCells, 2> described_;
};

// The max_pooling2 indices tensor: each cell shows the flat index and the
// input coordinate it decodes to (TensorDesc::coord_of_flat_index).
class IndicesModel : public TensorPlaneModel {
  Q_OBJECT

 public:
  explicit IndicesModel(QObject* parent = nullptr) : TensorPlaneModel(TensorRole::Indices, parent) {}
  // Indices are whole numbers, on no shared value scale.
  std::optional<std::pair<double, double>> value_range() const override { return std::nullopt; }
  QString widest_text() const override;
  QString widest_detail() const override;
  // The colour of flat index `flat`: its name's colour in the plane shown,
  // which the indices' memory strip takes too, so one index has one colour
  // in both; an index not in the plane takes the palette entry `flat` picks.
  QRgb index_rgb(uint64_t flat) const;

 signals:
  // The plane shown (or its evaluation) changed, and with it index_rgb.
  void indexColoursChanged();

 protected:
  void describe(const Coord& coord, CellVisual& visual, bool with_text) const override;
  void plane_state_changed() override;

 private:
  void colour_plane();
  // A palette entry per flat index shown (ui/categorical_colours.h).
  std::unordered_map<uint64_t, int> colour_of_;
};

}  // namespace stridescope::ui
