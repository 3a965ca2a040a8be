#!/usr/bin/env bash
# routh's single entry point: installs the Debian packages routh needs, configures and builds with
# CMake + Ninja, then runs what you asked for.
#
#   tools/setup.sh [--sanitize] [build|main|test|bench]      (default: build)
#
#   build   install missing packages, configure and build
#   main    build, then run the main job (MAIN_JOB below)
#   test    build, then run the whole test suite with ctest
#   bench   build release, then run the impact-law benchmark (medians of 10 repetitions) and the
#           whole-run scenario benchmark (medians of 21 runs, with and without HDF5 output)
#
#   --sanitize   build in build/sanitize with AddressSanitizer + UndefinedBehaviorSanitizer
#                (RelWithDebInfo, no benchmarks) instead of build/release
#
# Environment: ROUTH_JOBS (parallel build/test jobs, default 2).
# Works from any directory; installs with apt-get (through sudo when not root) only when a package
# is missing, so a second run is quiet.
set -euo pipefail

# The main job, relative to the build directory's root and run from the repository root.
# One place to change when the main job becomes a simulator run (e.g. the rocking block).
MAIN_JOB=(tools/routh/routh run scenarios/rocking_block.yaml -o rocking_block.h5)

PACKAGES=(build-essential cmake ninja-build libeigen3-dev libboost-dev libyaml-cpp-dev libhdf5-dev
          doctest-dev libbenchmark-dev pkg-config python3-matplotlib)

say() { printf '[routh setup] %s\n' "$*"; }
die() { printf '[routh setup] error: %s\n' "$*" >&2; exit 1; }

usage() {
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

sanitize=0
mode=build
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sanitize) sanitize=1 ;;
    build|main|test|bench) mode="$1" ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
  shift
done
if [[ $sanitize -eq 1 && $mode == bench ]]; then
  die "bench measures the release build; run it without --sanitize"
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
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" </dev/null
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

install_packages

mkdir -p build
if [[ $sanitize -eq 1 ]]; then
  build_dir=build/sanitize
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROUTH_SANITIZE=ON \
    -DROUTH_BUILD_BENCHMARKS=OFF
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
else
  build_dir=build/release
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=Release
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
    say "scenario benchmark: whole runs of scenarios/*.yaml, median of 21 runs, and the issue's targets"
    "$build_dir/tools/bench/scenario_benchmark"
    ;;
esac
