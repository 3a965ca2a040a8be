#!/usr/bin/env bash
# routh's single entry point: installs the Debian packages routh needs, configures and builds with
# CMake + Ninja, then runs what you asked for.
#
#   tools/setup.sh [--sanitize] [build|main|test|bench]      (default: build)
#   tools/setup.sh fuzz [SECONDS]
#
#   build   install the missing packages of every mode, configure and build everything
#   main    install and build only the routh program and the Python package, then run the main
#           job (MAIN_JOB below)
#   test    install and build what the test suite needs (no benchmark), then run it with ctest
#   bench   install and build the program and the benchmarks (release), then run the impact-law
#           benchmark (medians of 10 repetitions) and the whole-run scenario benchmark (medians
#           of 21 runs, with and without HDF5 output; its scaling section repeats the 20-block
#           stack 3 times), then the sweep benchmark (runs per second on 1 and 2 threads and 2 MPI
#           ranks), then the many-body scaling benchmark (towers, drum columns, chains, a wall,
#           piles of spheres; medians of 3), about three minutes
#   fuzz    install clang, build the libFuzzer targets in build/fuzz (ASan + UBSan), then run each
#           for SECONDS (default 30) from a seed corpus (scenarios/*.yaml,
#           scenarios/impacts/*.yaml, scenarios/motions/*.AT2, tests/fuzz/corpus/,
#           tests/fuzz/regressions/); a finding is saved under
#           build/fuzz/findings/ and fails the run after every target has run
#
#   --sanitize   build in build/sanitize with AddressSanitizer + UndefinedBehaviorSanitizer
#                (RelWithDebInfo, no benchmarks, no Python package) instead of build/release
#
# Environment: ROUTH_JOBS (parallel build/test jobs, default 2); ROUTH_FUZZ_SEED (libFuzzer's
# -seed for `fuzz`; CI fixes it so that its short budget explores the same inputs on every run,
# default 0: a new seed each time).
# Works from any directory; installs with apt-get (through sudo when not root) only when a package
# is missing, so a second run is quiet.
set -euo pipefail

# The main job, relative to the build directory's root and run from the repository root.
# One place to change when the main job becomes a simulator run (e.g. the rocking block).
MAIN_JOB=(tools/routh/routh run scenarios/rocking_block.yaml -o rocking_block.h5 --force)

# The Debian packages of each mode, installed without their recommendations (about a third less
# to download and unpack). main: the routh program and the Python package (the plots need
# matplotlib). MPI sweeps (`mpirun -n K routh sweep`) need OpenMPI: test, bench and build install
# it, main builds without (sweeps then share their runs between threads only).
MAIN_PACKAGES=(build-essential cmake ninja-build libeigen3-dev libboost-dev libyaml-cpp-dev
               libhdf5-dev pybind11-dev python3-dev python3-numpy python3-pandas python3-h5py
               python3-matplotlib)
MPI_PACKAGES=(libopenmpi-dev openmpi-bin)
# the test suite: doctest, pytest and what the Python tests read with, a venv for the README's
# Python commands, and headless Chromium for the browser viewer's test
TEST_PACKAGES=(doctest-dev python3-pytest python3-pil python3-yaml python3-venv chromium)
BENCH_PACKAGES=(libbenchmark-dev)

say() { printf '[routh setup] %s\n' "$*"; }
die() { printf '[routh setup] error: %s\n' "$*" >&2; exit 1; }

usage() {
  # the comment block that opens this file
  sed -n '2,/^[^#]/{/^#/p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

sanitize=0
mode=build
fuzz_seconds=30
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sanitize) sanitize=1 ;;
    build|main|test|bench) mode="$1" ;;
    fuzz)
      mode=fuzz
      if [[ $# -gt 1 && $2 =~ ^[0-9]+$ ]]; then
        fuzz_seconds=$2
        shift
      fi
      ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
  shift
done
if [[ $sanitize -eq 1 && $mode == bench ]]; then
  die "bench measures the release build; run it without --sanitize"
fi
if [[ $sanitize -eq 1 && $mode == fuzz ]]; then
  die "fuzz always builds with the sanitizers; run it without --sanitize"
fi
# What each mode installs and builds: main only the routh program and the Python package; test
# adds the test suite, bench the benchmarks instead; build everything. ctest runs no benchmark.
PACKAGES=("${MAIN_PACKAGES[@]}")
build_options=()
case "$mode" in
  main) build_options=(-DROUTH_BUILD_TESTS=OFF -DROUTH_BUILD_BENCHMARKS=OFF) ;;
  test)
    PACKAGES+=("${MPI_PACKAGES[@]}" "${TEST_PACKAGES[@]}")
    build_options=(-DROUTH_BUILD_TESTS=ON -DROUTH_BUILD_BENCHMARKS=OFF -DROUTH_MPI=ON)
    ;;
  bench)
    PACKAGES+=("${MPI_PACKAGES[@]}" "${BENCH_PACKAGES[@]}")
    build_options=(-DROUTH_BUILD_TESTS=OFF -DROUTH_BUILD_BENCHMARKS=ON -DROUTH_MPI=ON)
    ;;
  build)
    PACKAGES+=("${MPI_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${BENCH_PACKAGES[@]}")
    build_options=(-DROUTH_BUILD_TESTS=ON -DROUTH_BUILD_BENCHMARKS=ON -DROUTH_MPI=ON)
    ;;
  # libFuzzer comes with clang; only the fuzz mode needs it
  fuzz) PACKAGES+=(clang) ;;
esac
# the browser viewer's JavaScript is bundled with npm: Debian's unless one is on PATH already
# (the README's tour views a run after main, and the browser test needs it)
if [[ $mode == main || $mode == test || $mode == build ]] && ! command -v npm >/dev/null; then
  PACKAGES+=(nodejs npm)
fi

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
jobs="${ROUTH_JOBS:-2}"

install_packages() {
  local missing=() package
  for package in "${PACKAGES[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" != "install ok installed" ]]; then
      missing+=("$package")
    fi
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    say "dependencies: all ${#PACKAGES[@]} Debian packages present"
    return
  fi
  command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get: install them by hand"
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "missing packages (${missing[*]}): run as root or install sudo"
    sudo=(sudo)
  fi
  say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" </dev/null
}

configure_and_build() {
  local build_dir=$1
  shift
  say "configuring $build_dir ($*)"
  cmake -S . -B "$build_dir" -G Ninja -DROUTH_WERROR=ON "$@" >"$build_dir.configure.log" 2>&1 || {
    cat "$build_dir.configure.log" >&2
    die "cmake configure failed (log: $build_dir.configure.log)"
  }
  say "building $build_dir with $jobs jobs"
  cmake --build "$build_dir" -j "$jobs"
}

# Runs one fuzz target for fuzz_seconds from its corpus (build/fuzz/corpus/TARGET, where it keeps
# what it finds) after copying the seeds in, with its dictionary of keywords when it has one
# (tests/fuzz/TARGET.dict); a crash, leak, timeout or sanitizer report is saved
# as build/fuzz/findings/TARGET-* and makes it return 1 (the other targets still run).
run_fuzzer() {
  local target=$1
  shift
  local corpus=build/fuzz/corpus/$target
  mkdir -p "$corpus" build/fuzz/findings
  local seed
  for seed in "$@" tests/fuzz/regressions/"$target"/*; do
    [[ -f $seed ]] && cp "$seed" "$corpus/"
  done
  local options=(-seed="${ROUTH_FUZZ_SEED:-0}")
  [[ -f tests/fuzz/$target.dict ]] && options+=(-dict="tests/fuzz/$target.dict")
  say "fuzzing $target for ${fuzz_seconds}s (corpus $corpus)"
  if ! "build/fuzz/tests/fuzz/$target" "$corpus" "${options[@]}" -max_total_time="$fuzz_seconds" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="build/fuzz/findings/$target-" -print_final_stats=1 \
    >"build/fuzz/$target.log" 2>&1; then
    tail -n 40 "build/fuzz/$target.log" >&2
    say "$target found a failure: input under build/fuzz/findings/, log build/fuzz/$target.log; save the input under tests/fuzz/regressions/$target/ with a test in tests/test_fuzz_regressions.cpp"
    return 1
  fi
  grep -E '^Done [0-9]+ runs' "build/fuzz/$target.log" | sed "s/^/[routh setup] $target /" || true
}

install_packages

mkdir -p build
if [[ $mode == fuzz ]]; then
  build_dir=build/fuzz
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DROUTH_FUZZ=ON -DROUTH_BUILD_TESTS=OFF -DROUTH_BUILD_BENCHMARKS=OFF
  failed=()
  run_fuzzer scenario_loader_fuzzer scenarios/*.yaml || failed+=(scenario_loader_fuzzer)
  run_fuzzer impact_problem_loader_fuzzer scenarios/impacts/*.yaml ||
    failed+=(impact_problem_loader_fuzzer)
  run_fuzzer impact_laws_fuzzer || failed+=(impact_laws_fuzzer)
  run_fuzzer ground_record_fuzzer scenarios/motions/*.AT2 tests/fuzz/corpus/ground_record_fuzzer/* ||
    failed+=(ground_record_fuzzer)
  run_fuzzer sweep_file_fuzzer tests/fuzz/corpus/sweep_file_fuzzer/* || failed+=(sweep_file_fuzzer)
  run_fuzzer sweep_journal_fuzzer tests/fuzz/corpus/sweep_journal_fuzzer/* ||
    failed+=(sweep_journal_fuzzer)
  [[ ${#failed[@]} -eq 0 ]] || die "fuzzing found failures in: ${failed[*]}"
  say "fuzzing done: no failure in ${fuzz_seconds}s per target"
  exit 0
fi
if [[ $sanitize -eq 1 ]]; then
  build_dir=build/sanitize
  # no Python package: an extension module built with ASan loads only into a Python started with
  # libasan in LD_PRELOAD; the release build tests it
  configure_and_build "$build_dir" "${build_options[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROUTH_SANITIZE=ON -DROUTH_BUILD_BENCHMARKS=OFF -DROUTH_BUILD_PYTHON=OFF
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
else
  build_dir=build/release
  configure_and_build "$build_dir" "${build_options[@]}" -DCMAKE_BUILD_TYPE=Release
fi

case "$mode" in
  build)
    say "done: $build_dir"
    ;;
  main)
    job=("$build_dir/${MAIN_JOB[0]}" "${MAIN_JOB[@]:1}")
    say "main job: ${job[*]}"
    "${job[@]}"
    ;;
  test)
    say "tests: ctest --test-dir $build_dir --output-on-failure -j $jobs"
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    say "all tests passed ($build_dir)"
    ;;
  bench)
    say "impact-law benchmark: median of 10 repetitions, ns per solve (targets: planar <= 25 ns, park <= 1 us, lcp <= 3 us, sliding_ode <= 20 us)"
    "$build_dir/tools/bench/impact_laws_benchmark" --benchmark_repetitions=10 \
      --benchmark_report_aggregates_only=true --benchmark_min_time=0.2
    say "scenario benchmark: whole runs of scenarios/*.yaml, median of 21 runs, and the issue's planar and 3D targets"
    "$build_dir/tools/bench/scenario_benchmark"
    say "sweep benchmark: runs per second of a 256-run rocking-block sweep, 1 and 2 threads and mpirun -n 2, median of 7"
    "$build_dir/tools/bench/sweep_benchmark"
    say "scaling benchmark: many-body runs of growing size, median of 3 (docs/benchmarks.md)"
    "$build_dir/tools/bench/scaling_benchmark" --benchmark_repetitions=3 \
      --benchmark_report_aggregates_only=true
    ;;
esac
