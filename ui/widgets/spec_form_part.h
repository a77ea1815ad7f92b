// What the parts of the spec editor (operator picker, tensor forms, input
// values, parameter table) share: the host they edit the spec through, and
// the small field helpers each of them builds its rows with. Every field
// widget is named by its spec path ("input.sizes[2]"), so the editor finds
// the widget an Error is about by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "core/error.h"
#include "core/io/spec_file.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QWidget;

namespace stridescope::ui {

// The editor that holds the parts. A part reads the spec and proposes the
// next one; the host applies it as one undoable edit (and ignores edits
// while it is writing the spec into the widgets).
class SpecFormHost {
 public:
  virtual const Spec& spec() const = 0;
  virtual void edit(Spec next, const QString& text, const QString& merge_key = {}) = 0;
  // An integer field by spec path ("params.windowSize[0]"), typed by a person.
  virtual void edit_int(const QString& path, int value) = 0;
  // The person finished editing a field (Enter, or focus left it): the
  // field's next edit is a new undo step.
  virtual void end_field_edit() = 0;
  // An error the form found before the core could (text that is no number).
  virtual void set_local_error(std::optional<Error> error) = 0;
  // True while the host writes the spec into the widgets: their signals then
  // echo the spec rather than edit it.
  virtual bool syncing() const = 0;

 protected:
  ~SpecFormHost() = default;
};

QString q(const std::string& s);
QString q(std::string_view s);

// A spin box for the integer field at `path`; typing edits it through `host`.
QSpinBox* make_int_field(SpecFormHost* host, const QString& path, int minimum, QWidget* parent);
// Sets without emitting edits; values beyond the box's range are clamped.
void set_spin(QSpinBox* spin, int64_t value);
// Selects the item holding `item_data` (the first when none does) silently.
void set_combo(QComboBox* combo, int item_data);
QLabel* header_label(const QString& text, QWidget* parent, const QString& tip = {});

// Removes a grid's widgets. Deferred, because the edit that changed the
// form's shape may still be inside one of their signals; renamed at once, so
// field lookups by spec path find only the new ones.
void clear_children(QWidget* container);

// The output sizes: given, or what the op determines; nullopt while the
// spec cannot say.
std::optional<std::vector<uint64_t>> output_sizes_of(const Spec& spec);

}  // namespace stridescope::ui
