// Colours the app paints with, chosen so that they stay distinguishable for
// colour-blind readers:
//   - values: perceptually uniform sequential maps (viridis, cividis);
//   - overlay categories: the Okabe-Ito palette, never hue alone (the views
//     also differ by line style, hatching or a glyph per category).
#pragma once

#include <QColor>
#include <QString>

namespace stridescope::ui {

enum class ValuePalette { Viridis, Cividis };

QString to_display_string(ValuePalette palette);

// `t` in [0, 1] (clamped); NaN maps to a neutral grey.
QRgb palette_rgb(ValuePalette palette, double t);

// Black or white, whichever reads better on `background`.
QColor text_colour_on(QColor background);

// `colour` washed toward `toward` by `amount` in [0, 1].
QRgb blend(QRgb colour, QRgb toward, double amount);

// Okabe & Ito (2008), "Color Universal Design".
namespace okabe_ito {
inline constexpr QRgb kBlack = 0xff000000;
inline constexpr QRgb kOrange = 0xffe69f00;
inline constexpr QRgb kSkyBlue = 0xff56b4e9;
inline constexpr QRgb kBluishGreen = 0xff009e73;
inline constexpr QRgb kYellow = 0xfff0e442;
inline constexpr QRgb kBlue = 0xff0072b2;
inline constexpr QRgb kVermillion = 0xffd55e00;
inline constexpr QRgb kReddishPurple = 0xffcc79a7;
}  // namespace okabe_ito

// What each overlay means; the legend and the views share these.
enum class OverlayCategory {
  Window,        // slice/slice1 input window; pooling window of the selected element
  Source,        // the input element(s) the selected output element reads
  Selected,      // the selected output element
  Reader,        // output elements that read the hovered input element
  Winner,        // max_pooling2 winner
  PaddedTap,     // max_pooling2 window tap that lies in padding
  PadConstant,   // output padding region, CONSTANT
  PadEdge,       // output padding region, EDGE
  PadReflection, // output padding region, REFLECTION
  PadSymmetric,  // output padding region, SYMMETRIC
  CopiedInput,   // padding: where the input itself lies in the output
  Unused,        // input elements the op never reads / buffer gaps
  Shared,        // buffer elements used by several logical elements (broadcast)
  Differs,       // compare: the backends disagree here
};

QColor overlay_colour(OverlayCategory category);
QString overlay_name(OverlayCategory category);
QString overlay_description(OverlayCategory category);

}  // namespace stridescope::ui
