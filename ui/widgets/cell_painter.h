// The cell painting the views share with figures lives in ui/figure (Qt Gui
// only, so `stridescope-cli render` draws the same cells without widgets).
#pragma once

#include "ui/figure/cell_painter.h"
