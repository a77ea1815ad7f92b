#include "ui/examples.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "core/io/spec_file.h"

namespace stridescope::ui {

QString examples_directory() {
  QStringList candidates;
  const QString app_dir = QCoreApplication::applicationDirPath();
  if (!app_dir.isEmpty()) {
    candidates << app_dir + QStringLiteral("/examples") << app_dir + QStringLiteral("/../share/stridescope/examples");
  }
#ifdef STRIDESCOPE_EXAMPLES_DIR
  candidates << QStringLiteral(STRIDESCOPE_EXAMPLES_DIR);
#endif
  for (const QString& candidate : candidates) {
    const QDir dir(candidate);
    if (dir.exists() && !dir.entryList({QStringLiteral("*.json")}, QDir::Files).isEmpty()) return dir.absolutePath();
  }
  return {};
}

QString example_title(const QString& file_name) {
  QString title = QFileInfo(file_name).completeBaseName();
  title.replace(QLatin1Char('_'), QLatin1Char(' '));
  title.replace(QLatin1Char('-'), QLatin1Char(' '));
  // Keep operator names whole: "max pooling2" reads better as "max_pooling2".
  title.replace(QStringLiteral("max pooling2"), QStringLiteral("max_pooling2"));
  return title;
}

bool is_bundled_example(const QString& path, const QString& directory) {
  if (directory.isEmpty() || path.isEmpty()) return false;
  // Compared as canonical folders, so "examples/../examples/x.json" and a
  // symbolic link to the folder are recognised too.
  const QFileInfo file(path);
  const QString folder = QFileInfo(file.absolutePath()).canonicalFilePath();
  return !folder.isEmpty() && folder == QFileInfo(directory).canonicalFilePath();
}

QList<Example> list_examples(const QString& directory) {
  QList<Example> examples;
  if (directory.isEmpty()) return examples;
  const QDir dir(directory);
  for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    const Expected<Spec> spec = load_spec_file(info.absoluteFilePath().toStdString());
    examples.push_back({info.absoluteFilePath(), example_title(info.fileName()),
                        spec ? QString::fromStdString(spec->description) : QString()});
  }
  return examples;
}

}  // namespace stridescope::ui
