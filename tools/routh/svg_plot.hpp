#pragma once
// A small x-y chart written as SVG text, with no library: linear axes with round ticks, grid,
// lines, markers with labels, shaded bands, a collapse band and a legend. `routh fragility -o` and
// `routh ida -o` draw with it; browsers, Inkscape and documentation render the file as it is.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace routh::cli {

/// A line and/or markers through the points (x[i], y[i]).
struct PlotSeries {
  std::string label;  ///< in the legend; "" for none
  std::string color;  ///< an SVG color, "#1f77b4"
  std::vector<double> x, y;
  bool line = true;
  bool dashed = false;
  double opacity = 0.75;       ///< of the markers (faint: 0.25)
  double collapse_slot = 0.5;  ///< where across the collapse band its points at x = +∞ go, 0 to 1
  /// Marker radii [px] (one per point; empty: no markers) and the text beside each ("" none).
  std::vector<double> marker_radii;
  std::vector<std::string> marker_labels;
};

/// The region between low(x) and high(x), shaded.
struct PlotBand {
  std::string label;
  std::string color;
  std::vector<double> x, low, high;
};

struct SvgPlot {
  std::string title;
  std::string x_label;  ///< with its unit, "PGA [m/s²]"
  std::string y_label;
  std::optional<std::pair<double, double>> y_range;  ///< fixed (a probability: 0 to 1)
  std::vector<double> x_include;                     ///< values the x axis reaches besides data
  /// Non-empty: a band beyond the x axis's right end, so labelled ("overturned"), where points
  /// at x = +∞ are drawn as × (IDA's collapse); empty: such points are left out.
  std::string collapse_label;
  std::vector<PlotBand> bands;  ///< drawn first, under the series
  std::vector<PlotSeries> series;
};

/// The chart as a standalone SVG document. The axes start at 0 (or below, for negative data)
/// and end at the round tick above the data.
std::string render_svg(const SvgPlot& plot);

/// Distinct colors for series 0, 1, 2, ... (repeating after ten).
std::string series_color(std::size_t index);

}  // namespace routh::cli
