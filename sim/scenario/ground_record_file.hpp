#pragma once
// Ground-motion record files (docs/design.md §5, `excitation: record`; docs/excitation.md), read
// strictly: anything that is not exactly a record is an InputError naming the file, the line and,
// inside a line, the column. Five formats:
//
// PEER NGA (.AT2, any case): four header lines, then the accelerations, any number per line,
// blank separated (Fortran E format such as `-.1234E-02` included):
//     PEER NGA STRONG MOTION DATABASE RECORD
//     <event, date, station, component>
//     ACCELERATION TIME SERIES IN UNITS OF G          (or UNITS OF CM/SEC/SEC, ...)
//     NPTS=  2688, DT=   .0100 SEC                     (or the older `2688   .0100   NPTS, DT`)
// Sample i is at t = i · DT; the file must hold exactly NPTS values.
//
// ESM (Engineering Strong Motion database, INGV / ORFEUS; its header format "DYNA 1.2"): lines
// `KEY: value` (EVENT_NAME first; NDATA, SAMPLING_INTERVAL_S [s], UNITS such as cm/s^2 and
// DATA_TYPE ACCELERATION are required), then exactly NDATA values, one per line.
//
// K-NET / KiK-net ASCII (NIED): 17 header lines `Label  value` (Origin Time first; Sampling
// Freq(Hz) `100Hz` and Scale Factor `7845(gal)/8223` are read), then integer counts, 8 per line
// (fewer on the last), to the end of the file. As NIED prescribes, the acceleration is
// (count − the mean of all counts) × the scale factor, in gal (cm/s²).
//
// COSMOS V2 (Consortium of Organizations for Strong-Motion Observation Systems, strong-motion
// data format v1.20): a first line `Corrected acceleration (Format v01.20 with 13 text lines)`,
// the rest of the text header, the integer and the real header blocks and the comment lines, each
// announced with its count and (for the numbers) its Fortran format, then the acceleration block:
// `42000 acceleration pts, approx 210 secs, units=cm/sec2(04),Format=(1E15.6)`, read field by
// field. The sampling interval is the real header's value 62 [ms]. Anything after the
// acceleration block (the end-of-data line, velocity and displacement blocks) is not read.
//
// Two columns (.csv, .txt, anything else): time [s], acceleration, separated by a comma or
// blanks; an optional header line (a first line that does not start with a number), blank lines
// and `#` comment lines are skipped. Times must increase strictly.
//
// A file's format is `format:` when the scenario gives one; otherwise the extension .AT2 makes it
// PEER, and otherwise its first line decides: `EVENT_NAME:` ESM, `Origin Time` K-NET, a line
// holding `(Format v` COSMOS, anything else two columns (record_format_of).
//
// Units: PEER, ESM and COSMOS headers state their units, K-NET files are in gal; a record is read
// in them, and a `units:` the scenario gives must agree (else an error at the header's statement).
// Two-column files are in `units:` (m/s² by default).
//
// Every form needs at least two samples and at most kMaxRecordSamples: a larger file is refused
// from its header (or, for two columns and K-NET, at the line past the cap), before it fills the
// memory
// (10⁷ samples are 160 MB, a day of motion at 100 Hz is 8.6 · 10⁶). The file must be a regular
// file of at most kGroundRecordInput's size, lines of at most kMaxInputLineBytes (input_file.hpp);
// a header's count reserves no more memory than the values read so far.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "sim/excitation/record_signal.hpp"
#include "sim/excitation/standard_gravity.hpp"

namespace routh {

/// The largest record routh reads, in samples.
inline constexpr std::size_t kMaxRecordSamples = 10'000'000;

/// The unit of a record's accelerations (`units: g | m/s2 | cm/s2`; `gal` is cm/s²).
enum class RecordUnits { m_s2, g, cm_s2 };

/// "m/s2", "g", "cm/s2": the unit as `units:` names it.
std::string_view to_string(RecordUnits units);

/// The factor turning a value in `units` into m/s².
double to_m_s2(RecordUnits units);

/// The unit a record header (or `units:`) names, in any case, blanks ignored: "G"; "GAL";
/// "M/S2", "M/S^2", "M/S/S", "M/SEC2", "M/SEC^2", "M/SEC/SEC" and the same with "CM".
std::optional<RecordUnits> units_named(std::string_view text);

/// The file formats (`format: peer | esm | knet | cosmos | columns`).
enum class RecordFormat { peer, esm, knet, cosmos, two_columns };

/// "peer", "esm", "knet", "cosmos", "columns": the format as `format:` names it.
std::string_view to_string(RecordFormat format);

/// The format `format:` names; nothing for another name.
std::optional<RecordFormat> record_format_named(std::string_view name);

/// True for a PEER NGA record by its name: the extension is .AT2, in any case.
bool is_peer_record(const std::filesystem::path& path);

/// The format of the file at `path` by the rule above (.AT2, then the first line). Throws
/// InputError at the file when it cannot be read.
RecordFormat record_format_of(const std::filesystem::path& path);

/// How to read a record: the scenario's `format:` and `units:`, when it gives them.
struct RecordReading {
  std::optional<RecordFormat> format;  ///< nothing: record_format_of
  std::optional<RecordUnits> units;    ///< nothing: the header's, or m/s² for two columns
};

/// Reads the record at `path` into times [s] and accelerations [m/s²]. Throws InputError located
/// in the file (a file that cannot be opened: at the file alone).
GroundRecord read_ground_record(const std::filesystem::path& path, const RecordReading& reading);

/// The same, in the format record_format_of finds; `units` applies to a file whose header states
/// none (two columns) and is ignored otherwise.
GroundRecord read_ground_record(const std::filesystem::path& path, RecordUnits units);

}  // namespace routh
