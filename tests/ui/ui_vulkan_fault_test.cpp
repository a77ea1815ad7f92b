// The app when the Vulkan device fails under it (faults injected at the
// Vulkan call boundary, gpu/vk_faults.h, as in tests/gpu/vulkan_fault_test):
// the person's spec is kept as it was, unmarked and unmodified, and the app
// says what happened, in the compare panel and in the status bar; the CPU
// keeps running the same spec.
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QtTest>

#include <cstdlib>
#include <memory>
#include <string>

#include "core/io/spec_file.h"
#include "gpu/vk_faults.h"
#include "gpu/vulkan_backend.h"
#include "shown_window.h"
#include "test_backends.h"
#include "ui/spec_document.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

bool vulkan_required() {
  const char* value = std::getenv("STRIDESCOPE_REQUIRE_VULKAN");
  return value != nullptr && std::string(value) == "1";
}

}  // namespace

class VulkanFaultInTheApp : public QObject {
  Q_OBJECT

  std::unique_ptr<gpu::ScopedVulkanFaults> faults_;
  std::unique_ptr<MainWindow> window_;

  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }
  const TensorPlaneModel& output() const { return *window_->plane_model(TensorRole::Output); }
  QString status() const { return window_->statusBar()->currentMessage(); }
  std::string spec_text() const { return write_spec(window_->document()->spec()); }

  // The app as gui_main.cpp makes it, with the CPU reference as "cpu" and a
  // Vulkan backend made while the faults are armed.
  bool open_window_with_vulkan() {
    faults_ = std::make_unique<gpu::ScopedVulkanFaults>();
    auto vulkan = VulkanBackend::create(VulkanOptions{});
    if (!vulkan) {
      const QByteArray why = QByteArray::fromStdString(vulkan.error().to_string());
      if (vulkan_required()) QTest::qFail("STRIDESCOPE_REQUIRE_VULKAN=1 but no Vulkan backend: " + why, __FILE__, __LINE__);
      else QTest::qSkip("no Vulkan backend: " + why, __FILE__, __LINE__);
      return false;
    }
    BackendSet backends = cpu_only();
    backends.add(std::move(*vulkan));
    window_ = open_shown_window(std::move(backends));
    if (!window_) QTest::qFail("the window's first evaluation did not arrive", __FILE__, __LINE__);
    return window_ != nullptr;
  }

 private slots:
  void cleanup() {
    window_.reset();  // the backends go before the faults' scope ends
    faults_.reset();
    QSettings().clear();
  }

  void DeviceLostDuringCompare_PanelAndStatusBarSayItAndTheSpecStays() {
    if (!open_window_with_vulkan()) return;
    const std::string before = spec_text();
    // The slice1 example (DirectML's negative-stride example): by hand [14,16,6,8].
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));

    faults_->inject({"vkQueueSubmit", VK_ERROR_DEVICE_LOST});
    window_->set_compare(true);
    settle();

    auto* summary = window_->findChild<QLabel*>(QStringLiteral("compareSummary"));
    QVERIFY2(summary->text().contains(QStringLiteral("Vulkan")), qPrintable(summary->text()));
    QVERIFY2(summary->text().contains(QStringLiteral("failed: the Vulkan device was lost")), qPrintable(summary->text()));
    QVERIFY2(status().startsWith(QStringLiteral("Compare: Vulkan")), qPrintable(status()));
    QVERIFY2(status().contains(QStringLiteral("the Vulkan device was lost")), qPrintable(status()));
    // The CPU's result of the same spec is on show; the spec is the person's.
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    QCOMPARE(spec_text(), before);
    QVERIFY(!window_->isWindowModified());
    QVERIFY(!window_->current_error().has_value());
  }

  void RunningOnALostDevice_StatusBarSaysSoAndTheFormIsNotMarked() {
    if (!open_window_with_vulkan()) return;
    const std::string before = spec_text();
    faults_->inject({"vkQueueSubmit", VK_ERROR_DEVICE_LOST});
    window_->set_backend(QStringLiteral("vulkan"));
    settle();

    QVERIFY2(status().startsWith(QStringLiteral("Vulkan")), qPrintable(status()));
    QVERIFY2(status().contains(QStringLiteral("failed: the Vulkan device was lost")), qPrintable(status()));
    QVERIFY2(status().contains(QStringLiteral("The spec is unchanged")), qPrintable(status()));
    // A device fault is not the spec's: no field turns red, nothing is lost,
    // and the last result stays, marked stale.
    QVERIFY(!window_->current_error().has_value());
    QCOMPARE(window_->editor()->invalid_widget(), nullptr);
    QCOMPARE(spec_text(), before);
    QVERIFY(!window_->isWindowModified());
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    QVERIFY(window_->panel(TensorRole::Output)->grid()->stale());

    // Later runs on the lost device are refused the same way, never a crash.
    window_->set_compare(true);
    settle();
    QVERIFY2(status().contains(QStringLiteral("the Vulkan device was lost")), qPrintable(status()));

    // Back on the CPU, the same spec runs and the message goes.
    window_->set_compare(false);
    window_->set_backend(QStringLiteral("cpu"));
    settle();
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    QVERIFY(!window_->panel(TensorRole::Output)->grid()->stale());
    QVERIFY2(status().isEmpty(), qPrintable(status()));
  }

  void OutOfDeviceMemory_IsReportedAndTheCpuResultStays() {
    if (!open_window_with_vulkan()) return;
    faults_->inject({"vkAllocateMemory", VK_ERROR_OUT_OF_DEVICE_MEMORY});
    window_->set_compare(true);
    settle();
    auto* summary = window_->findChild<QLabel*>(QStringLiteral("compareSummary"));
    QVERIFY2(summary->text().contains(QStringLiteral("Vulkan")) && summary->text().contains(QStringLiteral("failed")),
             qPrintable(summary->text()));
    QVERIFY2(status().startsWith(QStringLiteral("Compare: Vulkan")), qPrintable(status()));
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
  }
};

QTEST_MAIN(VulkanFaultInTheApp)
#include "ui_vulkan_fault_test.moc"
