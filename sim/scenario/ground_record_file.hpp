#pragma once
// Ground-motion record files (docs/design.md §5, `excitation: record`), read strictly: anything
// that is not exactly a record is an InputError naming the file, the line and, inside a line, the
// column.
//
// PEER NGA (.AT2, any case): four header lines, then the accelerations in g, any number per line,
// blank separated (Fortran E format such as `-.1234E-02` included):
//     PEER NGA STRONG MOTION DATABASE RECORD
//     <event, date, station, component>
//     ACCELERATION TIME SERIES IN UNITS OF G          (must say UNITS OF G)
//     NPTS=  2688, DT=   .0100 SEC                     (or the older `2688   .0100   NPTS, DT`)
// Sample i is at t = i · DT; the file must hold exactly NPTS values.
//
// Two columns (.csv, .txt): time [s], acceleration, separated by a comma or blanks; an optional
// header line (a first line that does not start with a number), blank lines and `#` comment
// lines are skipped. Times must increase strictly. The accelerations are in m/s² or in g.
//
// Either form needs at least two samples and at most kMaxRecordSamples: a larger file is refused
// before it fills the memory (10⁷ samples are 160 MB, a day of motion at 100 Hz is 8.6 · 10⁶).
// The file must be a regular file of at most kGroundRecordInput's size, lines of at most
// kMaxInputLineBytes (input_file.hpp); a PEER header's NPTS reserves nothing before the values
// are read.

#include <cstddef>
#include <filesystem>

#include "sim/excitation/record_signal.hpp"

namespace routh {

/// The largest record routh reads, in samples.
inline constexpr std::size_t kMaxRecordSamples = 10'000'000;

/// g [m/s²], the standard gravity (CGPM 1901) that PEER's "units of g" and `N g` amplitudes use.
inline constexpr double kGravityUnit_m_s2 = 9.80665;

/// The unit of a two-column file's accelerations (`units: g | m/s2`).
enum class RecordUnits { m_s2, g };

/// True for a PEER NGA record: the extension is .AT2, in any case.
bool is_peer_record(const std::filesystem::path& path);

/// Reads the record at `path` (PEER NGA by its extension, two columns otherwise) into times [s]
/// and accelerations [m/s²]. `units` applies to two-column files; PEER files are in g. Throws
/// InputError located in the file (a file that cannot be opened: at the file alone).
GroundRecord read_ground_record(const std::filesystem::path& path, RecordUnits units);

}  // namespace routh
