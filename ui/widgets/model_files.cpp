#include "ui/widgets/model_files.h"

#include <filesystem>
#include <system_error>

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QStringList>

#include "core/codegen/code_writer.h"
#include "core/codegen/dxdispatch_dispatch.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/cpu_backend.h"
#include "core/io/atomic_file.h"
#include "core/io/text_file.h"
#include "ui/file_path.h"
#include "ui/spec_document.h"
#include "ui/widgets/dispatch_picker.h"
#include "ui/widgets/main_window.h"

namespace stridescope::ui {
namespace {

Expected<std::string> read_model_text(const QString& path) {
  return read_text_file(to_path(path), kMaxSpecBytes, "is longer than a model may be");
}

QString sizes_text(const TensorDesc& desc) {
  QStringList sizes;
  for (const uint64_t size : desc.sizes()) sizes << QString::number(size);
  return QStringLiteral("[%1]").arg(sizes.join(QLatin1Char(',')));
}

QList<DispatchEntry> dispatch_entries(const DxModel& model) {
  QList<DispatchEntry> entries;
  for (const std::size_t command : dispatch_commands(model)) {
    const DxDispatchable& d = model.dispatchables[model.commands[command].dispatchable];
    const Operation& op = d.op;
    entries.push_back({QString::fromStdString(d.name), QString::fromStdString(d.type),
                       QStringLiteral("%1 %2 \u2192 %3")
                           .arg(QString::fromStdString(std::string(to_string(op.input().data_type()))), sizes_text(op.input()),
                                sizes_text(op.output()))});
  }
  return entries;
}

}  // namespace

bool is_model_file(const QString& path) {
  std::error_code error;
  if (path.isEmpty() || !std::filesystem::is_regular_file(to_path(path), error)) return false;
  const Expected<std::string> text = read_model_text(path);
  return text && looks_like_dxdispatch_model(*text);
}

Status open_model(SpecDocument& document, const QString& path, QWidget* parent) {
  const std::filesystem::path file = to_path(path);
  SS_ASSIGN_OR_RETURN(const std::string text, read_model_text(path));
  SS_ASSIGN_OR_RETURN(const DxModel model, parse_dxdispatch_model(text, file.parent_path()));
  const std::size_t count = dispatch_commands(model).size();
  if (count == 0) return invalid("commands", "the model has no dispatch command: there is nothing to open");
  std::size_t chosen = 0;
  if (count > 1 && parent != nullptr) {
    DispatchPicker picker(QFileInfo(path).fileName(), dispatch_entries(model), parent);
    if (picker.exec() != QDialog::Accepted || picker.selected() < 0) return {};
    chosen = static_cast<std::size_t>(picker.selected());
  }
  // The dispatches before the chosen one run on the CPU reference, here:
  // models are small, and the spec must hold its input before it opens.
  CpuReferenceBackend reference;
  SS_ASSIGN_OR_RETURN(DispatchSpec dispatch, dispatch_spec(model, chosen, reference));
  document.reset(std::move(dispatch.spec), file);
  return {};
}

Status save_model(const Spec& spec, const QString& path) {
  SS_ASSIGN_OR_RETURN(const Operation op, Operation::make(spec.request));
  SS_ASSIGN_OR_RETURN(const std::vector<std::byte> input, make_input_buffer(spec, op.input()));
  const GeneratedCode code = write_code(CodeLanguage::DxDispatch, CodeSource{spec, op, input});
  return write_file_atomically(to_path(path), code.text);
}

QAction* make_save_model_action(MainWindow* window) {
  auto* action = new QAction(QObject::tr("Save As DxDispatch &Model\u2026"), window);
  action->setObjectName(QStringLiteral("saveModelAction"));
  action->setStatusTip(QObject::tr("Write the spec as a DxDispatch model, to run it against DirectML on Windows"));
  QObject::connect(action, &QAction::triggered, window, [window] {
    QSettings settings;
    QString path = QFileDialog::getSaveFileName(window, QObject::tr("Save As DxDispatch Model"),
                                                settings.value("lastDirectory").toString(),
                                                QObject::tr("DxDispatch model (*.json)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
    settings.setValue("lastDirectory", QFileInfo(path).absolutePath());
    const Status status = save_model(window->document()->spec(), path);
    if (status) {
      window->statusBar()->showMessage(QObject::tr("Saved as a DxDispatch model: %1").arg(path), 8000);
      return;
    }
    QMessageBox::warning(window, QObject::tr("Save As DxDispatch Model"),
                         QObject::tr("Could not save %1:\n%2")
                             .arg(QFileInfo(path).fileName(), QString::fromStdString(status.error().to_string())));
  });
  return action;
}

}  // namespace stridescope::ui
