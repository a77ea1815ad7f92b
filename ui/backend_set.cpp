#include "ui/backend_set.h"

namespace stridescope::ui {

QString backend_label(std::string_view name, const std::string& device_name) {
  if (name == "cpu") return QStringLiteral("CPU");
  if (name == "cpu-reference") return QStringLiteral("CPU reference");
  QString pretty = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
  pretty.replace(QLatin1Char('_'), QLatin1Char(' '));
  if (!pretty.isEmpty()) pretty[0] = pretty[0].toUpper();
  if (device_name.empty()) return pretty;
  return QStringLiteral("%1 (%2)").arg(pretty, QString::fromStdString(device_name));
}

BackendSet BackendSet::create(const std::vector<std::string>& names, const BackendFactory& factory) {
  BackendSet set;
  for (const std::string& name : names) {
    Expected<std::unique_ptr<Backend>> made = factory(name);
    if (made) {
      // Named as asked, so a set can hold two backends of one kind.
      set.add(std::move(made.value()), name);
      continue;
    }
    BackendInfo info;
    info.name = name;
    info.label = backend_label(name, {});
    info.available = false;
    info.unavailable_reason = QString::fromStdString(made.error().to_string());
    set.infos_.push_back(std::move(info));
    set.backends_.push_back(nullptr);
  }
  return set;
}

void BackendSet::add(std::unique_ptr<Backend> backend, std::optional<std::string> name) {
  BackendInfo info;
  info.name = name ? *name : std::string(backend->name());
  info.label = backend_label(info.name, backend->device_name());
  info.available = true;
  infos_.push_back(std::move(info));
  backends_.push_back(std::move(backend));
}

Backend* BackendSet::find(std::string_view name) const {
  for (std::size_t i = 0; i < infos_.size(); ++i) {
    if (infos_[i].name == name) return backends_[i].get();
  }
  return nullptr;
}

const BackendInfo& BackendSet::info_of(const Backend& backend) const {
  std::size_t i = 0;
  while (i + 1 < backends_.size() && backends_[i].get() != &backend) ++i;
  return infos_[i];
}

std::vector<Backend*> BackendSet::available() const {
  std::vector<Backend*> result;
  for (const auto& backend : backends_) {
    if (backend) result.push_back(backend.get());
  }
  return result;
}

}  // namespace stridescope::ui
