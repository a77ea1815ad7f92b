// Pooling indices coloured as names, not measures: equal indices share a
// colour and neighbouring windows' winners differ, where a gradient over the
// global range painted a whole plane of close indices one flat colour.
#include <QtTest>

#include <set>

#include "core/io/spec_file.h"
#include "test_backends.h"
#include "ui/categorical_colours.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// 2x2 windows, stride 2, over an 8x8 iota input: every window's maximum is
// its bottom-right element, flat index (2i + 1)·8 + 2j + 1 for output [i, j]:
// 9, 11, 13, 15 / 25, 27, 29, 31 / ... , close together on a 0..63 range.
const char* kPooling = R"({
  "op": "max_pooling2",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,8,8], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,4,4] },
  "outputIndices": { "dataType": "UINT32" },
  "params": { "windowSize": [2,2], "strides": [2,2] }
})";

using Grid = std::vector<std::optional<uint64_t>>;

}  // namespace

class IndexColoursTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }

  void Classes_DifferBetweenTouchingCellsAndMatchForEqualValues() {
    // 2x3: every cell touches every other one in its 8-neighbourhood but the corners across.
    const Grid grid{0, 2, 4, 10, 12, 14};
    const std::vector<int> classes = categorical_classes(grid, 2, 3, categorical_palette_size());
    const std::vector<std::pair<int, int>> touching{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {0, 3}, {1, 4}, {2, 5},
                                                    {0, 4}, {1, 3}, {1, 5}, {2, 4}};
    for (const auto& [a, b] : touching) QVERIFY2(classes[a] != classes[b], qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
    // A value in several cells (a winner two windows share) has one colour.
    const Grid shared{5, 5, 7, 5, 9, 7};
    const std::vector<int> shared_classes = categorical_classes(shared, 2, 3, categorical_palette_size());
    QCOMPARE(shared_classes[0], shared_classes[1]);
    QCOMPARE(shared_classes[0], shared_classes[3]);
    QCOMPARE(shared_classes[2], shared_classes[5]);
    QVERIFY(shared_classes[0] != shared_classes[2] && shared_classes[0] != shared_classes[4]);
    // No value: no class.
    QCOMPARE(categorical_classes(Grid{std::nullopt, 1}, 1, 2, 9)[0], -1);
  }

  void PoolingIndices_NeighbouringWindowsDifferInColour() {
    MainWindow w(cpu_only());
    w.resize(1400, 900);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.settled(), 20000);
    Expected<Spec> spec = parse_spec(kPooling, {});
    QVERIFY(spec.has_value());
    w.document()->reset(*spec, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(w.settled(), 20000);
    TensorPlaneModel* indices = w.plane_model(TensorRole::Indices);
    QCOMPARE(indices->rowCount(), 4);
    QCOMPARE(indices->columnCount(), 4);
    const auto colour = [&](int r, int c) { return indices->index(r, c).data(Qt::BackgroundRole).value<QColor>(); };
    std::set<QRgb> distinct;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        QCOMPARE(indices->index(r, c).data(Qt::DisplayRole).toString(), QString::number((2 * r + 1) * 8 + 2 * c + 1));
        distinct.insert(colour(r, c).rgb());
        if (c + 1 < 4) QVERIFY2(colour(r, c) != colour(r, c + 1), qPrintable(QStringLiteral("row %1, columns %2/%3").arg(r).arg(c).arg(c + 1)));
        if (r + 1 < 4) QVERIFY2(colour(r, c) != colour(r + 1, c), qPrintable(QStringLiteral("column %1, rows %2/%3").arg(c).arg(r).arg(r + 1)));
        if (r + 1 < 4 && c + 1 < 4) QVERIFY(colour(r, c) != colour(r + 1, c + 1));
      }
    }
    QVERIFY(distinct.size() >= 4);

    // The indices' memory strip names each index with the grid's colour
    // (packed 4x4 indices: offset 4r + c holds output [r, c]'s index).
    MemoryStripModel* strip = w.memory_model(TensorRole::Indices);
    int compared = 0;
    for (int row = 0; row < strip->rowCount(); ++row) {
      for (int column = 0; column < strip->columnCount(); ++column) {
        const std::optional<uint64_t> offset = strip->offset_at(row, column);
        if (!offset) continue;
        const int r = static_cast<int>(*offset / 4);
        const int c = static_cast<int>(*offset % 4);
        QCOMPARE(strip->cell(row, column).text, QString::number((2 * r + 1) * 8 + 2 * c + 1));
        QCOMPARE(strip->cell(row, column).fill, colour(r, c).rgb());
        ++compared;
      }
    }
    QCOMPARE(compared, 16);
  }
};

QTEST_MAIN(IndexColoursTest)
#include "ui_index_colours_test.moc"
