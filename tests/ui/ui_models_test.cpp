// The view models (ui/tensor_plane_model.h, ui/memory_strip_model.h,
// ui/diff_model.h, core/reader_index.h as the evaluation carries it, ui/linked_selection.h), checked
// against the DirectML docs' worked examples and hand computation, with
// QAbstractItemModelTester watching every model.
#include <QAbstractItemModelTester>
#include <QtTest>

#include "core/provenance.h"
#include "test_backends.h"
#include "tests/reference/directml_pages.h"
#include "ui/diff_model.h"
#include "ui/evaluation.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_edits.h"
#include "ui/tensor_plane_model.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

EvaluationPtr run(const Spec& spec, const BackendSet& backends, bool compare = false) {
  EvaluationRequest request;
  request.spec = spec;
  request.compare = compare;
  EvaluationOutcome outcome = evaluate(request, backends);
  if (outcome.error) qWarning("%s", outcome.error->to_string().c_str());
  return outcome.evaluation;
}

struct Models {
  TensorPlaneModel input{TensorRole::Input};
  TensorPlaneModel output{TensorRole::Output};
  IndicesModel indices;
  MemoryStripModel input_memory{TensorRole::Input};
  MemoryStripModel output_memory{TensorRole::Output};
  MemoryStripModel indices_memory{TensorRole::Indices};
  QAbstractItemModelTester t1{&input, QAbstractItemModelTester::FailureReportingMode::QtTest};
  QAbstractItemModelTester t2{&output, QAbstractItemModelTester::FailureReportingMode::QtTest};
  QAbstractItemModelTester t3{&indices, QAbstractItemModelTester::FailureReportingMode::QtTest};
  QAbstractItemModelTester t4{&input_memory, QAbstractItemModelTester::FailureReportingMode::QtTest};
  QAbstractItemModelTester t5{&output_memory, QAbstractItemModelTester::FailureReportingMode::QtTest};
  QAbstractItemModelTester t6{&indices_memory, QAbstractItemModelTester::FailureReportingMode::QtTest};
  LinkedSelection selection{{&input, &output, &indices, &input_memory, &output_memory, &indices_memory}};

  void show(const EvaluationPtr& evaluation) {
    for (TensorPlaneModel* m : {&input, &output, static_cast<TensorPlaneModel*>(&indices)}) m->set_evaluation(evaluation);
    for (MemoryStripModel* m : {&input_memory, &output_memory, &indices_memory}) m->set_evaluation(evaluation);
    selection.set_evaluation(evaluation);
  }
};

// The DirectML padding page's 8x10 outputs as the cells print them.
QStringList texts_of(const std::array<int, 80>& values) {
  QStringList texts;
  for (int v : values) texts << QString::number(v);
  return texts;
}

}  // namespace

class ModelsTest : public QObject {
  Q_OBJECT

 private slots:
  void Slice1NegativeStride_OutputMatchesDirectMLExample2() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("slice1_example2_negative_strides.json"), cpu));
    QCOMPARE(grid_texts(m.output), numbers({14, 16, 6, 8}));
  }

  void Slice1NegativeStride_InputShowsTakenElementsInReversedRowOrder() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("slice1_example2_negative_strides.json"), cpu));
    // out[0,0,0,0] reads in[0,0,3,1], out[..,0,1] in[..,3,3], out[..,1,0] in[..,1,1], out[..,1,1] in[..,1,3]:
    // axis 2 starts at the window end, so row 3 is taken first.
    QCOMPARE(m.input.index(3, 1).data(GridModel::DetailRole).toString(), QStringLiteral("#0"));
    QCOMPARE(m.input.index(3, 3).data(GridModel::DetailRole).toString(), QStringLiteral("#1"));
    QCOMPARE(m.input.index(1, 1).data(GridModel::DetailRole).toString(), QStringLiteral("#2"));
    QCOMPARE(m.input.index(1, 3).data(GridModel::DetailRole).toString(), QStringLiteral("#3"));
    int read = 0;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        const quint32 flags = flags_at(m.input, r, c);
        if (!(flags & kUnused)) ++read;
        // The window: InputWindowOffsets {.., 0, 1}, InputWindowSizes {.., 4, 3}.
        QCOMPARE(bool(flags & kInWindow), c >= 1);
      }
    }
    QCOMPARE(read, 4);
    QCOMPARE(m.output.index(1, 0).data(GridModel::DetailRole).toString(), QStringLiteral("\u2190(1,1)"));
  }

  void Slice_OutputsMatchDirectMLExamples() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("slice_example1_contiguous.json"), cpu));
    QCOMPARE(grid_texts(m.output), numbers({7, 8, 11, 12, 15, 16}));
    m.show(run(load_example("slice_example2_strided.json"), cpu));
    QCOMPARE(grid_texts(m.output), numbers({5, 8, 13, 16}));
  }

  void Padding_OutputsMatchDirectMLExamples_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<quint32>("flag");
    QTest::newRow("constant") << "padding_example1_constant.json" << texts_of(pages::kPaddingConstant9) << quint32(kPadConstant);
    QTest::newRow("edge") << "padding_example2_edge.json" << texts_of(pages::kPaddingEdge) << quint32(kPadEdge);
    QTest::newRow("reflection") << "padding_example3_reflection.json" << texts_of(pages::kPaddingReflection) << quint32(kPadReflection);
    QTest::newRow("symmetric") << "padding_example4_symmetric.json" << texts_of(pages::kPaddingSymmetric) << quint32(kPadSymmetric);
  }
  void Padding_OutputsMatchDirectMLExamples() {
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    QFETCH(quint32, flag);
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example(file.toUtf8().constData()), cpu));
    QCOMPARE(m.output.rowCount(), 8);
    QCOMPARE(m.output.columnCount(), 10);
    QCOMPARE(grid_texts(m.output), expected);
    // StartPadding {.., 1, 2}: rows 1..4 and columns 2..5 hold the input; the rest is padding of the mode.
    for (int r = 0; r < 8; ++r) {
      for (int c = 0; c < 10; ++c) {
        const bool inside = r >= 1 && r <= 4 && c >= 2 && c <= 5;
        QCOMPARE(flags_at(m.output, r, c) & kPaddingFlags, inside ? 0u : flag);
      }
    }
  }

  void PaddingFolded_CellShowsTheInputCellItCopies() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("padding_example3_reflection.json"), cpu));
    // out row 0 unfolds to input row -1, which REFLECTION folds to 1; column 0 to -2, folded to 2.
    QCOMPARE(m.output.index(0, 0).data(GridModel::DetailRole).toString(), QStringLiteral("\u2190(1,2)"));
    m.show(run(load_example("padding_example1_constant.json"), cpu));
    QCOMPARE(m.output.index(0, 0).data(GridModel::DetailRole).toString(), QStringLiteral("const"));
  }

  void MaxPooling_OutputIndicesAndDecodedCoordinatesMatchHandComputation() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("max_pooling2_3x3_stride2_pad1_indices.json"), cpu));
    // 3x3 windows, stride 2, padding 1 over the 5x5 input, computed by hand.
    QCOMPARE(grid_texts(m.output), numbers({9, 6, 5, 9, 9, 9, 6, 8, 8}));
    QCOMPARE(grid_texts(m.indices), numbers({5, 7, 4, 5, 12, 14, 20, 18, 18}));
    QCOMPARE(m.indices.index(1, 1).data(GridModel::DetailRole).toString(), QStringLiteral("\u2192[0,0,2,2]"));
    QCOMPARE(m.indices.index(2, 0).data(GridModel::DetailRole).toString(), QStringLiteral("\u2192[0,0,4,0]"));
    // The input grid draws one ring of padding around the 5x5 input.
    QCOMPARE(m.input.rowCount(), 7);
    QCOMPARE(m.input.columnCount(), 7);
    QVERIFY(flags_at(m.input, 0, 0) & kGhost);
    QCOMPARE(m.input.index(1, 1).data().toString(), QStringLiteral("3"));
  }

  void MaxPoolingSelection_MarksWindowPaddedTapsAndWinner() {
    const BackendSet cpu = cpu_only();
    Models m;
    const EvaluationPtr ev = run(load_example("max_pooling2_3x3_stride2_pad1_indices.json"), cpu);
    m.show(ev);
    m.selection.select_output(Coord{0, 0, 0, 0});
    // Window rows -1..1, columns -1..1: five taps in padding, winner 9 at in[0,0,1,0].
    int padded = 0;
    int taps = 0;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        const quint32 flags = flags_at(m.input, r, c);
        if (flags & kPaddedTap) ++padded;
        if (flags & (kTap | kPaddedTap)) ++taps;
      }
    }
    QCOMPARE(taps, 9);
    QCOMPARE(padded, 5);
    QVERIFY(flags_at(m.input, 2, 1) & kWinner);  // in[0,0,1,0] sits at grid (1+1, 0+1)
    QVERIFY(!(flags_at(m.input, 3, 3) & (kTap | kWinner)));
    QVERIFY(flags_at(m.output, 0, 0) & kSelected);
    QVERIFY(flags_at(m.indices, 0, 0) & kSelected);
    const Expected<Provenance> p = explain(ev->op(), Coord{0, 0, 0, 0}, ev->input);
    QCOMPARE(m.selection.status_text(), QString::fromStdString(p->rule));
  }

  void MaxPoolingDilation_WindowBoxShowsGapsBetweenTaps() {
    const BackendSet cpu = cpu_only();
    Models m;
    Spec spec = with_op(default_spec(), OpKind::MaxPooling2);
    spec.request.input.sizes = std::vector<uint64_t>{1, 1, 6, 6};
    auto& p = std::get<MaxPooling2Request>(spec.request.params);
    p.window_size = {2, 2};
    p.strides = std::vector<uint64_t>{1, 1};
    p.dilations = std::vector<uint64_t>{2, 2};
    m.show(run(spec, cpu));
    m.selection.select_output(Coord{0, 0, 0, 0});
    // Taps at rows/columns 0 and 2; the cells between lie in the window's box but are not taps.
    QVERIFY(flags_at(m.input, 0, 0) & kTap);
    QVERIFY(flags_at(m.input, 2, 2) & kTap);
    QVERIFY(flags_at(m.input, 1, 1) & kTapWindow);
    QVERIFY(!(flags_at(m.input, 1, 1) & kTap));
    QVERIFY(!(flags_at(m.input, 3, 3) & kTapWindow));
  }

  void HoverInput_LightsUpEveryOutputThatReadsIt() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("padding_example2_edge.json"), cpu));
    // EDGE: input row 3 is read by output rows 4..7; input column 0 by output columns 0..2.
    m.selection.hover_input(SignedCoord{0, 0, 3, 0});
    int readers = 0;
    for (int r = 0; r < 8; ++r) {
      for (int c = 0; c < 10; ++c) {
        const bool reads = (flags_at(m.output, r, c) & kReader) != 0;
        QCOMPARE(reads, r >= 4 && c <= 2);
        readers += reads;
      }
    }
    QCOMPARE(readers, 12);
    QVERIFY(m.selection.status_text().contains(QStringLiteral("read by 12 output elements")));
    const auto memory_cell = m.input_memory.cell_of(12);  // in[0,0,3,0] is stored at offset 12
    QVERIFY(memory_cell.has_value());
    QVERIFY(flags_at(m.input_memory, memory_cell->first, memory_cell->second) & kHovered);
  }

  void HoverInput_SliceShowsTheOneReader() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("slice1_example2_negative_strides.json"), cpu));
    m.selection.hover_input(SignedCoord{0, 0, 1, 1});
    QVERIFY(flags_at(m.output, 1, 0) & kReader);
    QVERIFY(!(flags_at(m.output, 0, 0) & kReader));
    QCOMPARE(m.selection.status_text(), QStringLiteral("in[0,0,1,1] (offset 5) = 6 -- read by out[0,0,1,0]"));
    const auto cell = m.input_memory.cell_of(5);
    QVERIFY(cell.has_value());
    QVERIFY(flags_at(m.input_memory, cell->first, cell->second) & kHovered);
  }

  void SelectOutput_StatusLineIsTheProvenanceRule() {
    const BackendSet cpu = cpu_only();
    Models m;
    const EvaluationPtr ev = run(load_example("slice1_example2_negative_strides.json"), cpu);
    m.show(ev);
    m.selection.select_output(Coord{0, 0, 1, 0});
    const Expected<Provenance> p = explain(ev->op(), Coord{0, 0, 1, 0});
    QCOMPARE(m.selection.status_text(), QString::fromStdString(p->rule));
    QVERIFY(m.selection.status_text().contains(QStringLiteral("in[0,0,1,1] (offset 5)")));
    QVERIFY(flags_at(m.input, 1, 1) & kSource);
    const auto source_cell = m.input_memory.cell_of(5);
    QVERIFY(flags_at(m.input_memory, source_cell->first, source_cell->second) & kSource);
    const auto out_cell = m.output_memory.cell_of(2);  // out[0,0,1,0] is at offset 2
    QVERIFY(flags_at(m.output_memory, out_cell->first, out_cell->second) & kSelected);
  }

  void HoverMemory_LightsUpTheCoordinatesStoredThere() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("layout_broadcast_rows.json"), cpu));
    // Strides {0, 1}: both rows read offsets 0..2.
    m.selection.hover_memory(TensorRole::Input, 1);
    QVERIFY(flags_at(m.input, 0, 1) & kOffsetMatch);
    QVERIFY(flags_at(m.input, 1, 1) & kOffsetMatch);
    QVERIFY(!(flags_at(m.input, 0, 0) & kOffsetMatch));
    QVERIFY(m.selection.status_text().contains(QStringLiteral("shared by 2 coordinates")));
  }

  void MemoryStrip_ShowsBroadcastReuseAndGaps() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("layout_broadcast_rows.json"), cpu));
    QCOMPARE(m.input_memory.element_count(), uint64_t{3});
    for (int c = 0; c < 3; ++c) {
      QVERIFY(flags_at(m.input_memory, 0, c) & kShared);
      QCOMPARE(m.input_memory.index(0, c).data(GridModel::DetailRole).toString(), QStringLiteral("\u00d72"));
    }
    // Rows of 3 at stride 5 (the doc's padded-rows example): the buffer ends at the last
    // element, offset 1 * 5 + 2 = 7, so it has 8 elements, and offsets 3 and 4 are gaps.
    m.show(run(load_example("layout_padded_rows.json"), cpu));
    m.input_memory.set_columns(5);
    QCOMPARE(m.input_memory.element_count(), uint64_t{8});
    QCOMPARE(m.input_memory.rowCount(), 2);
    QCOMPARE(grid_texts(m.input_memory), (numbers({1, 2, 3, 0, 0, 4, 5, 6}) << QString() << QString()));
    for (uint64_t offset = 0; offset < 8; ++offset) {
      const auto cell = m.input_memory.cell_of(offset);
      QCOMPARE(bool(flags_at(m.input_memory, cell->first, cell->second) & kUnused), offset == 3 || offset == 4);
    }
    QVERIFY(flags_at(m.input_memory, 1, 4) & kOutsideBuffer);
    QCOMPARE(grid_texts(m.input), numbers({1, 2, 3, 4, 5, 6}));
    // Layout only: each cell names its buffer offset, row * 5 + column.
    QCOMPARE(m.input.index(1, 2).data(GridModel::DetailRole).toString(), QStringLiteral("@7"));
  }

  void MemoryStrip_ShowsTheSliceWindowReadOrderAndPaddingRegions() {
    const BackendSet cpu = cpu_only();
    Models m;
    // DML_SLICE1 example 2 over iota 1..16 (4x4): the output 14 16 / 6 8 reads
    // offsets 13, 15, 5 and 7 in that order; the window is columns 1..3.
    m.show(run(load_example("slice1_example2_negative_strides.json"), cpu));
    m.input_memory.set_columns(4);
    auto detail = [&strip = m.input_memory](uint64_t offset) {
      const auto cell = strip.cell_of(offset);
      return strip.index(cell->first, cell->second).data(GridModel::DetailRole).toString();
    };
    auto flags = [&](const MemoryStripModel& strip, uint64_t offset) {
      const auto cell = strip.cell_of(offset);
      return flags_at(strip, cell->first, cell->second);
    };
    QCOMPARE(detail(13), QStringLiteral("#0"));
    QCOMPARE(detail(15), QStringLiteral("#1"));
    QCOMPARE(detail(5), QStringLiteral("#2"));
    QCOMPARE(detail(7), QStringLiteral("#3"));
    QCOMPARE(detail(6), QString());
    QVERIFY(flags(m.input_memory, 13) & kInWindow);
    QVERIFY(!(flags(m.input_memory, 13) & kUnused));
    QVERIFY(flags(m.input_memory, 0) & kUnused);     // column 0: outside the window, not read
    QVERIFY(!(flags(m.input_memory, 0) & kInWindow));
    QVERIFY(flags(m.input_memory, 6) & kUnused);     // in the window, skipped by the stride
    QVERIFY(flags(m.input_memory, 6) & kInWindow);

    // DML_PADDING example 3 (REFLECTION, start 1 and 2): the 8x10 output's
    // offset 0 is padding, offset 12 (row 1, column 2) is the input's (0,0).
    m.show(run(load_example("padding_example3_reflection.json"), cpu));
    QVERIFY(flags(m.output_memory, 0) & kPadReflection);
    QCOMPARE(flags(m.output_memory, 12) & kPaddingFlags, quint32{kNoOverlay});
    QVERIFY(flags(m.output_memory, 79) & kPadReflection);

    // A broadcast element serves several coordinates, read or not: the strip
    // says only that it is shared. Rows 0 and 1 share offsets 0..2 (row
    // stride 0) and the slice reads row 1 alone, so the first coordinate
    // stored there, (0,0), is one nobody reads.
    Spec spec;
    spec.request.input = {DataType::Float32, std::vector<uint64_t>{2, 3}, std::vector<uint64_t>{0, 1}};
    spec.request.params = SliceRequest{{1, 0}, {1, 3}, {1, 1}};
    m.show(run(spec, cpu));
    QVERIFY(flags(m.input_memory, 0) & kShared);
    QCOMPARE(flags(m.input_memory, 0) & (kUnused | kInWindow), quint32{kNoOverlay});
    QVERIFY(flags_at(m.input, 0, 0) & kUnused);  // the grid: (0,0) is not read
  }

  void ToolTips_SpellOutTheOffsetFormula() {
    const BackendSet cpu = cpu_only();
    Models m;
    // The page's padded rows: sizes {2,3}, strides {5,1}; element (1,2) holds F
    // (6 here) at offset 1 * 5 + 2 * 1 = 7.
    m.show(run(load_example("layout_padded_rows.json"), cpu));
    QVERIFY(m.input.index(1, 2).data(Qt::ToolTipRole).toString().contains(QStringLiteral("buffer offset 7 = 1\u00b75 + 2\u00b71")));
    m.input_memory.set_columns(5);
    const auto cell = m.input_memory.cell_of(7);
    QVERIFY(m.input_memory.index(cell->first, cell->second).data(Qt::ToolTipRole).toString().contains(
        QStringLiteral("holds in[1,2]: offset 7 = 1\u00b75 + 2\u00b71")));
  }

  void MemoryStrip_WrapsAtTheRowPitchWhenItFits() {
    auto desc = [](Sizes sizes, Strides strides) {
      return TensorDesc::make(DataType::Float32, sizes, strides, "input").value();
    };
    const PlaneSelection last_two{0, 1, {}};
    // The page's padded rows (3 elements, then a 2-element gap): rows of 5.
    QCOMPARE(memory_strip_columns(desc({2, 3}, {5, 1}), last_two, 16), 5);
    // Column-major: the rows have stride 1, the columns 2: one grid column per strip row.
    QCOMPARE(memory_strip_columns(desc({2, 3}, {1, 2}), last_two, 16), 2);
    // A 5x5 image wraps at 5 where 5 fit, else at what fits.
    const PlaneSelection hw{2, 3, {0, 0, 0, 0}};
    QCOMPARE(memory_strip_columns(desc({1, 1, 5, 5}, {25, 25, 5, 1}), hw, 8), 5);
    QCOMPARE(memory_strip_columns(desc({1, 1, 5, 5}, {25, 25, 5, 1}), hw, 3), 3);
    // Rows too wide to fit: a whole fraction of the pitch, when it fills half the view.
    QCOMPARE(memory_strip_columns(desc({1, 1, 8, 10}, {80, 80, 10, 1}), hw, 7), 5);
    QCOMPARE(memory_strip_columns(desc({1, 1, 4, 1024}, {4096, 4096, 1024, 1}), hw, 6), 4);
    QCOMPARE(memory_strip_columns(desc({1, 1, 4, 13}, {52, 52, 13, 1}), hw, 5), 5);  // 13 is prime
    // NHWC, 2 channels: an image row is W * C = 10 elements, a pixel 2.
    QCOMPARE(memory_strip_columns(desc({1, 2, 3, 5}, {30, 1, 10, 2}), hw, 16), 10);
    QCOMPARE(memory_strip_columns(desc({1, 2, 3, 5}, {30, 1, 10, 2}), hw, 6), 2);
    // No pitch: broadcast rows, a single row, a 1-D tensor.
    QCOMPARE(memory_strip_columns(desc({2, 3}, {0, 1}), last_two, 16), 16);
    QCOMPARE(memory_strip_columns(desc({1, 4}, {4, 1}), last_two, 16), 16);
    QCOMPARE(memory_strip_columns(desc({7}, {1}), PlaneSelection{-1, 0, {0}}, 16), 16);
  }

  void PlaneSelection_ShowsChosenDimensionsAndFixedIndex() {
    const BackendSet cpu = cpu_only();
    Models m;
    m.show(run(load_example("layout_dhw.json"), cpu));
    const TensorDesc* desc = m.input.desc();
    QVERIFY(desc != nullptr);
    QCOMPARE(desc->sizes(), (Sizes{2, 2, 3}));
    // Default: rows = H, columns = W, D fixed at 0: A..F are 1..6 (iota) in the doc's DHW example.
    QCOMPARE(m.input.rowCount(), 2);
    QCOMPARE(m.input.columnCount(), 3);
    PlaneSelection plane = m.input.plane();
    plane.fixed[0] = 1;
    m.input.set_plane(plane);
    QCOMPARE(m.input.index(0, 1).data(GridModel::OffsetRole).toULongLong(), qulonglong{7});  // "H" at offset 7
    plane.row_dim = 0;  // rows = D, columns = W, H fixed at 0
    plane.fixed = Coord{0, 0, 0};
    m.input.set_plane(plane);
    QCOMPARE(m.input.rowCount(), 2);
    QCOMPARE(m.input.index(1, 0).data(GridModel::OffsetRole).toULongLong(), qulonglong{6});  // "G"
  }

  void ProvenanceIndex_ReadersAgreeWithCoreReadersPerAxis_data() {
    QTest::addColumn<QString>("file");
    for (const char* file : {"slice1_example1_positive_strides.json", "slice1_example2_negative_strides.json",
                             "slice_example2_strided.json", "padding_example2_edge.json",
                             "padding_example3_reflection.json", "padding_example4_symmetric.json",
                             "max_pooling2_3x3_stride2_pad1_indices.json", "layout_broadcast_rows.json"}) {
      QTest::newRow(file) << QString::fromLatin1(file);
    }
  }
  void ProvenanceIndex_ReadersAgreeWithCoreReadersPerAxis() {
    QFETCH(QString, file);
    const BackendSet cpu = cpu_only();
    const EvaluationPtr ev = run(load_example(file.toUtf8().constData()), cpu);
    const Operation& op = ev->op();
    Coord in(op.input().rank(), 0);
    do {
      const auto expected = readers_per_axis(op, in);
      for (std::size_t d = 0; d < in.size(); ++d) {
        const auto got = ev->provenance.readers(d, in[d]);
        QCOMPARE(std::vector<uint64_t>(got.begin(), got.end()), expected[d]);
      }
    } while (next_coord(in, op.input().sizes()));
  }

  void ProvenanceIndex_OutputKindsAgreeWithExplain() {
    const BackendSet cpu = cpu_only();
    for (const char* file : {"padding_example1_constant.json", "padding_example3_reflection.json",
                             "slice1_example2_negative_strides.json"}) {
      const EvaluationPtr ev = run(load_example(file), cpu);
      Coord out(ev->op().output().rank(), 0);
      do {
        const Expected<Provenance> p = explain(ev->op(), out);
        QCOMPARE(ev->provenance.output_kind(out), p->kind);
        QCOMPARE(ev->provenance.output_source(out), p->source);
      } while (next_coord(out, ev->op().output().sizes()));
    }
  }

  void Compare_ListsTheElementsWhereBackendsDiffer() {
    const BackendSet backends = cpu_and_faulty();
    Models m;
    DiffModel diffs;
    QAbstractItemModelTester tester(&diffs, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const EvaluationPtr ev = run(load_example("slice_example1_contiguous.json"), backends, true);
    m.show(ev);
    diffs.set_evaluation(ev);
    // The faulty backend flips one bit of out[0,0,0,0] (7).
    QCOMPARE(diffs.rowCount(), 1);
    QCOMPARE(diffs.index(0, DiffModel::CoordColumn).data().toString(), QStringLiteral("[0,0,0,0]"));
    QCOMPARE(diffs.index(0, DiffModel::ReferenceColumn).data().toString(), QStringLiteral("7"));
    QCOMPARE(diffs.headerData(DiffModel::ReferenceColumn, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Reference"));
    QVERIFY(diffs.headerData(DiffModel::ReferenceColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("reference backend")));
    QVERIFY(diffs.index(0, DiffModel::OtherColumn).data().toString() != QStringLiteral("7"));
    QVERIFY(diffs.summary().contains(QStringLiteral("differ in 1 element (GPU")));
    QVERIFY(diffs.summary().contains(QStringLiteral("GPU 0.250 ms")));
    QVERIFY(flags_at(m.output, 0, 0) & kDiffers);
    QVERIFY(!(flags_at(m.output, 0, 1) & kDiffers));
  }

  void Compare_EqualBackendsReportAgreement() {
    BackendSet backends = cpu_only();
    backends.add(std::make_unique<CpuReferenceBackend>(), "cpu");
    DiffModel diffs;
    diffs.set_evaluation(run(load_example("slice_example2_strided.json"), backends, true));
    QCOMPARE(diffs.rowCount(), 0);
    QVERIFY(diffs.summary().contains(QStringLiteral("agree on all 4 elements")));
  }

  void Models_SurviveShapeChangesAndNoEvaluation() {
    const BackendSet cpu = cpu_only();
    Models m;
    for (const char* file : {"padding_example1_constant.json", "max_pooling2_3x3_stride2_pad1_indices.json",
                             "layout_broadcast_rows.json", "slice1_example2_negative_strides.json"}) {
      m.show(run(load_example(file), cpu));
      m.selection.select_output(Coord(m.output.desc()->rank(), 0));
      m.selection.hover_input(SignedCoord(m.input.desc()->rank(), 0));
    }
    m.input_memory.set_columns(3);
    m.show(nullptr);
    QCOMPARE(m.output.rowCount(), 0);
    QCOMPARE(m.input_memory.rowCount(), 0);
  }
};

QTEST_MAIN(ModelsTest)
#include "ui_models_test.moc"
