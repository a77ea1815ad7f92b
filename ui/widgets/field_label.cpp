#include "ui/widgets/field_label.h"

#include <QObject>

#include "ui/text_format.h"
#include "ui/widgets/spec_form_part.h"

namespace stridescope::ui {

std::size_t param_dimension(ParamExtent extent, std::size_t i) {
  return extent == ParamExtent::PerSpatialDimension ? i + 2 : i;
}

QString field_label(OpKind kind, std::size_t rank, const QString& path) {
  const QString base = path.section(QLatin1Char('['), 0, 0);
  bool has_index = false;
  const int index = path.section(QLatin1Char('['), 1).section(QLatin1Char(']'), 0, 0).toInt(&has_index);
  const QString group = base.section(QLatin1Char('.'), 0, 0);
  const QString field = base.section(QLatin1Char('.'), 1);
  auto dim = [&](std::size_t d) { return QObject::tr(", dim %1").arg(dimension_name(rank, d)); };
  if (group == QLatin1String("params")) {
    const ParamField* param = find_param(kind, field.toStdString());
    if (!param) return {};
    if (!has_index || !param->is_array()) return q(param->label);
    return q(param->label) + dim(param_dimension(param->extent, static_cast<std::size_t>(index)));
  }
  const QString tensor = group == QLatin1String("input")           ? QObject::tr("Input")
                         : group == QLatin1String("output")        ? QObject::tr("Output")
                         : group == QLatin1String("outputIndices") ? QObject::tr("Indices")
                                                                   : QString();
  if (tensor.isEmpty()) return {};
  if (field == QLatin1String("sizes")) {
    return has_index ? tensor + QObject::tr(" size") + dim(index) : tensor + QObject::tr(" sizes");
  }
  if (field == QLatin1String("strides")) {
    return has_index ? tensor + QObject::tr(" stride") + dim(index) : tensor + QObject::tr(" strides");
  }
  if (field == QLatin1String("dataType")) return tensor + QObject::tr(" data type");
  if (field == QLatin1String("data")) return has_index ? QObject::tr("Values, element %1").arg(index) : QObject::tr("Values");
  if (field.startsWith(QLatin1String("fill")) || field == QLatin1String("npy")) return QObject::tr("Values");
  return {};
}

}  // namespace stridescope::ui
