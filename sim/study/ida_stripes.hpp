#pragma once
// The curve of one record in an incremental dynamic analysis (Vamvatsikos & Cornell,
// "Incremental dynamic analysis", Earthquake Engineering and Structural Dynamics 2002): at each
// IM level (a stripe) the median of the response of the record's runs. A run that collapsed
// (a statue that overturned) has no finite demand: its post-collapse value (a block turning on
// the floor) measures nothing, so it counts as +∞, and the median of a stripe in which at least
// half the runs collapsed is +∞, the curve's flat-lining into collapse. With one run per level
// (IDA's own design) the median is that run's response; with random draws besides the record
// (several runs per level) it is the stripe's median, the curve engineers draw through them.

#include <cstdint>
#include <span>
#include <vector>

namespace routh {

/// One run of a record: its IM, its response, and whether it collapsed.
struct IdaRun {
  double im = 0.0;
  double response = 0.0;
  bool collapsed = false;
};

/// The runs of one record at one IM level.
struct IdaStripe {
  double im = 0.0;
  std::int64_t runs = 0;
  std::int64_t collapsed = 0;
  double median = 0.0;  ///< of the responses, collapsed runs as +∞ (an even count: the mean of
                        ///< the two middle values, +∞ if either is)
};

/// The stripes of a record's runs, one per distinct IM in increasing order. Throws
/// std::invalid_argument for an IM or a non-collapsed response that is not finite.
std::vector<IdaStripe> ida_stripes(std::span<const IdaRun> runs);

}  // namespace routh
