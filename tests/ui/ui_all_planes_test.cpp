// Every plane at once: the "All planes" toggle tiles each 2-D plane as a small
// multiple labelled by its outer coordinates, pages past what reads, and
// selection and provenance work on every tile. Layouts are worked out here
// by hand from the sizes.
#include <QCheckBox>
#include <QSpinBox>
#include <QtTest>

#include "core/io/spec_file.h"
#include "test_backends.h"
#include "ui/animation_player.h"
#include "ui/linked_selection.h"
#include "ui/plane_tiles.h"
#include "ui/spec_document.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/plane_selector.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope {
char* toString(const Coord& coord) { return qstrdup(format_coord(coord).c_str()); }
}  // namespace stridescope

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// A 1x3x4x4 iota input copied whole: three 4x4 planes, c = 0, 1, 2.
const char* kThreeChannels = R"({
  "op": "slice1",
  "input":  { "dataType": "FLOAT32", "sizes": [1,3,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,3,4,4] },
  "params": {
    "inputWindowOffsets": [0,0,0,0],
    "inputWindowSizes":   [1,3,4,4],
    "inputWindowStrides": [1,1,1,1]
  }
})";

QStringList label_texts(const TensorPlaneModel& model) {
  QStringList texts;
  for (const GridLabel& label : model.labels()) texts << label.text;
  return texts;
}

}  // namespace

class AllPlanesTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  MainWindow& open(const char* json) {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    settle();
    Expected<Spec> spec = parse_spec(json, {});
    if (!spec) qFatal("%s", spec.error().to_string().c_str());
    window_->document()->reset(*spec, std::nullopt);
    settle();
    return *window_;
  }
  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void Tiles_ThreeFourByFourPlanesTwoAcross() {
    // Cells are ~1.5 times as wide as tall: two tiles across (2·5·1.5 = 15
    // wide by 2·5 = 10 tall) come closer to square than one (7.5 by 15) or
    // three (22.5 by 5).
    const PlaneTiles tiles = PlaneTiles::all(Sizes{1, 3, 4, 4}, 2, 3, 4, 4, Coord{0, 0, 0, 0});
    QCOMPARE(tiles.total_planes(), uint64_t{3});
    QCOMPARE(tiles.tiles(), 3);
    QCOMPARE(tiles.tiles_across(), 2);
    QCOMPARE(tiles.rows(), 10);    // two rows of tiles, each a label row and 4 rows
    QCOMPARE(tiles.columns(), 9);  // 4 + a blank column + 4
    QVERIFY(!tiles.place_of(0, 0));  // a label row
    QVERIFY(!tiles.place_of(1, 4));  // the blank column
    QCOMPARE(tiles.place_of(1, 5)->tile, 1);
    QCOMPARE(tiles.place_of(7, 2)->tile, 2);
    QCOMPARE(tiles.place_of(7, 2)->row, 1);
    QVERIFY(!tiles.place_of(6, 6));  // where a fourth tile would be
    QCOMPARE(tiles.label(2, 4), QStringLiteral("n=0, c=2"));
  }

  void Tiles_PageThroughFortyPlanesThirtySixAtATime() {
    const PlaneTiles first = PlaneTiles::all(Sizes{1, 40, 2, 2}, 2, 3, 2, 2, Coord{0, 5, 0, 0});
    QCOMPARE(first.first_on_page(), uint64_t{0});
    QCOMPARE(first.tiles(), 36);
    const PlaneTiles last = PlaneTiles::all(Sizes{1, 40, 2, 2}, 2, 3, 2, 2, Coord{0, 37, 0, 0});
    QCOMPARE(last.first_on_page(), uint64_t{36});
    QCOMPARE(last.tiles(), 4);
    QCOMPARE(last.label(0, 4), QStringLiteral("n=0, c=36"));
    QCOMPARE(last.tile_of(SignedCoord{0, 39, 1, 1}), std::optional<int>(3));
    QVERIFY(!last.tile_of(SignedCoord{0, 2, 1, 1}));
  }

  void AllPlanesToggle_TilesTheInputWithLabelsAndValues() {
    MainWindow& w = open(kThreeChannels);
    TensorPanel* panel = w.panel(TensorRole::Input);
    TensorPlaneModel* model = w.plane_model(TensorRole::Input);
    QCheckBox* toggle = panel->all_planes_toggle();
    QVERIFY(toggle->isVisible());
    QCOMPARE(model->rowCount(), 4);
    toggle->setChecked(true);
    QCOMPARE(model->rowCount(), 10);
    QCOMPARE(model->columnCount(), 9);
    QCOMPARE(label_texts(*model), (QStringList{"n=0, c=0", "n=0, c=1", "n=0, c=2"}));
    // Tile c=2 starts at grid row 6 (second row of tiles), column 0; its
    // row 1, column 3 is [0,2,1,3], iota value 1 + 2·16 + 1·4 + 3 = 40.
    QCOMPARE(model->coord_at(7, 3), std::optional<Coord>(Coord{0, 2, 1, 3}));
    QCOMPARE(model->index(7, 3).data(GridModel::ValueRole).toDouble(), 40.0);
    QCOMPARE(model->row_label(7), QStringLiteral("1"));
    // The spacers hold no element and answer no hover.
    QVERIFY(model->is_spacer(5, 0));
    QVERIFY(!model->coord_at(5, 0));
    QVERIFY(model->index(5, 0).data(Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(!panel->grid()->cell_at(panel->grid()->cell_rect(5, 0).center()));
    // Off again: one plane.
    toggle->setChecked(false);
    QCOMPARE(model->rowCount(), 4);
  }

  void ClickingACellInAnyTile_SelectsItAndMarksItsSourceOnItsTile() {
    MainWindow& w = open(kThreeChannels);
    w.panel(TensorRole::Input)->all_planes_toggle()->setChecked(true);
    w.panel(TensorRole::Output)->all_planes_toggle()->setChecked(true);
    TensorPlaneModel* output = w.plane_model(TensorRole::Output);
    TensorPlaneModel* input = w.plane_model(TensorRole::Input);
    TensorGridView* grid = w.panel(TensorRole::Output)->grid();
    QTRY_VERIFY(!grid->heat_map_mode());
    // Tile c=1 is the second across: columns 5..8; its [2, 1] is grid (3, 6).
    QCOMPARE(output->coord_at(3, 6), std::optional<Coord>(Coord{0, 1, 2, 1}));
    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, grid->cell_rect(3, 6).center());
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 1, 2, 1}));
    QVERIFY(output->index(3, 6).data(GridModel::OverlayRole).toUInt() & kSelected);
    // slice1 with unit strides reads the same coordinate: input [0,1,2,1], on
    // the input's tile c=1, at the same grid cell; every tile stays on show.
    const auto source_cell = input->cell_of(Coord{0, 1, 2, 1});
    QVERIFY(source_cell && source_cell->first == 3 && source_cell->second == 6);
    QVERIFY(input->index(3, 6).data(GridModel::OverlayRole).toUInt() & kSource);
    QCOMPARE(input->rowCount(), 10);
  }

  void Animation_HighlightsEachStepOnItsOwnTile() {
    MainWindow& w = open(kThreeChannels);
    w.panel(TensorRole::Input)->all_planes_toggle()->setChecked(true);
    w.panel(TensorRole::Output)->all_planes_toggle()->setChecked(true);
    TensorPlaneModel* output = w.plane_model(TensorRole::Output);
    TensorPlaneModel* input = w.plane_model(TensorRole::Input);
    // Step 20 in row-major order over 1x3x4x4 is [0,1,1,0] (20 = 1·16 + 1·4 + 0):
    // tile c=1 (second across), its row 1, column 0: grid (2, 5).
    w.animation_player()->set_position(20);
    QTRY_COMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 1, 1, 0}));
    QVERIFY(output->index(2, 5).data(GridModel::OverlayRole).toUInt() & kSelected);
    QVERIFY(input->index(2, 5).data(GridModel::OverlayRole).toUInt() & kSource);
    // Every tile stays on show as the animation crosses planes.
    QCOMPARE(output->rowCount(), 10);
    QCOMPARE(label_texts(*output).size(), 3);
  }

  void SelectingAnOutput_BringsTheInputPanelToItsSourcesPlane() {
    MainWindow& w = open(kThreeChannels);
    w.selection()->select_output(Coord{0, 2, 1, 1});
    QCOMPARE(w.plane_model(TensorRole::Input)->plane().fixed[1], uint64_t{2});
    QCOMPARE(w.plane_model(TensorRole::Output)->plane().fixed[1], uint64_t{2});
    QCOMPARE(w.panel(TensorRole::Input)->selector()->fixed_spin(1)->value(), 2);
  }
};

QTEST_MAIN(AllPlanesTest)
#include "ui_all_planes_test.moc"
