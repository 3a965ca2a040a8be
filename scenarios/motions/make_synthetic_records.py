#!/usr/bin/env python3
"""Writes the synthetic ground motions shipped in this directory.

None is a recorded earthquake: all are made here, reproducibly (no random state outside the
fixed seed), so that they can be shipped and changed freely.

  synthetic_sines.AT2  a sum of five sinusoids (0.7 to 4.1 Hz) under a Saragoni-Hart-like
                       envelope (t/t_p)^2 exp(2 (1 - t/t_p)), t_p = 3 s, scaled to a PGA of 0.35 g;
                       10 s at 100 Hz.
  synthetic_noise.AT2  seeded Gaussian white noise (seed 2024) low-passed by a moving average of
                       9 samples twice, under the same envelope with t_p = 2.5 s, scaled to a
                       PGA of 0.30 g; 12 s at 100 Hz.

The sum of sinusoids is also written in the other formats routh reads, each in its own unit and
at its own printed precision, so that one motion read from any of them gives the same m/s2 samples
to within that precision (tests/test_record_formats.cpp):

  synthetic_sines.esm.ASC  ESM (Engineering Strong Motion database) ASCII: the DYNA 1.2 header,
                           one value per line in cm/s^2 with 6 decimals.
  synthetic_sines.knet.NS  K-NET ASCII (NIED): integer counts, 8 per line, at a scale factor of
                           3920(gal)/6182761 about an offset of 8000 counts; read as NIED says,
                           (count - mean) x scale, it is the motion less its mean.
  synthetic_sines.cosmos.V2  COSMOS V2 (format v01.20): the acceleration block in cm/sec2,
                           Format=(8F10.5) (fields that may touch: read by their columns).

A suite of six more motions of different character, for studies over records
(scenarios/sweeps/statue_fragility.yaml and others): seeded Gaussian white noise through a
Kanai-Tajimi filter (a ground oscillator of frequency f_g and damping zeta_g; the motion is its
absolute acceleration), under the envelope above, each scaled to its own PGA and written in one of
the formats routh reads, so that a study reads every format:

  synthetic_kt1.AT2          f_g = 1.0 Hz, zeta_g = 0.3, t_p = 3.0 s, PGA 0.25 g, 15 s, seed 11
  synthetic_kt2.AT2          f_g = 1.8 Hz, zeta_g = 0.4, t_p = 2.5 s, PGA 0.30 g, 12 s, seed 12
  synthetic_kt3.esm.ASC      f_g = 2.5 Hz, zeta_g = 0.6, t_p = 2.0 s, PGA 0.40 g, 12 s, seed 13
  synthetic_kt4.knet.EW      f_g = 3.5 Hz, zeta_g = 0.6, t_p = 2.0 s, PGA 0.35 g, 10 s, seed 14
  synthetic_kt5.cosmos.V2    f_g = 0.7 Hz, zeta_g = 0.3, t_p = 4.0 s, PGA 0.20 g, 20 s, seed 15
  synthetic_kt6.csv          f_g = 5.0 Hz, zeta_g = 0.5, t_p = 1.5 s, PGA 0.45 g, 8 s, seed 16
                             (two columns: time [s], acceleration [m/s2])

Run from this directory: python3 make_synthetic_records.py
"""

import math
import random

DT = 0.01  # [s]


def envelope(t, t_peak):
    x = t / t_peak
    return x * x * math.exp(2.0 * (1.0 - x))


def scaled(values, pga_g):
    peak = max(abs(v) for v in values)
    return [v * pga_g / peak for v in values]


def sines(count):
    components = [(0.7, 1.0, 0.3), (1.3, 0.8, 1.1), (2.2, 0.6, 2.0), (3.0, 0.5, 0.7),
                  (4.1, 0.4, 2.9)]  # (frequency [Hz], weight, phase [rad])
    values = []
    for i in range(count):
        t = i * DT
        s = sum(w * math.sin(2.0 * math.pi * f * t + p) for f, w, p in components)
        values.append(envelope(t, 3.0) * s)
    return scaled(values, 0.35)


def moving_average(values, width):
    half = width // 2
    out = []
    for i in range(len(values)):
        window = values[max(0, i - half):i + half + 1]
        out.append(sum(window) / len(window))
    return out


def noise(count):
    rng = random.Random(2024)
    white = [rng.gauss(0.0, 1.0) for _ in range(count)]
    smooth = moving_average(moving_average(white, 9), 9)
    return scaled([envelope(i * DT, 2.5) * v for i, v in enumerate(smooth)], 0.30)


def write_at2(path, description, values):
    with open(path, "w") as out:
        out.write("PEER NGA STRONG MOTION DATABASE RECORD (format only: SYNTHETIC, not recorded)\n")
        out.write(description + "\n")
        out.write("ACCELERATION TIME SERIES IN UNITS OF G\n")
        out.write("NPTS=%6d, DT=%9.4f SEC\n" % (len(values), DT))
        for start in range(0, len(values), 5):
            out.write("".join("%15.7E" % v for v in values[start:start + 5]) + "\n")


write_at2("synthetic_sines.AT2",
          "SYNTHETIC routh motion: 5 sinusoids 0.7-4.1 Hz, envelope t_p = 3 s, PGA 0.35 g "
          "(scenarios/motions/make_synthetic_records.py)", sines(1000))
write_at2("synthetic_noise.AT2",
          "SYNTHETIC routh motion: seeded (2024) white noise, 2 x 9-sample moving average, "
          "envelope t_p = 2.5 s, PGA 0.30 g (scenarios/motions/make_synthetic_records.py)",
          noise(1200))


# --- the sum of sinusoids in the other formats --------------------------------------------------

G_CM_S2 = 980.665  # [cm/s2] in one g
SINES_G = sines(1000)
SINES_CM_S2 = [v * G_CM_S2 for v in SINES_G]
SYNTHETIC = "SYNTHETIC routh motion, not recorded (scenarios/motions/make_synthetic_records.py)"


def write_esm(path, values_cm_s2):
    header = [
        ("EVENT_NAME", "SYNTHETIC"), ("EVENT_ID", "ROUTH-SYNTHETIC-SINES"),
        ("EVENT_DATE_YYYYMMDD", "20000101"), ("EVENT_TIME_HHMMSS", "000000"),
        ("NETWORK", "XX"), ("STATION_CODE", "SYN"), ("STATION_NAME", SYNTHETIC),
        ("DATE_TIME_FIRST_SAMPLE_YYYYMMDD_HHMMSS", "20000101_000000.000"),
        ("SAMPLING_INTERVAL_S", "%.6f" % DT), ("NDATA", "%d" % len(values_cm_s2)),
        ("DURATION_S", "%.3f" % (len(values_cm_s2) * DT)), ("STREAM", "HNE"),
        ("UNITS", "cm/s^2"),
        ("PGA_CM/S^2", "%.6f" % max(abs(v) for v in values_cm_s2)),
        ("BASELINE_CORRECTION", "BASELINE NOT REMOVED"), ("FILTER_TYPE", ""),
        ("HEADER_FORMAT", "DYNA 1.2"), ("DATA_TYPE", "ACCELERATION"),
        ("PROCESSING", "none (synthetic)"), ("USER1", ""), ("USER2", ""),
    ]
    with open(path, "w") as out:
        for key, value in header:
            out.write("%s: %s\n" % (key, value))
        for v in values_cm_s2:
            out.write("%.6f\n" % v)


def write_knet(path, values_gal):
    numerator, denominator = 3920, 6182761  # [gal] per 6182761 counts
    offset = 8000  # [counts]: the recorder's zero, which a reader removes with the mean
    counts = [offset + round(v * denominator / numerator) for v in values_gal]
    mean = sum(counts) / len(counts)
    peak = max(abs(c - mean) for c in counts) * numerator / denominator
    header = [
        ("Origin Time", "2000/01/01 00:00:00"), ("Lat.", "0.000"), ("Lon.", "0.000"),
        ("Depth. (km)", "0"), ("Mag.", "0.0"), ("Station Code", "SYN000"),
        ("Station Lat.", "0.0000"), ("Station Lon.", "0.0000"), ("Station Height(m)", "0"),
        ("Record Time", "2000/01/01 00:00:15"),
        ("Sampling Freq(Hz)", "%dHz" % round(1.0 / DT)),
        ("Duration Time(s)", "%d" % round(len(counts) * DT)), ("Dir.", "N-S"),
        ("Scale Factor", "%d(gal)/%d" % (numerator, denominator)),
        ("Max. Acc. (gal)", "%.3f" % peak), ("Last Correction", "2000/01/01 00:00:00"),
        ("Memo.", SYNTHETIC),
    ]
    with open(path, "w") as out:
        for label, value in header:
            out.write("%-18s%s\n" % (label, value))
        for start in range(0, len(counts), 8):
            out.write("".join("%9d" % c for c in counts[start:start + 8]) + "\n")


def fortran_lines(values, per_line, field):
    return ["".join(field % v for v in values[i:i + per_line]) + "\n"
            for i in range(0, len(values), per_line)]


def write_cosmos(path, values_cm_s2):
    count = len(values_cm_s2)
    peak_index = max(range(count), key=lambda i: abs(values_cm_s2[i]))
    text = [
        "Corrected acceleration    (Format v01.20 with 13 text lines) Src: routh synthetic",
        "Record of SYNTHETIC motion, not recorded (make_synthetic_records.py)",
        "Hypocenter: none (synthetic)",
        "Origin: 2000/01/01 00:00:00.0 UTC",
        "Statn No: 00-00000 Code: XX-SYN  routh synthetic station",
        "Coords: 0.0000 0.0000  Site geology: none",
        "Recorder: none         s/n: none (  1 Chns of   1 at Sta) Sensor: none",
        "Rcrd start time: 2000/01/01 00:00:00.000 UTC (Q=5) RcrdId: SYNTHETIC",
        "Sta Chan   1:  90 deg (Rcrdr Chan  1) Location: synthetic",
        "Raw record length = %.3f sec, Uncor max = n/a" % (count * DT),
        "Processed: synthetic, Max = %9.3f cm/sec2 at %7.3f sec" % (
            values_cm_s2[peak_index], peak_index * DT),
        "Record filtered: no (synthetic)",
        "Values used when parameter or data value is unknown/unspecified:   -999, -999.0",
    ]
    integers = [-999] * 100
    integers[0] = 2  # processing stage: V2
    integers[1] = 1  # acceleration
    integers[2] = 4  # physical unit: cm/sec2
    reals = [-999.0] * 100
    reals[61] = DT * 1000.0  # sampling interval [ms]
    reals[62] = count * DT  # series length [s]
    reals[63] = values_cm_s2[peak_index]
    reals[64] = peak_index * DT
    with open(path, "w") as out:
        for line in text:
            out.write(line + "\n")
        out.write("%4d Integer-header values follow on %3d lines, Format= (10I8)\n" % (100, 10))
        out.writelines(fortran_lines(integers, 10, "%8d"))
        out.write("%4d Real-header values follow on %3d lines, Format= (5F15.6)\n" % (100, 20))
        out.writelines(fortran_lines(reals, 5, "%15.6f"))
        out.write("   1 Comment line(s) follow, each starting with a \"|\":\n")
        out.write("| %s\n" % SYNTHETIC)
        out.write("%8d acceleration pts, approx %4d secs, units=cm/sec2(04), Format=(8F10.5)\n"
                  % (count, round(count * DT)))
        out.writelines(fortran_lines(values_cm_s2, 8, "%10.5f"))
        out.write("End-of-data for Chan  1 acceleration\n")


write_esm("synthetic_sines.esm.ASC", SINES_CM_S2)
write_knet("synthetic_sines.knet.NS", SINES_CM_S2)
write_cosmos("synthetic_sines.cosmos.V2", SINES_CM_S2)


# --- the Kanai-Tajimi suite ---------------------------------------------------------------------


def kanai_tajimi(count, f_g, zeta_g, t_peak, pga_g, seed):
    """Seeded white noise w through the ground oscillator x'' + 2 zeta w_g x' + w_g^2 x = -w,
    integrated by the semi-implicit Euler method in 20 substeps per sample; the motion is the
    oscillator's absolute acceleration -(2 zeta w_g x' + w_g^2 x), under the envelope."""
    rng = random.Random(seed)
    omega = 2.0 * math.pi * f_g
    substeps = 20
    h = DT / substeps
    x = v = 0.0
    values = []
    for i in range(count):
        w = rng.gauss(0.0, 1.0)
        for _ in range(substeps):
            v += h * (-w - 2.0 * zeta_g * omega * v - omega * omega * x)
            x += h * v
        values.append(envelope(i * DT, t_peak) * -(2.0 * zeta_g * omega * v + omega * omega * x))
    return scaled(values, pga_g)


def kt_description(f_g, zeta_g, t_peak, pga_g, seed):
    return ("SYNTHETIC routh motion: Kanai-Tajimi filtered noise f_g = %.1f Hz, zeta_g = %.1f, "
            "envelope t_p = %.1f s, PGA %.2f g, seed %d (make_synthetic_records.py)"
            % (f_g, zeta_g, t_peak, pga_g, seed))


def write_columns(path, description, values_m_s2):
    with open(path, "w") as out:
        out.write("# %s\n" % description)
        out.write("time_s,acceleration_m_s2\n")
        for i, v in enumerate(values_m_s2):
            out.write("%.2f,%.6f\n" % (i * DT, v))


SUITE = [  # (file, f_g [Hz], zeta_g, t_p [s], PGA [g], duration [s], seed)
    ("synthetic_kt1.AT2", 1.0, 0.3, 3.0, 0.25, 15, 11),
    ("synthetic_kt2.AT2", 1.8, 0.4, 2.5, 0.30, 12, 12),
    ("synthetic_kt3.esm.ASC", 2.5, 0.6, 2.0, 0.40, 12, 13),
    ("synthetic_kt4.knet.EW", 3.5, 0.6, 2.0, 0.35, 10, 14),
    ("synthetic_kt5.cosmos.V2", 0.7, 0.3, 4.0, 0.20, 20, 15),
    ("synthetic_kt6.csv", 5.0, 0.5, 1.5, 0.45, 8, 16),
]

for name, f_g, zeta_g, t_peak, pga_g, duration, seed in SUITE:
    motion_g = kanai_tajimi(round(duration / DT), f_g, zeta_g, t_peak, pga_g, seed)
    description = kt_description(f_g, zeta_g, t_peak, pga_g, seed)
    if name.endswith(".AT2"):
        write_at2(name, description, motion_g)
    elif name.endswith(".ASC"):
        write_esm(name, [v * G_CM_S2 for v in motion_g])
    elif ".knet." in name:
        write_knet(name, [v * G_CM_S2 for v in motion_g])
    elif name.endswith(".V2"):
        write_cosmos(name, [v * G_CM_S2 for v in motion_g])
    else:
        write_columns(name, description, [v * 9.80665 for v in motion_g])
