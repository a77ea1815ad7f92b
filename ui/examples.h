// The example spec files (resources/examples/*.json, every DirectML worked
// example). Looked for in the source tree this build came from, then next to
// the executable (examples/ or ../share/stridescope/examples/).
#pragma once

#include <QString>
#include <QStringList>

namespace stridescope::ui {

struct Example {
  QString path;
  QString title;  // "slice1 example 2 negative strides" from the file name
  QString description;  // the spec's one-line "description", if it has one
};

// The first folder that exists, or empty.
QString examples_directory();
// Sorted by file name.
QList<Example> list_examples(const QString& directory = examples_directory());
// Whether `path` is one of the bundled examples (a file in `directory`), which
// the app never overwrites.
bool is_bundled_example(const QString& path, const QString& directory = examples_directory());
// "slice1_example2_negative_strides.json" -> "slice1 example2 negative strides".
QString example_title(const QString& file_name);

}  // namespace stridescope::ui
