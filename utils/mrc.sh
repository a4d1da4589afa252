#!/usr/bin/env bash
# One entry point for users and CI on Debian 12 (the README's two commands call it).
#
#   utils/mrc.sh main        install what is missing, build the library and mrc-ai-cluster, run the main job
#   utils/mrc.sh test        install what is missing, build, run every test (CTest)
#   utils/mrc.sh build       install what is missing and build only
#   utils/mrc.sh benchmark   build an optimised copy (no asserts) and run the benchmark
#   utils/mrc.sh deps        install the Debian packages only
#
# Idempotent: packages already present are not reinstalled, the build is incremental.
# Environment: MRC_BUILD_DIR (default: build/ in the repository), MRC_JOBS (default: nproc),
# MRC_CMAKE_OPTIONS (extra cmake -D options; a change reconfigures the build).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MRC_BUILD_DIR:-$here/build}
jobs=${MRC_JOBS:-$(nproc)}

# Debian packages the standalone build and its tests need (tshark: the Wireshark dissector
# test). ns3 and the -dev packages after libns3-dev work
# around Debian's ns-3 CMake export (see doc/mrc.rst, "Building").
packages=(g++ cmake make libns3-dev ns3 libgsl-dev libxml2-dev libsqlite3-dev libpython3-dev
          libboost-dev libgtest-dev python3 pybind11-dev python3-docutils
          tshark)

deps() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "mrc: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# Configure when there is no build yet or when the options differ from the last configure's
# (a stamp in the build directory); cmake's output is shown only when it fails.
configure() {
    local dir=$1
    shift
    # shellcheck disable=SC2206 # MRC_CMAKE_OPTIONS is a list of words on purpose
    local options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3
                   ${MRC_CMAKE_OPTIONS:-} "$@")
    local stamp="$dir/mrc-configure-options"
    if [ ! -f "$dir/CMakeCache.txt" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${options[*]}" ]; then
        mkdir -p "$dir"
        if ! cmake -S "$here" -B "$dir" "${options[@]}" >"$dir/mrc-configure.log" 2>&1; then
            cat "$dir/mrc-configure.log" >&2
            echo "mrc: cmake configure failed (log: $dir/mrc-configure.log)" >&2
            exit 1
        fi
        echo "${options[*]}" >"$stamp"
    fi
}

# build [target...]: install what is missing, configure if needed, build the targets (all
# when none is given).
build() {
    deps
    configure "$build"
    local targets=()
    for t in "$@"; do targets+=(--target "$t"); done
    cmake --build "$build" -j "$jobs" "${targets[@]}"
}

case "${1:-}" in
    deps) deps ;;
    build) build ;;
    main)
        # Only what the main job needs: the library and mrc-ai-cluster (no tests).
        build mrc-ai-cluster
        shift
        # The flagship comparison: one training job and one failure schedule on a 64-host,
        # 4-plane cluster over MRC/SRv6, RoCEv2/ECMP+BGP and RoCEv2 with 4 QPs per peer.
        # Results in ./mrc-ai-cluster-results (doc/mrc.rst, "Flagship comparison").
        exec "$build/bin/mrc-ai-cluster" "$@"
        ;;
    test)
        build
        cd "$build"
        exec ctest --output-on-failure -j "$jobs"
        ;;
    benchmark)
        deps
        shift
        bench="$build-release"
        configure "$bench" -DCMAKE_BUILD_TYPE=Release -DMRC_ASSERTS=OFF -DMRC_LOGGING=OFF \
            -DMRC_ENABLE_TESTS=OFF
        cmake --build "$bench" -j "$jobs" --target mrc-benchmark
        exec "$bench/bin/mrc-benchmark" "$@"
        ;;
    *)
        sed -n '2,13p' "$0" >&2
        exit 2
        ;;
esac
