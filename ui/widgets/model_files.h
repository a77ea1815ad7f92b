// DxDispatch models in the app (DirectML's DxDispatch runner; the format is
// in resources/docs/cli.md): File > Open reads a model and opens one of its
// dispatches as a spec, asking which with DispatchPicker when there are
// several; File > Save As DxDispatch Model writes the current spec as a model
// that runs unchanged in DxDispatch. A model is never written over by Save:
// the document's file is then the model, and Save asks for a new file.
#pragma once

#include <QString>

#include "core/error.h"
#include "core/io/spec_file.h"

class QAction;
class QWidget;

namespace stridescope::ui {

class MainWindow;
class SpecDocument;

// Whether `path` is a regular file that reads as a DxDispatch model (it has "dispatchables").
bool is_model_file(const QString& path);

// Opens `path` into `document`: the model's only dispatch, or the one the
// person picks (a dialog over `parent`), with the input its earlier
// dispatches leave. A model StrideScope cannot run is an error naming the
// JSON path; a cancelled picker changes nothing and is no error. Without a
// `parent` nobody is there to ask: the first dispatch opens.
Status open_model(SpecDocument& document, const QString& path, QWidget* parent);

// `spec` written as a DxDispatch model (stridescope-cli code --lang
// dxdispatch), atomically; an invalid spec is refused.
Status save_model(const Spec& spec, const QString& path);

// File > Save As DxDispatch Model...: asks for a file and saves the window's
// spec there as a model. The document keeps its own file and unsaved mark:
// a model is an export, not the spec's file.
QAction* make_save_model_action(MainWindow* window);

}  // namespace stridescope::ui
