#include "tools/routh/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string_view>

#include "sim/text.hpp"

namespace routh::cli {

namespace {

// The page and the plotting area inside it [px].
constexpr double kWidth = 720.0;
constexpr double kHeight = 460.0;
constexpr double kLeft = 78.0;
constexpr double kRight = 200.0;  // room for the legend
constexpr double kTop = 44.0;
constexpr double kBottom = 58.0;
constexpr double kCollapseWidth = 72.0;  // the collapse band beyond the x axis
constexpr double kCollapseGap = 6.0;     // between the axis and the band, and inside it
constexpr int kTargetTicks = 6;

// An axis from 0 (or the data's negative end) to the round tick above the data.
struct Axis {
  double low = 0.0;
  double high = 1.0;
  double step = 0.2;
};

// The round step (1, 2 or 5 × 10^k) giving about kTargetTicks intervals over `span`.
double round_step(double span) {
  const double raw = span / kTargetTicks;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (factor * decade >= raw) return factor * decade;
  }
  return 10.0 * decade;
}

Axis axis_for(double data_low, double data_high,
              const std::optional<std::pair<double, double>>& fixed) {
  if (fixed) return {fixed->first, fixed->second, round_step(fixed->second - fixed->first)};
  double low = std::min(0.0, data_low);
  double high = data_high;
  if (!(high > low)) high = low + 1.0;
  const double step = round_step(high - low);
  low = step * std::floor(low / step);
  high = step * std::ceil(high / step);
  return {low, high, step};
}

std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A tick's label with the decimals of the step (a 1, 2 or 5 × 10^k): "0.4", "0.05", "20".
std::string tick_text(double value, double step) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9))));
  out << (std::abs(value) < 1e-9 * step ? 0.0 : value);
  return out.str();
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

// Data to page coordinates; x = +∞ is in the collapse band, when there is one.
class Page {
 public:
  Page(const Axis& x, const Axis& y, bool collapse_band)
      : x_(x), y_(y), collapse_band_(collapse_band) {}
  double right() const { return kWidth - kRight - (collapse_band_ ? kCollapseWidth : 0.0); }
  // x = +∞ at `slot` (0 to 1) across the collapse band.
  double px(double x, double slot = 0.5) const {
    if (x == HUGE_VAL) return right() + kCollapseGap + slot * (kCollapseWidth - 2 * kCollapseGap);
    return kLeft + (x - x_.low) / (x_.high - x_.low) * (right() - kLeft);
  }
  double py(double y) const {
    return kHeight - kBottom - (y - y_.low) / (y_.high - y_.low) * (kHeight - kTop - kBottom);
  }
  bool inside(double x, double y) const {
    const bool in_x =
        (std::isfinite(x) && x >= x_.low && x <= x_.high) || (collapse_band_ && x == HUGE_VAL);
    return in_x && std::isfinite(y) && y >= y_.low && y <= y_.high;
  }

 private:
  Axis x_, y_;
  bool collapse_band_;
};

void draw_axes(std::ostringstream& svg, const SvgPlot& plot, const Axis& x, const Axis& y,
               const Page& page) {
  const double left = kLeft, right = page.right(), top = kTop, bottom = kHeight - kBottom;
  svg << "<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
  for (double t = x.low; t <= x.high + 1e-9 * x.step; t += x.step) {
    svg << "<line x1=\"" << number(page.px(t)) << "\" y1=\"" << top << "\" x2=\""
        << number(page.px(t)) << "\" y2=\"" << bottom << "\"/>\n";
  }
  for (double t = y.low; t <= y.high + 1e-9 * y.step; t += y.step) {
    svg << "<line x1=\"" << left << "\" y1=\"" << number(page.py(t)) << "\" x2=\"" << right
        << "\" y2=\"" << number(page.py(t)) << "\"/>\n";
  }
  svg << "</g>\n<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left
      << "\" height=\"" << bottom - top << "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg << "<g font-size=\"12\" fill=\"#333\">\n";
  for (double t = x.low; t <= x.high + 1e-9 * x.step; t += x.step) {
    svg << "<line x1=\"" << number(page.px(t)) << "\" y1=\"" << bottom << "\" x2=\""
        << number(page.px(t)) << "\" y2=\"" << bottom + 5 << "\" stroke=\"#333\"/>"
        << "<text x=\"" << number(page.px(t)) << "\" y=\"" << bottom + 19
        << "\" text-anchor=\"middle\">" << tick_text(t, x.step) << "</text>\n";
  }
  for (double t = y.low; t <= y.high + 1e-9 * y.step; t += y.step) {
    svg << "<line x1=\"" << left - 5 << "\" y1=\"" << number(page.py(t)) << "\" x2=\"" << left
        << "\" y2=\"" << number(page.py(t)) << "\" stroke=\"#333\"/>"
        << "<text x=\"" << left - 8 << "\" y=\"" << number(page.py(t) + 4)
        << "\" text-anchor=\"end\">" << tick_text(t, y.step) << "</text>\n";
  }
  svg << "</g>\n<g font-size=\"14\" fill=\"#111\">\n"
      << "<text x=\"" << (left + right) / 2 << "\" y=\"" << kHeight - 14
      << "\" text-anchor=\"middle\">" << escaped(plot.x_label) << "</text>\n"
      << "<text transform=\"translate(20," << (top + bottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escaped(plot.y_label) << "</text>\n"
      << "<text x=\"" << (left + right) / 2 << "\" y=\"" << top - 16
      << "\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" << escaped(plot.title)
      << "</text>\n</g>\n";
}

// The band beyond the x axis where collapsed runs are drawn, with its label at the top.
void draw_collapse_band(std::ostringstream& svg, const SvgPlot& plot, const Page& page) {
  const double left = page.right() + kCollapseGap, top = kTop, bottom = kHeight - kBottom;
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << kCollapseWidth - kCollapseGap
      << "\" height=\"" << bottom - top
      << "\" fill=\"#d62728\" fill-opacity=\"0.08\" stroke=\"#999\" stroke-dasharray=\"3 3\"/>\n"
      << "<text x=\"" << number(left + 0.5 * (kCollapseWidth - kCollapseGap)) << "\" y=\""
      << top - 5 << "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">"
      << escaped(plot.collapse_label) << "</text>\n";
}

void draw_band(std::ostringstream& svg, const PlotBand& band, const Page& page) {
  svg << "<polygon fill=\"" << band.color << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"";
  const auto corner = [&](std::size_t i, double y) {
    if (page.inside(band.x[i], y))
      svg << number(page.px(band.x[i])) << ',' << number(page.py(y)) << ' ';
  };
  for (std::size_t i = 0; i < band.x.size(); ++i) corner(i, band.high[i]);
  for (std::size_t i = band.x.size(); i-- > 0;) corner(i, band.low[i]);
  svg << "\"/>\n";
}

void draw_series(std::ostringstream& svg, const PlotSeries& series, const Page& page) {
  if (series.line && series.x.size() > 1) {
    // polylines through the points inside, broken where the curve stays collapsed (from x = +∞
    // to x = +∞: it is in the band, not moving in it)
    std::vector<std::string> pieces(1);
    for (std::size_t i = 0; i < series.x.size(); ++i) {
      const bool stays = i > 0 && std::isinf(series.x[i]) && std::isinf(series.x[i - 1]);
      if (!page.inside(series.x[i], series.y[i]) || stays) pieces.emplace_back();
      if (!page.inside(series.x[i], series.y[i])) continue;
      pieces.back() += cat(number(page.px(series.x[i], series.collapse_slot)), ',',
                           number(page.py(series.y[i])), ' ');
    }
    for (const std::string& points : pieces) {
      if (std::count(points.begin(), points.end(), ' ') < 2) continue;  // a lone point
      svg << "<polyline fill=\"none\" stroke=\"" << series.color << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"" << points
          << "\"/>\n";
    }
  }
  for (std::size_t i = 0; i < series.marker_radii.size() && i < series.x.size(); ++i) {
    if (!page.inside(series.x[i], series.y[i])) continue;
    const double cx = page.px(series.x[i], series.collapse_slot), cy = page.py(series.y[i]);
    const double r = series.marker_radii[i];
    if (std::isinf(series.x[i])) {  // a collapse: a ×
      svg << "<path d=\"M" << number(cx - r) << ',' << number(cy - r) << " l" << number(2 * r)
          << ',' << number(2 * r) << " m0," << number(-2 * r) << " l" << number(-2 * r) << ','
          << number(2 * r) << "\" stroke=\"" << series.color << "\" stroke-opacity=\""
          << number(series.opacity) << "\" stroke-width=\"2\" fill=\"none\"/>\n";
    } else {
      svg << "<circle cx=\"" << number(cx) << "\" cy=\"" << number(cy) << "\" r=\"" << number(r)
          << "\" fill=\"" << series.color << "\" fill-opacity=\"" << number(series.opacity)
          << "\" stroke=\"#fff\" stroke-width=\"1\" stroke-opacity=\"" << number(series.opacity)
          << "\"/>\n";
    }
    if (i < series.marker_labels.size() && !series.marker_labels[i].empty()) {
      svg << "<text x=\"" << number(cx + series.marker_radii[i] + 3) << "\" y=\""
          << number(cy - series.marker_radii[i] - 2) << "\" font-size=\"10\" fill=\"#444\">"
          << escaped(series.marker_labels[i]) << "</text>\n";
    }
  }
}

void draw_legend(std::ostringstream& svg, const SvgPlot& plot) {
  double y = kTop + 10;
  const double x = kWidth - kRight + 16;
  svg << "<g font-size=\"12\" fill=\"#222\">\n";
  for (const PlotBand& band : plot.bands) {
    if (band.label.empty()) continue;
    svg << "<rect x=\"" << x << "\" y=\"" << y - 6 << "\" width=\"22\" height=\"12\" fill=\""
        << band.color << "\" fill-opacity=\"0.18\"/><text x=\"" << x + 28 << "\" y=\"" << y + 4
        << "\">" << escaped(band.label) << "</text>\n";
    y += 20;
  }
  for (const PlotSeries& series : plot.series) {
    if (series.label.empty()) continue;
    if (series.line) {
      svg << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << x + 22 << "\" y2=\"" << y
          << "\" stroke=\"" << series.color << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>";
    }
    if (!series.marker_radii.empty()) {
      svg << "<circle cx=\"" << x + 11 << "\" cy=\"" << y << "\" r=\"4\" fill=\"" << series.color
          << "\"/>";
    }
    svg << "<text x=\"" << x + 28 << "\" y=\"" << y + 4 << "\">" << escaped(series.label)
        << "</text>\n";
    y += 20;
  }
  svg << "</g>\n";
}

}  // namespace

std::string series_color(std::size_t index) {
  static constexpr std::array<const char*, 10> kColors = {
      "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return kColors[index % kColors.size()];
}

std::string render_svg(const SvgPlot& plot) {
  double x_low = HUGE_VAL, x_high = -HUGE_VAL, y_low = HUGE_VAL, y_high = -HUGE_VAL;
  const auto extend = [&](const std::vector<double>& xs, const std::vector<double>& ys) {
    for (std::size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
      const bool collapsed = !plot.collapse_label.empty() && xs[i] == HUGE_VAL;  // in the band
      if (!(std::isfinite(xs[i]) || collapsed) || !std::isfinite(ys[i])) continue;
      if (!collapsed) x_low = std::min(x_low, xs[i]), x_high = std::max(x_high, xs[i]);
      y_low = std::min(y_low, ys[i]), y_high = std::max(y_high, ys[i]);
    }
  };
  for (const PlotSeries& series : plot.series) extend(series.x, series.y);
  for (const double x : plot.x_include) x_low = std::min(x_low, x), x_high = std::max(x_high, x);
  for (const PlotBand& band : plot.bands) extend(band.x, band.high);
  if (!(x_high >= x_low)) x_low = 0.0, x_high = 1.0;
  if (!(y_high >= y_low)) y_low = 0.0, y_high = 1.0;
  const Axis x = axis_for(x_low, x_high, std::nullopt);
  const Axis y = axis_for(y_low, y_high, plot.y_range);
  const Page page(x, y, !plot.collapse_label.empty());
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << ' ' << kHeight
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  draw_axes(svg, plot, x, y, page);
  if (!plot.collapse_label.empty()) draw_collapse_band(svg, plot, page);
  for (const PlotBand& band : plot.bands) draw_band(svg, band, page);
  for (const PlotSeries& series : plot.series) draw_series(svg, series, page);
  draw_legend(svg, plot);
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace routh::cli
