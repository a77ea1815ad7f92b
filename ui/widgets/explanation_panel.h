// The arithmetic behind what the views show, with the spec's own numbers
// (core/worked_arithmetic.h): how each output size follows from the spec, and
// for the selected (or hovered) output element how its source was found, the
// fold, the pooling taps and the winner's index. For a spec that is not valid,
// the rule that fails with the spec's numbers and the nearest valid value
// (core's validation words it). Links lead to the Help pages.
#pragma once

#include <optional>

#include <QString>
#include <QWidget>

#include "core/error.h"
#include "core/provenance.h"
#include "ui/evaluation.h"

class QTextBrowser;

namespace stridescope::ui {

class ExplanationPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ExplanationPanel(QWidget* parent = nullptr);

  // `provenance`, when given, is explain()'s answer for one of `evaluation`'s output elements.
  void show_explanation(const EvaluationPtr& evaluation, const std::optional<Provenance>& provenance);
  // While set, the panel explains why the spec (an `kind` of `rank` dimensions)
  // is refused instead of the last valid result; nullopt clears it.
  void set_refusal(const std::optional<Error>& refusal, OpKind kind, std::size_t rank);
  // The text shown, without markup (for tests and copying).
  QString plain_text() const;

 signals:
  // A Help page the text links to ("operators.md").
  void helpRequested(const QString& file);

 private:
  void show_refusal();

  QTextBrowser* text_;
  std::optional<Error> refusal_;
  OpKind refused_kind_ = OpKind::Identity;
  std::size_t refused_rank_ = 0;
};

}  // namespace stridescope::ui
