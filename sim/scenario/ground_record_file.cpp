#include "sim/scenario/ground_record_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/scenario/record_text.hpp"
#include "sim/text.hpp"

namespace routh {

using namespace record_text;

namespace {

constexpr std::string_view kCapReason = "(routh's cap, to bound the memory)";

// The unit a header states, and where, for the error when `units:` contradicts it.
struct StatedUnits {
  RecordUnits units = RecordUnits::m_s2;
  InputLocation where;
};

// A record as its file holds it: the accelerations in the file's own unit, which the header
// states (two-column files state none).
struct FileRecord {
  GroundRecord samples;
  std::optional<StatedUnits> stated;
};

InputLocation location_of(const LineReader& reader, const Line& line, std::size_t column) {
  return {reader.path(), line.number, static_cast<int>(column) + 1};
}

// A header's sample count: a whole number in [2, kMaxRecordSamples].
std::size_t checked_sample_count(const LineReader& reader, const Line& line, std::size_t column,
                                 std::string_view name, double count) {
  if (count < 2.0 || count != std::floor(count)) {
    throw reader.error(line, column,
                       cat(name, " = ", count, ": must be a whole number of at least 2"));
  }
  if (count > static_cast<double>(kMaxRecordSamples)) {
    throw reader.error(line, column,
                       cat(name, " = ", count, ": records of more than ", kMaxRecordSamples,
                           " samples are refused ", kCapReason));
  }
  return static_cast<std::size_t>(count);
}

// The longest time step a record may have [s]: strong-motion records sample at 50 Hz or more, and
// the bound keeps every sample time i · step, i < kMaxRecordSamples, far from overflowing.
constexpr double kMaxRecordStep_s = 10.0;

// A header's time step, in (0, kMaxRecordStep_s] [s].
double checked_step(const LineReader& reader, const Line& line, std::size_t column,
                    std::string_view name, double step_s) {
  if (!(step_s > 0.0)) {
    throw reader.error(line, column, cat(name, " = ", step_s, " s: must be > 0"));
  }
  if (step_s > kMaxRecordStep_s) {
    throw reader.error(line, column,
                       cat(name, " = ", step_s, " s: must be at most ", kMaxRecordStep_s,
                           " s (a record samples at 0.1 Hz or more)"));
  }
  return step_s;
}

// Samples i = 0, 1, ... at t = i · step.
GroundRecord evenly_sampled(std::vector<double> values, double step_s) {
  GroundRecord record;
  record.time_s.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    record.time_s[i] = static_cast<double>(i) * step_s;
  }
  record.acceleration_m_s2 = std::move(values);
  return record;
}

// How many values a block holds: exactly the count its header states under `name` ("NPTS"), or,
// when the header states none, all the file holds, at most kMaxRecordSamples.
struct BlockCount {
  std::optional<std::size_t> count;
  std::string_view name;
};

// The values of a block, blank separated, from the reader's next non-blank lines (`first` already
// read, when given): any number on a line when `per_line` is 0, else `per_line` on each line but
// the last, which may hold fewer.
std::vector<double> read_token_block(LineReader& reader, std::optional<Line> first,
                                     const BlockCount& block, std::size_t per_line,
                                     std::string_view what, bool integers) {
  const std::size_t count = block.count.value_or(kMaxRecordSamples);
  std::vector<double> values;
  values.reserve(std::min<std::size_t>(count, 1 << 16));  // grows with what the file holds
  std::optional<Line> short_line;  // a line with fewer than per_line values: it must be the last
  for (std::optional<Line> line = first ? std::move(first) : reader.next(); line;
       line = reader.next()) {
    const std::vector<Token> tokens = tokens_of(line->text, false);
    if (tokens.empty()) continue;
    if (short_line) {
      throw reader.error(*short_line, 0,
                         cat("expected ", per_line, " values on this line (", per_line,
                             " per line; only the last line holds fewer)"));
    }
    for (const Token& token : tokens) {
      const double value = number_or_error(reader, *line, token, what);
      if (integers && value != std::floor(value)) {
        throw reader.error(*line, token.column,
                           cat("expected ", what, ", found '", token.text, "'"));
      }
      if (values.size() == count) {
        throw reader.error(
            *line, token.column,
            block.count ? cat("more values than ", block.name, " = ", count, " in the header")
                        : cat("records of more than ", count, " samples are refused ", kCapReason));
      }
      values.push_back(value);
    }
    if (per_line > 0 && tokens.size() > per_line) {
      throw reader.error(*line, tokens[per_line].column,
                         cat("more than ", per_line, " values on this line"));
    }
    if (per_line > 0 && tokens.size() < per_line) short_line = line;
  }
  if (block.count && values.size() < count) {
    throw reader.error_at_end(cat("truncated: the header says ", block.name, " = ", count,
                                  " but the file holds ", values.size(), " values"));
  }
  return values;
}

std::string acceleration_in(RecordUnits units) {
  return cat("an acceleration [", to_string(units), "]");
}

// --- PEER NGA -------------------------------------------------------------------------------

struct PeerHeader {
  std::size_t samples = 0;  // NPTS
  double step_s = 0.0;      // DT [s]
  StatedUnits units;
};

constexpr std::string_view kPeerHeaderForm =
    "expected the PEER NGA header's 4th line, 'NPTS=  2688, DT=   .0100 SEC' (or the older "
    "'2688   .0100   NPTS, DT')";

// The number that follows `key` ("NPTS=", "DT=") on the line, with blanks between.
std::optional<double> value_after(std::string_view line, std::string_view key) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + key.size());
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  const std::size_t end = rest.find_first_of(", \t");
  return number_of(rest.substr(0, end));
}

// The unit on the third line, "... IN UNITS OF G" or "... IN UNITS OF CM/SEC/SEC"; a velocity
// or displacement series is refused.
StatedUnits read_peer_units(const LineReader& reader, const Line& line) {
  const std::string text = upper(line.text);
  constexpr std::string_view kUnitsOf = "UNITS OF";
  const std::size_t at = text.find(kUnitsOf);
  if (at != std::string::npos && text.find("VELOCITY") == std::string::npos &&
      text.find("DISPLACEMENT") == std::string::npos) {
    const std::size_t after = at + kUnitsOf.size();
    const std::vector<Token> tokens = tokens_of(std::string_view(text).substr(after), false);
    if (!tokens.empty()) {
      if (const std::optional<RecordUnits> units = units_named(tokens.front().text)) {
        return {*units, location_of(reader, line, after + tokens.front().column)};
      }
    }
  }
  throw reader.error(line, 0,
                     "expected the PEER NGA header's 3rd line to state the accelerations' unit, "
                     "'UNITS OF G' or 'UNITS OF CM/SEC/SEC' (e.g. 'ACCELERATION TIME SERIES IN "
                     "UNITS OF G')");
}

PeerHeader read_peer_header(LineReader& reader) {
  std::optional<Line> line;
  StatedUnits units;
  for (int header_line = 1; header_line <= 4; ++header_line) {
    line = reader.next();
    if (!line) {
      throw reader.error_at_end(
          cat("truncated PEER NGA header: it has ", header_line - 1, " of its 4 lines"));
    }
    if (header_line == 3) units = read_peer_units(reader, *line);
  }
  const std::string text = upper(line->text);
  std::optional<double> samples, step;
  if (text.find("NPTS=") != std::string::npos) {
    samples = value_after(text, "NPTS=");
    step = value_after(text, "DT=");
  } else if (text.find("NPTS, DT") != std::string::npos ||
             text.find("NPTS,DT") != std::string::npos) {
    const std::vector<Token> tokens = tokens_of(text, true);
    if (tokens.size() >= 2) {
      samples = number_of(tokens[0].text);
      step = number_of(tokens[1].text);
    }
  }
  if (!samples || !step) throw reader.error(*line, 0, kPeerHeaderForm);
  return {checked_sample_count(reader, *line, 0, "NPTS", *samples),
          checked_step(reader, *line, 0, "DT", *step), units};
}

FileRecord read_peer_record(LineReader& reader) {
  const PeerHeader header = read_peer_header(reader);
  std::vector<double> values = read_token_block(reader, std::nullopt, {header.samples, "NPTS"}, 0,
                                                acceleration_in(header.units.units), false);
  return {evenly_sampled(std::move(values), header.step_s), header.units};
}

// --- ESM ------------------------------------------------------------------------------------

// A `KEY: value` line's value and where it starts.
struct HeaderValue {
  std::string text;
  Line line;
  std::size_t column = 0;
};

using EsmHeader = std::map<std::string, HeaderValue, std::less<>>;

// The header's value of `key`; an error at `end` (the first line after the header) without it.
const HeaderValue& esm_value(const LineReader& reader, const EsmHeader& header,
                             std::string_view key, const Line& end) {
  if (const auto found = header.find(key); found != header.end()) return found->second;
  throw reader.error(end, 0,
                     cat("the ESM header (lines 1-", end.number - 1, ") has no '", key,
                         ":' line; it needs NDATA, SAMPLING_INTERVAL_S, UNITS and DATA_TYPE"));
}

double esm_number(const LineReader& reader, const HeaderValue& value, std::string_view key) {
  if (const std::optional<double> number = number_of(value.text)) return *number;
  throw reader.error(value.line, value.column,
                     cat("expected a number after ", key, ":, found '", value.text, "'"));
}

FileRecord read_esm_record(LineReader& reader) {
  EsmHeader header;
  std::optional<Line> line = reader.next_non_blank();
  // `KEY: value` lines up to the first value
  for (; line; line = reader.next_non_blank()) {
    const std::vector<Token> tokens = tokens_of(line->text, false);
    if (number_of(tokens.front().text)) break;
    const std::size_t colon = line->text.find(':');
    if (colon == std::string::npos) {
      throw reader.error(*line, tokens.front().column,
                         "expected an ESM header line 'KEY: value' (or the first value)");
    }
    const std::vector<Token> key = tokens_of(std::string_view(line->text).substr(0, colon), false);
    const std::vector<Token> value =
        tokens_of(std::string_view(line->text).substr(colon + 1), false);
    if (key.size() != 1) {
      throw reader.error(*line, tokens.front().column,
                         "expected an ESM header line 'KEY: value' (one word before the colon)");
    }
    // the value from its first to its last non-blank character
    const std::size_t value_column = value.empty() ? colon + 1 : colon + 1 + value.front().column;
    const std::string text =
        value.empty()
            ? ""
            : line->text.substr(value_column, colon + 1 + value.back().column +
                                                  value.back().text.size() - value_column);
    const auto [at, inserted] =
        header.try_emplace(std::string(key.front().text), HeaderValue{text, *line, value_column});
    if (!inserted) {
      throw reader.error(
          *line, key.front().column,
          cat(key.front().text, ": repeated (first on line ", at->second.line.number, ")"));
    }
  }
  if (!line) throw reader.error_at_end("an ESM header without values");
  const Line& end = *line;
  const HeaderValue& type = esm_value(reader, header, "DATA_TYPE", end);
  if (upper(type.text) != "ACCELERATION") {
    throw reader.error(
        type.line, type.column,
        cat("DATA_TYPE = ", type.text, ": routh reads accelerations (DATA_TYPE: ACCELERATION)"));
  }
  const HeaderValue& units_value = esm_value(reader, header, "UNITS", end);
  const std::optional<RecordUnits> units = units_named(units_value.text);
  if (!units) {
    throw reader.error(
        units_value.line, units_value.column,
        cat("UNITS = ", units_value.text, ": expected an acceleration unit, cm/s^2, m/s^2 or g"));
  }
  const HeaderValue& ndata = esm_value(reader, header, "NDATA", end);
  const std::size_t samples = checked_sample_count(reader, ndata.line, ndata.column, "NDATA",
                                                   esm_number(reader, ndata, "NDATA"));
  const HeaderValue& interval = esm_value(reader, header, "SAMPLING_INTERVAL_S", end);
  const double step_s = checked_step(reader, interval.line, interval.column, "SAMPLING_INTERVAL_S",
                                     esm_number(reader, interval, "SAMPLING_INTERVAL_S"));
  std::vector<double> values =
      read_token_block(reader, line, {samples, "NDATA"}, 1, acceleration_in(*units), false);
  return {evenly_sampled(std::move(values), step_s),
          StatedUnits{*units, location_of(reader, units_value.line, units_value.column)}};
}

// --- K-NET / KiK-net ------------------------------------------------------------------------

// The labels that begin the 17 header lines ("Lon" and "Max" cover the spellings "Lon." and
// "Long.", "Max. Acc." and "Max Acc." of the K-NET and KiK-net files).
constexpr std::array<std::string_view, 17> kKnetLabels = {"Origin Time",
                                                          "Lat.",
                                                          "Lon",
                                                          "Depth. (km)",
                                                          "Mag.",
                                                          "Station Code",
                                                          "Station Lat.",
                                                          "Station Lon",
                                                          "Station Height(m)",
                                                          "Record Time",
                                                          "Sampling Freq(Hz)",
                                                          "Duration Time(s)",
                                                          "Dir.",
                                                          "Scale Factor",
                                                          "Max",
                                                          "Last Correction",
                                                          "Memo."};
constexpr std::size_t kKnetFrequencyLine = 10, kKnetScaleLine = 13;
constexpr std::size_t kKnetCountsPerLine = 8;

// The single value after the label of header line `index`, with its column.
Token knet_value(const LineReader& reader, const Line& line, std::size_t index,
                 std::string_view example) {
  const std::string_view label = kKnetLabels[index];
  const std::vector<Token> tokens =
      tokens_of(std::string_view(line.text).substr(label.size()), false);
  if (tokens.size() != 1) {
    throw reader.error(line, label.size(),
                       cat("expected one value after '", label, "', e.g. '", example, "'"));
  }
  return {tokens.front().text, label.size() + tokens.front().column};
}

struct KnetHeader {
  double step_s = 0.0;
  double gal_per_count = 0.0;
  StatedUnits units;
};

KnetHeader read_knet_header(LineReader& reader) {
  std::array<Line, kKnetLabels.size()> lines;
  for (std::size_t i = 0; i < kKnetLabels.size(); ++i) {
    std::optional<Line> line = reader.next();
    if (!line) {
      throw reader.error_at_end(
          cat("truncated K-NET header: it has ", i, " of its ", kKnetLabels.size(), " lines"));
    }
    if (!line->text.starts_with(kKnetLabels[i])) {
      throw reader.error(
          *line, 0,
          cat("expected the K-NET header's line ", i + 1, ", '", kKnetLabels[i], " ...'"));
    }
    lines[i] = std::move(*line);
  }
  const Line& frequency_line = lines[kKnetFrequencyLine];
  const Token frequency = knet_value(reader, frequency_line, kKnetFrequencyLine, "100Hz");
  const std::string frequency_text = upper(frequency.text);
  const std::optional<double> frequency_hz =
      frequency_text.ends_with("HZ")
          ? number_of(std::string_view(frequency_text).substr(0, frequency_text.size() - 2))
          : std::nullopt;
  if (!frequency_hz) {
    throw reader.error(
        frequency_line, frequency.column,
        cat("expected a sampling frequency such as '100Hz', found '", frequency.text, "'"));
  }
  // Duration Time(s) is the recording's length in whole seconds: the counts that follow may stop
  // short of it, and they end the record
  const Line& scale_line = lines[kKnetScaleLine];
  const Token scale = knet_value(reader, scale_line, kKnetScaleLine, "7845(gal)/8223");
  constexpr std::string_view kGalPer = "(gal)/";
  const std::size_t gal = scale.text.find(kGalPer);
  const std::optional<double> numerator =
      gal == std::string_view::npos ? std::nullopt : number_of(scale.text.substr(0, gal));
  const std::optional<double> denominator =
      gal == std::string_view::npos ? std::nullopt
                                    : number_of(scale.text.substr(gal + kGalPer.size()));
  if (!numerator || !denominator || *denominator == 0.0) {
    throw reader.error(
        scale_line, scale.column,
        cat("expected a scale factor such as '7845(gal)/8223', found '", scale.text, "'"));
  }
  return {checked_step(reader, frequency_line, frequency.column, "1 / Sampling Freq(Hz)",
                       1.0 / *frequency_hz),
          *numerator / *denominator,
          StatedUnits{RecordUnits::cm_s2, location_of(reader, scale_line, scale.column)}};
}

FileRecord read_knet_record(LineReader& reader) {
  const KnetHeader header = read_knet_header(reader);
  std::vector<double> counts = read_token_block(reader, std::nullopt, {std::nullopt, ""},
                                                kKnetCountsPerLine, "a count (an integer)", true);
  // NIED's counts carry the recorder's offset: the acceleration is measured from their mean
  const double mean =
      std::accumulate(counts.begin(), counts.end(), 0.0) / static_cast<double>(counts.size());
  for (double& value : counts) value = (value - mean) * header.gal_per_count;
  return {evenly_sampled(std::move(counts), header.step_s), header.units};
}

// --- COSMOS ---------------------------------------------------------------------------------

// The most values a COSMOS integer or real header holds (v1.20 has 100 of each).
constexpr double kMaxCosmosHeaderValues = 10'000;
// The real header's value that is the sampling interval [ms] (1-based).
constexpr std::size_t kCosmosIntervalValue = 62;

// The text after `key` (upper case) on the line, and its column; nothing without `key`.
std::optional<Token> text_after(std::string_view upper_line, std::string_view line,
                                std::string_view key) {
  const std::size_t at = upper_line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  return Token{line.substr(at + key.size()), at + key.size()};
}

// A block's announcement, "100 Integer-header values follow on 10 lines, Format= (10I8)".
struct CosmosBlock {
  std::size_t count = 0;
  FortranFormat format;
};

CosmosBlock read_cosmos_block(LineReader& reader, std::string_view phrase,
                              std::string_view example) {
  const std::optional<Line> line = reader.next();
  const std::string expected = cat("expected the COSMOS line '", example, "'");
  if (!line) throw reader.error_at_end(cat("truncated: ", expected));
  const std::string text = upper(line->text);
  const std::vector<Token> tokens = tokens_of(text, false);
  const std::optional<Token> lines = text_after(text, line->text, " FOLLOW ON ");
  const std::optional<Token> format_text = text_after(text, line->text, "FORMAT=");
  if (tokens.empty() || text.find(phrase) == std::string::npos || !lines || !format_text) {
    throw reader.error(*line, 0, expected);
  }
  const std::optional<double> count = number_of(tokens.front().text);
  if (!count || *count < 0.0 || *count != std::floor(*count) || *count > kMaxCosmosHeaderValues) {
    throw reader.error(*line, tokens.front().column,
                       cat("expected the number of values (at most ", kMaxCosmosHeaderValues,
                           "), found '", tokens.front().text, "'"));
  }
  const std::optional<FortranFormat> format = fortran_format_of(format_text->text);
  if (!format) {
    throw reader.error(*line, format_text->column,
                       cat("expected a Fortran format such as (10I8) or (5F15.6), found '",
                           format_text->text, "'"));
  }
  const std::vector<Token> line_count = tokens_of(lines->text, false);
  const std::size_t values = static_cast<std::size_t>(*count);
  const std::size_t needed = (values + format->per_line - 1) / format->per_line;
  if (line_count.empty() || number_of(line_count.front().text) != static_cast<double>(needed)) {
    throw reader.error(
        *line, lines->column + (line_count.empty() ? 0 : line_count.front().column),
        cat("the line count: ", values, " values in ",
            tokens_of(format_text->text, false).front().text, " take ", needed, " lines"));
  }
  return {values, *format};
}

FileRecord read_cosmos_record(LineReader& reader) {
  const std::optional<Line> first = reader.next();
  constexpr std::string_view kFirstLine =
      "expected the COSMOS header's first line, e.g. 'Corrected acceleration  (Format v01.20 "
      "with 13 text lines)'";
  if (!first) throw reader.error_at_end(kFirstLine);
  const std::string first_upper = upper(first->text);
  const std::size_t format_at = first_upper.find("(FORMAT V");
  const std::optional<Token> with = text_after(first_upper, first->text, " WITH ");
  if (format_at == std::string::npos || !with) throw reader.error(*first, 0, kFirstLine);
  if (first_upper.substr(0, format_at).find("ACCELERATION") == std::string::npos) {
    throw reader.error(*first, 0,
                       "expected a COSMOS acceleration series: the first line names it, e.g. "
                       "'Corrected acceleration'");
  }
  const std::vector<Token> text_lines = tokens_of(with->text, false);
  const std::optional<double> text_line_count =
      text_lines.empty() ? std::nullopt : number_of(text_lines.front().text);
  if (!text_line_count || *text_line_count < 1.0 || *text_line_count > 1000.0 ||
      *text_line_count != std::floor(*text_line_count)) {
    throw reader.error(*first, with->column,
                       "expected the number of text header lines, e.g. 'with 13 text lines'");
  }
  for (int i = 1; i < static_cast<int>(*text_line_count); ++i) {
    if (!reader.next()) {
      throw reader.error_at_end(
          cat("truncated COSMOS text header: it has ", i, " of its ", *text_line_count, " lines"));
    }
  }
  const CosmosBlock integers = read_cosmos_block(reader, "INTEGER-HEADER VALUES FOLLOW",
                                                 "100 Integer-header values follow on 10 lines, "
                                                 "Format= (10I8)");
  read_fortran_block(reader, integers.count, integers.format, "an integer header value");
  const CosmosBlock reals = read_cosmos_block(reader, "REAL-HEADER VALUES FOLLOW",
                                              "100 Real-header values follow on 20 lines, "
                                              "Format= (5F15.6)");
  const std::vector<double> real_values =
      read_fortran_block(reader, reals.count, reals.format, "a real header value");
  if (real_values.size() < kCosmosIntervalValue) {
    throw reader.error_at_end(cat("the real header holds ", real_values.size(),
                                  " values: its value ", kCosmosIntervalValue,
                                  " is the sampling interval [ms]"));
  }
  const double interval_ms = real_values[kCosmosIntervalValue - 1];
  if (!(interval_ms > 0.0) || interval_ms > 1000.0 * kMaxRecordStep_s) {
    throw reader.error_at_end(cat("the real header's value ", kCosmosIntervalValue,
                                  ", the sampling interval, is ", interval_ms,
                                  " ms: must be in (0, ", 1000.0 * kMaxRecordStep_s, "]"));
  }

  const std::optional<Line> comments = reader.next();
  if (!comments || upper(comments->text).find("COMMENT LINE") == std::string::npos) {
    if (!comments) throw reader.error_at_end("truncated: expected the COSMOS comment count line");
    throw reader.error(*comments, 0,
                       "expected the COSMOS line '2 Comment line(s) follow, each starting with a "
                       "\"|\":'");
  }
  const std::vector<Token> comment_tokens = tokens_of(comments->text, false);
  const std::optional<double> comment_count = number_of(comment_tokens.front().text);
  if (!comment_count || *comment_count < 0.0 || *comment_count != std::floor(*comment_count) ||
      *comment_count > kMaxCosmosHeaderValues) {
    throw reader.error(*comments, comment_tokens.front().column,
                       "expected the number of comment lines");
  }
  for (int i = 0; i < static_cast<int>(*comment_count); ++i) {
    const std::optional<Line> comment = reader.next();
    if (!comment) throw reader.error_at_end("truncated: the comment lines are cut short");
    if (!comment->text.starts_with('|')) {
      throw reader.error(*comment, 0, "expected a comment line, starting with '|'");
    }
  }

  const std::optional<Line> data = reader.next();
  constexpr std::string_view kDataLine =
      "expected the COSMOS data line, e.g. '42000 acceleration pts, approx 210 secs, "
      "units=cm/sec2(04),Format=(1E15.6)'";
  if (!data) throw reader.error_at_end(cat("truncated: ", kDataLine));
  const std::string data_upper = upper(data->text);
  const std::vector<Token> data_tokens = tokens_of(data_upper, false);
  const std::optional<Token> units_text = text_after(data_upper, data->text, "UNITS=");
  const std::optional<Token> format_text = text_after(data_upper, data->text, "FORMAT=");
  if (data_tokens.size() < 2 || !units_text || !format_text) {
    throw reader.error(*data, 0, kDataLine);
  }
  if (data_tokens[1].text != "ACCELERATION") {
    throw reader.error(
        *data, data_tokens[1].column,
        cat("expected an acceleration block, found '",
            std::string_view(data->text).substr(data_tokens[1].column, data_tokens[1].text.size()),
            "'"));
  }
  const std::optional<double> points = number_of(data_tokens.front().text);
  if (!points) throw reader.error(*data, data_tokens.front().column, kDataLine);
  const std::size_t samples =
      checked_sample_count(reader, *data, data_tokens.front().column, "the point count", *points);
  const std::string_view unit_name =
      units_text->text.substr(0, units_text->text.find_first_of("(,"));
  const std::optional<RecordUnits> units = units_named(unit_name);
  if (!units) {
    throw reader.error(*data, units_text->column,
                       cat("units = ", unit_name, ": expected an acceleration unit, cm/sec2 or g"));
  }
  const std::optional<FortranFormat> format = fortran_format_of(format_text->text);
  if (!format || format->integer) {
    throw reader.error(*data, format_text->column,
                       cat("expected a Fortran format such as (8F10.5) or (1E15.6), found '",
                           format_text->text, "'"));
  }
  std::vector<double> values =
      read_fortran_block(reader, samples, *format, acceleration_in(*units));
  return {evenly_sampled(std::move(values), interval_ms / 1000.0),
          StatedUnits{*units, location_of(reader, *data, units_text->column)}};
}

// --- two columns ----------------------------------------------------------------------------

FileRecord read_two_columns(LineReader& reader) {
  GroundRecord record;
  bool first = true;
  int previous_line = 0;
  while (const std::optional<Line> line = reader.next()) {
    const std::vector<Token> tokens = tokens_of(line->text, true);
    if (tokens.empty() || tokens.front().text.front() == '#') continue;
    const bool header = first && !number_of(tokens.front().text);
    first = false;
    if (header) continue;
    if (tokens.size() != 2) {
      throw reader.error(
          *line, tokens.size() > 2 ? tokens[2].column : tokens[0].column,
          cat("expected two columns, time [s] and acceleration; found ", tokens.size()));
    }
    const double t = number_or_error(reader, *line, tokens[0], "a time [s]");
    const double a = number_or_error(reader, *line, tokens[1], "an acceleration");
    if (!record.time_s.empty() && !(t > record.time_s.back())) {
      throw reader.error(
          *line, tokens[0].column,
          cat("time ", t, " s is not after the previous sample's ", record.time_s.back(),
              " s (line ", previous_line, "): times must increase"));
    }
    if (record.time_s.size() == kMaxRecordSamples) {
      throw reader.error(
          *line, 0,
          cat("records of more than ", kMaxRecordSamples, " samples are refused ", kCapReason));
    }
    record.time_s.push_back(t);
    record.acceleration_m_s2.push_back(a);
    previous_line = line->number;
  }
  return {record, std::nullopt};
}

FileRecord read_in_format(LineReader& reader, RecordFormat format) {
  switch (format) {
    case RecordFormat::peer: return read_peer_record(reader);
    case RecordFormat::esm: return read_esm_record(reader);
    case RecordFormat::knet: return read_knet_record(reader);
    case RecordFormat::cosmos: return read_cosmos_record(reader);
    case RecordFormat::two_columns: break;
  }
  return read_two_columns(reader);
}

// Reads in `format`; the accelerations are in the header's unit, which `required` (the
// scenario's `units:`) must match, or in `unstated` for a file whose header states none.
GroundRecord read_record(const std::filesystem::path& path, RecordFormat format,
                         std::optional<RecordUnits> required, RecordUnits unstated) {
  LineReader reader(path);
  FileRecord file = read_in_format(reader, format);
  RecordUnits units = required.value_or(unstated);
  if (file.stated) {
    if (required && *required != file.stated->units) {
      throw InputError(file.stated->where,
                       cat("the header states the accelerations in ", to_string(file.stated->units),
                           ", but the scenario says units: ", to_string(*required),
                           " (leave units out, or say ", to_string(file.stated->units), ")"));
    }
    units = file.stated->units;
  }
  GroundRecord& record = file.samples;
  if (record.time_s.size() < 2) {
    throw reader.error_at_end(
        cat("holds ", record.time_s.size(), " samples: a record needs at least two"));
  }
  const double factor = to_m_s2(units);
  for (double& value : record.acceleration_m_s2) value *= factor;
  return record;
}

}  // namespace

std::string_view to_string(RecordUnits units) {
  switch (units) {
    case RecordUnits::m_s2: return "m/s2";
    case RecordUnits::g: return "g";
    case RecordUnits::cm_s2: return "cm/s2";
  }
  return "";
}

double to_m_s2(RecordUnits units) {
  switch (units) {
    case RecordUnits::m_s2: return 1.0;
    case RecordUnits::g: return kGravityUnit_m_s2;
    case RecordUnits::cm_s2: return 0.01;
  }
  return 1.0;
}

std::optional<RecordUnits> units_named(std::string_view text) {
  std::string name;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (name == "G") return RecordUnits::g;
  if (name == "GAL") return RecordUnits::cm_s2;
  for (const std::string_view per_second_squared :
       {"/S2", "/S^2", "/S/S", "/SEC2", "/SEC^2", "/SEC/SEC"}) {
    if (name == cat("M", per_second_squared)) return RecordUnits::m_s2;
    if (name == cat("CM", per_second_squared)) return RecordUnits::cm_s2;
  }
  return std::nullopt;
}

std::string_view to_string(RecordFormat format) {
  switch (format) {
    case RecordFormat::peer: return "peer";
    case RecordFormat::esm: return "esm";
    case RecordFormat::knet: return "knet";
    case RecordFormat::cosmos: return "cosmos";
    case RecordFormat::two_columns: break;
  }
  return "columns";
}

std::optional<RecordFormat> record_format_named(std::string_view name) {
  for (const RecordFormat format : {RecordFormat::peer, RecordFormat::esm, RecordFormat::knet,
                                    RecordFormat::cosmos, RecordFormat::two_columns}) {
    if (to_string(format) == name) return format;
  }
  return std::nullopt;
}

bool is_peer_record(const std::filesystem::path& path) {
  return upper(path.extension().string()) == ".AT2";
}

RecordFormat record_format_of(const std::filesystem::path& path) {
  if (is_peer_record(path)) return RecordFormat::peer;
  LineReader reader(path);
  const std::optional<Line> first = reader.next();
  if (!first) return RecordFormat::two_columns;
  if (first->text.starts_with("EVENT_NAME:")) return RecordFormat::esm;
  if (first->text.starts_with("Origin Time")) return RecordFormat::knet;
  if (upper(first->text).find("(FORMAT V") != std::string::npos) return RecordFormat::cosmos;
  return RecordFormat::two_columns;
}

GroundRecord read_ground_record(const std::filesystem::path& path, const RecordReading& reading) {
  return read_record(path, reading.format ? *reading.format : record_format_of(path), reading.units,
                     RecordUnits::m_s2);
}

GroundRecord read_ground_record(const std::filesystem::path& path, RecordUnits units) {
  return read_record(path, record_format_of(path), std::nullopt, units);
}

}  // namespace routh
