// A file name as Qt hands it over (a QString from a dialog, the settings or
// the command line) turned into the std::filesystem::path that core's file
// functions take: UTF-8, the encoding Qt uses for file names on Linux.
#pragma once

#include <filesystem>

#include <QString>

namespace stridescope::ui {

inline std::filesystem::path to_path(const QString& path) { return std::filesystem::path(path.toStdString()); }

}  // namespace stridescope::ui
