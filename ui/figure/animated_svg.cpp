#include "ui/figure/animated_svg.h"

#include <map>
#include <vector>

#include <QHash>
#include <QString>
#include <QXmlStreamReader>

namespace stridescope::ui {
namespace {

// The frames' drawing elements, each distinct text once, so that what
// frames draw alike is recognised by its id.
class ElementTable {
 public:
  // `tag`: a start or end tag of the group that wraps a frame's drawing,
  // not an element; it is written in every frame, never shared.
  int intern(const QString& text, bool tag) {
    if (const auto it = ids_.constFind(text); it != ids_.cend()) return *it;
    const int id = size();
    ids_.insert(text, id);
    texts_.push_back(text);
    tags_.push_back(tag);
    return id;
  }
  const QString& text(int id) const { return texts_[static_cast<std::size_t>(id)]; }
  bool is_tag(int id) const { return tags_[static_cast<std::size_t>(id)]; }
  int size() const { return static_cast<int>(texts_.size()); }

 private:
  QHash<QString, int> ids_;
  std::vector<QString> texts_;
  std::vector<bool> tags_;
};

struct Frames {
  ElementTable elements;
  std::vector<std::vector<int>> drawing;  // per frame, its elements' ids in drawing order
  // The generator's <defs> entries (hatching patterns and their masks), each
  // once: it names them by brush style and colour, so frames that use the
  // same one write it alike, and one copy serves every frame.
  QStringList definitions;
  QSize size;
  QColor background;
};

// Reads one frame's SVG into `frames`: its drawing elements as they stand in
// its text (so nothing is rewritten), its <defs> entries among the
// definitions. QSvgGenerator writes <title>, <desc>, <defs> and one group
// that wraps the drawing with its defaults (no fill, a black stroke); that
// group's start and end tags are kept as tags of their own, its elements
// taken one by one. Groups with no elements are dropped: the generator opens
// one on every change of pen or brush, drawn into or not.
Status read_frame(const QByteArray& svg, Frames& frames) {
  const QString text = QString::fromUtf8(svg);
  QXmlStreamReader xml(text);
  std::vector<int>& drawing = frames.drawing.back();
  int depth = 0;
  bool wrapped = false;     // inside the wrapping group
  bool defining = false;    // inside <defs>
  qsizetype start = 0;      // where the element being taken began
  bool draws = false;       // whether it draws: it is no group, or holds an element
  const auto take = [&](const QString& element) {
    if (!defining) {
      drawing.push_back(frames.elements.intern(element, false));
    } else if (!frames.definitions.contains(element)) {
      frames.definitions << element;
    }
  };
  while (!xml.atEnd()) {
    const QXmlStreamReader::TokenType token = xml.readNext();
    // The reader may have looked one character past the token, so its tag is
    // found from its end: no '<' or '>' stands unescaped inside a tag.
    const qsizetype last = static_cast<qsizetype>(xml.characterOffset()) - 1;
    const qsizetype end = text.lastIndexOf(QLatin1Char('>'), last) + 1;
    const int taken = wrapped || defining ? 3 : 2;  // the depth of the elements taken
    if (token == QXmlStreamReader::StartElement) {
      const qsizetype tag = text.lastIndexOf(QLatin1Char('<'), last);
      const QStringView name = xml.name();
      const bool self_closing = text.at(end - 2) == QLatin1Char('/');
      if (++depth == 2 && name == QLatin1String("g") && !self_closing) {
        drawing.push_back(frames.elements.intern(text.mid(tag, end - tag), true));
        wrapped = true;
      } else if (depth == 2 && name == QLatin1String("defs")) {
        defining = true;
      } else if (depth == taken) {
        start = tag;
        draws = name != QLatin1String("g") && name != QLatin1String("title") && name != QLatin1String("desc");
      } else if (depth == taken + 1) {
        draws = true;
      }
    } else if (token == QXmlStreamReader::EndElement) {
      if (depth == taken && draws) take(text.mid(start, end - start));
      if (depth == 2 && wrapped) drawing.push_back(frames.elements.intern(QStringLiteral("</g>"), true));
      if (depth-- == 2) wrapped = defining = false;
    }
  }
  if (xml.hasError()) return invalid("svg", "cannot read the generated frame back: " + xml.errorString().toStdString());
  return {};
}

Expected<Frames> draw_frames(Figure& figure, const AnimationOptions& options) {
  Frames frames;
  frames.size = QSize(0, 0);
  frames.background = figure.background();
  for (const Coord& coord : animation_frames(figure.evaluation()->op().output(), options.order, options.max_frames)) {
    figure.set_current(coord);
    frames.size = frames.size.expandedTo(figure.size());
    frames.drawing.emplace_back();
    if (Status s = read_frame(render_figure_svg(figure), frames); !s.ok()) {
      return s.error();
    }
  }
  if (frames.drawing.empty()) return invalid("--animate", "the output has no elements to animate");
  return frames;
}

// A stretch of one frame's drawing: a shared group (in <defs>) or elements only this frame draws.
struct Piece {
  int group = -1;  // the shared group, or -1
  std::vector<int> elements;
};

struct Layout {
  std::vector<std::vector<int>> groups;  // each shared group's elements
  std::vector<std::vector<Piece>> frames;
};

// Which element follows each element in every frame that draws it, and which
// precedes it: -1 where that differs between frames or the drawing ends.
struct Neighbours {
  std::vector<int> next;
  std::vector<int> previous;
  std::vector<int> frames;  // how many frames draw each element
};

Neighbours neighbours(const Frames& frames) {
  const std::size_t count = static_cast<std::size_t>(frames.elements.size());
  constexpr int kUnseen = -2;
  Neighbours n{std::vector<int>(count, kUnseen), std::vector<int>(count, kUnseen), std::vector<int>(count, 0)};
  std::vector<int> last_frame(count, -1);
  const auto agree = [](int& slot, int value) { slot = slot == kUnseen || slot == value ? value : -1; };
  for (int f = 0; f < static_cast<int>(frames.drawing.size()); ++f) {
    const std::vector<int>& drawing = frames.drawing[static_cast<std::size_t>(f)];
    for (std::size_t i = 0; i < drawing.size(); ++i) {
      const std::size_t id = static_cast<std::size_t>(drawing[i]);
      agree(n.next[id], i + 1 < drawing.size() ? drawing[i + 1] : -1);
      agree(n.previous[id], i > 0 ? drawing[i - 1] : -1);
      if (last_frame[id] != f) ++n.frames[id];
      last_frame[id] = f;
    }
  }
  return n;
}

// Cuts every frame's drawing into stretches that every frame drawing one of
// their elements draws whole, in the same order: two neighbours stay together
// only when, wherever either is drawn, the other is drawn beside it. A
// stretch of two or more frames becomes one shared group, placed in each
// frame's own order, so every frame's drawing is exactly its own.
Layout share_common_stretches(const Frames& frames) {
  const Neighbours n = neighbours(frames);
  const auto together = [&](int a, int b) {
    return !frames.elements.is_tag(a) && !frames.elements.is_tag(b) && n.next[static_cast<std::size_t>(a)] == b &&
           n.previous[static_cast<std::size_t>(b)] == a;
  };
  Layout layout;
  std::map<std::vector<int>, int> group_of;
  for (const std::vector<int>& drawing : frames.drawing) {
    std::vector<Piece>& pieces = layout.frames.emplace_back();
    for (std::size_t i = 0; i < drawing.size();) {
      std::size_t end = i + 1;
      while (end < drawing.size() && together(drawing[end - 1], drawing[end])) ++end;
      std::vector<int> stretch(drawing.begin() + static_cast<std::ptrdiff_t>(i),
                               drawing.begin() + static_cast<std::ptrdiff_t>(end));
      if (!frames.elements.is_tag(drawing[i]) && n.frames[static_cast<std::size_t>(drawing[i])] >= 2) {
        const auto [it, added] = group_of.try_emplace(stretch, static_cast<int>(layout.groups.size()));
        if (added) layout.groups.push_back(stretch);
        pieces.push_back(Piece{it->second, {}});
      } else {
        pieces.push_back(Piece{-1, std::move(stretch)});
      }
      i = end;
    }
  }
  return layout;
}

// Decimal text for SVG attributes: no exponent, no trailing zeros.
QString number(double value) {
  QString text = QString::number(value, 'f', 6);
  while (text.endsWith(QLatin1Char('0'))) text.chop(1);
  if (text.endsWith(QLatin1Char('.'))) text.chop(1);
  return text;
}

// Frame `index` of `count` shown from index/count to (index+1)/count of the
// loop, hidden the rest: discrete, so each value holds until the next key time.
QString frame_animation(int index, int count, double fps) {
  QStringList values;
  QStringList times;
  if (index > 0) {
    values << QStringLiteral("none");
    times << QStringLiteral("0");
  }
  values << QStringLiteral("inline");
  times << number(double(index) / count);
  if (index + 1 < count) {
    values << QStringLiteral("none");
    times << number(double(index + 1) / count);
  }
  return QStringLiteral("<animate attributeName=\"display\" calcMode=\"discrete\" begin=\"0s\" dur=\"%1s\" "
                        "repeatCount=\"indefinite\" keyTimes=\"%2\" values=\"%3\"/>\n")
      .arg(number(count / fps), times.join(QLatin1Char(';')), values.join(QLatin1Char(';')));
}

void write_frame(QString& out, int index, const std::vector<Piece>& pieces, const Frames& frames, double fps) {
  const int count = static_cast<int>(frames.drawing.size());
  // The first frame is the one shown where SMIL is not played.
  const QString hidden = index == 0 ? QString() : QStringLiteral(" display=\"none\"");
  out += QStringLiteral("<g id=\"frame%1\"%2>\n").arg(index).arg(hidden);
  if (count > 1) out += frame_animation(index, count, fps);
  for (const Piece& piece : pieces) {
    if (piece.group >= 0) {
      out += QStringLiteral("<use xlink:href=\"#shared%1\"/>\n").arg(piece.group);
      continue;
    }
    for (const int id : piece.elements) out += frames.elements.text(id) + QLatin1Char('\n');
  }
  out += QStringLiteral("</g>\n");
}

QString document(const Frames& frames, const Layout& layout, const QString& title, double fps) {
  const int count = static_cast<int>(frames.drawing.size());
  const QString w = QString::number(frames.size.width());
  const QString h = QString::number(frames.size.height());
  QString out = QStringLiteral(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                    "version=\"1.1\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\">\n"
                    "<title>%3</title>\n<desc>%4 frames at %5 frames a second, looping (SMIL)</desc>\n<defs>\n")
                    .arg(w, h, title.toHtmlEscaped(), QString::number(count), number(fps));
  for (const QString& definition : frames.definitions) out += definition + QLatin1Char('\n');
  for (std::size_t g = 0; g < layout.groups.size(); ++g) {
    out += QStringLiteral("<g id=\"shared%1\">\n").arg(g);
    for (const int id : layout.groups[g]) out += frames.elements.text(id) + QLatin1Char('\n');
    out += QStringLiteral("</g>\n");
  }
  // Under every frame, in case one is smaller than the largest.
  out += QStringLiteral("</defs>\n<rect width=\"%1\" height=\"%2\" fill=\"%3\"/>\n")
             .arg(w, h, frames.background.name());
  for (int f = 0; f < count; ++f) write_frame(out, f, layout.frames[static_cast<std::size_t>(f)], frames, fps);
  out += QStringLiteral("</svg>\n");
  return out;
}

}  // namespace

Expected<QByteArray> animated_svg(Figure& figure, const AnimationOptions& options) {
  if (Status s = check_animation_options(options); !s.ok()) return s.error();
  Expected<Frames> frames = draw_frames(figure, options);
  if (!frames) return frames.error();
  const QString title =
      figure.options().title.isEmpty() ? QStringLiteral("StrideScope animation") : figure.options().title;
  return document(*frames, share_common_stretches(*frames), title, options.fps).toUtf8();
}

}  // namespace stridescope::ui
