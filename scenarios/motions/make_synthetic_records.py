#!/usr/bin/env python3
"""Writes the two synthetic ground motions shipped in this directory, in PEER NGA .AT2 format.

Neither is a recorded earthquake: both are made here, reproducibly (no random state outside the
fixed seeds), so that they can be shipped and changed freely.

  synthetic_sines.AT2  a sum of five sinusoids (0.7 to 4.1 Hz) under a Saragoni-Hart-like
                       envelope (t/t_p)^2 exp(2 (1 - t/t_p)), t_p = 3 s, scaled to a PGA of 0.35 g;
                       10 s at 100 Hz.
  synthetic_noise.AT2  seeded Gaussian white noise (seed 2024) low-passed by a moving average of
                       9 samples twice, under the same envelope with t_p = 2.5 s, scaled to a
                       PGA of 0.30 g; 12 s at 100 Hz.

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
