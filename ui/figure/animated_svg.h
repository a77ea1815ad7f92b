// An animation as one self-contained SVG file that a browser plays by
// itself, with no script: the frames the animated GIF shows (the selected
// output element stepping through the output in core/animation_order.h's
// order), each shown for 1/fps seconds, looping forever.
//
// Each frame is the figure's SVG as a still export writes it (QSvgGenerator)
// without its <svg> wrapper. What two or more frames draw alike is written
// once, as a group in <defs>, and every frame <use>s those groups in its own
// drawing order among what only it draws. The file so holds the static
// figure once plus what each frame changes, and what overlaps what stays
// exactly as in the still figure (a shared layer under per-frame overlays
// would put a frame's highlight over text the still figure draws on top).
//
// Timing is SMIL: every frame group carries one discrete <animate> of its
// `display` over the whole loop (n/fps seconds, repeatCount="indefinite"),
// shown from keyTimes i/n to (i+1)/n. All frames share one duration and the
// document's start, so they stay in step for ever, with no chain of begin
// times to drift; `display` (not `visibility`) keeps the hidden frames out
// of layout. Chromium, Firefox and Safari play SMIL, in a page, in <img> and
// in HTML slides. A renderer without SMIL (QtSvg, converters, office slide
// software) shows the first frame, which is the only one not hidden.
#pragma once

#include <QByteArray>

#include "core/error.h"
#include "ui/figure/figure.h"
#include "ui/figure/figure_export.h"

namespace stridescope::ui {

// The animation of `figure` as an SVG document (UTF-8), sized to its largest
// frame. The figure is left at its last frame. Errors if the output has no
// elements or the generator's SVG cannot be read back.
Expected<QByteArray> animated_svg(Figure& figure, const AnimationOptions& options);

}  // namespace stridescope::ui
