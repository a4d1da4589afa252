#!/usr/bin/env bash
# Build the "mrc" module inside an ns-3 source tree (contrib/mrc) and run its test suites and
# the examples listed in test/examples-to-run.py through ns-3's own test.py.
#
#   utils/check-in-tree.sh [--ns3-dir DIR] [--profile P] [--jobs N] [--no-werror] [--fresh]
#                          [--no-apt] [--fullness F] [--mpi | --static-benchmark [--pgo]]
#
#   --ns3-dir DIR  an ns-3 source tree (ns-3.37 ... ns-3-dev). Default: Debian's ns-3.37
#                  source, fetched once with `apt-get source ns3` into $MRC_CACHE
#                  (default ~/.cache/mrc), outside this clone.
#   --profile P    ns-3 build profile (default: debug = -O0 -g, NS_ASSERT and NS_LOG on,
#                  -Werror; the fastest to compile, and the tests want asserts).
#   --jobs N       parallel compile jobs (default: nproc; `./ns3 build` would use nproc-1).
#   --no-werror    do not treat compiler warnings as errors.
#   --fresh        wipe the tree's build directories and configure from scratch.
#   --no-apt       do not install packages / fetch sources (fail if something is missing).
#   --fullness F   test.py fullness: QUICK (default), EXTENSIVE or TAKES_FOREVER.
#   --mpi          configure ns-3 with MPI (--enable-mpi, the mpi module enabled: ns-3's
#                  distributed simulator; ns-3 then defines NS3_MPI and libmrc links it),
#                  installing libopenmpi-dev and openmpi-bin. Without --ns3-dir the tree is a
#                  separate copy of Debian's ns-3.37 source, $MRC_CACHE/ns3-3.37-mpi/ns-3.37
#                  (unpacked from the cached source package), so that switching between the
#                  two does not rebuild everything. OpenMPI refuses to start as root: the tests
#                  run with OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (as root)
#                  and OMPI_MCA_rmaps_base_oversubscribe=1 (more ranks than cores).
#   --static-benchmark  build no tests: only mrc-benchmark, as one static, link-time-optimised
#                  program (ns-3's optimized profile, -DNS3_STATIC=ON
#                  -DNS3_LINK_TIME_OPTIMIZATION=ON), the build behind the k = 16 figures of
#                  doc/mrc-validation.rst, and print its path on a last line " benchmark: PATH"
#                  (utils/mrc.sh benchmark-static runs it). Without --ns3-dir the tree is a
#                  separate copy of Debian's ns-3.37 source, $MRC_CACHE/ns3-3.37-static/ns-3.37,
#                  as for --mpi. About 10 minutes on 2 cores the first time.
#   --pgo          with --static-benchmark: the same program, profile-guided (GCC's
#                  -fprofile-generate, a training run of `mrc-benchmark --k=8
#                  --transport=mrc,udp`, then -fprofile-use -fprofile-partial-training), in
#                  its own copy ($MRC_CACHE/ns3-3.37-static-pgo/ns-3.37). Two full builds and
#                  the training, about 25 minutes on 2 cores, again whenever the module
#                  changed (a profile is only valid for the sources it was made from);
#                  otherwise the last program is reused.
#
# Only the ns-3 libraries mrc needs are built (--enable-modules=mrc;csma), and of ns-3's tests
# and examples only mrc's (--filter-module-examples-and-tests=mrc; ns-3's src/test system
# suites still go into test-runner and are not run). test.py runs the suites named mrc* and
# the examples of test/examples-to-run.py. Re-runs reuse the configured build and recompile
# only the module files whose content changed. Logs: <tree>/mrc-{configure,build,test}.log.
# Exit status: 0 if everything built and every suite and example passed, non-zero otherwise.
set -euo pipefail

MODULE=mrc
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${MRC_CACHE:-$HOME/.cache/mrc}
NS3_DIR=""
PROFILE=debug
JOBS=$(nproc 2>/dev/null || echo 2)
WERROR=1
FRESH=0
APT=1
FULLNESS=QUICK
MPI=0
STATIC=0
PGO=0

die() { echo "check-in-tree: error: $*" >&2; exit 1; }
log() { echo "check-in-tree: $*"; }
usage() { sed -n '2,/^set -e/{/^#/p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case $1 in
    --ns3-dir) NS3_DIR=${2:?}; shift 2 ;;
    --ns3-dir=*) NS3_DIR=${1#*=}; shift ;;
    --profile) PROFILE=${2:?}; shift 2 ;;
    --profile=*) PROFILE=${1#*=}; shift ;;
    --jobs|-j) JOBS=${2:?}; shift 2 ;;
    --jobs=*) JOBS=${1#*=}; shift ;;
    --fullness) FULLNESS=${2:?}; shift 2 ;;
    --fullness=*) FULLNESS=${1#*=}; shift ;;
    --no-werror) WERROR=0; shift ;;
    --fresh) FRESH=1; shift ;;
    --no-apt) APT=0; shift ;;
    --mpi) MPI=1; shift ;;
    --static-benchmark) STATIC=1; shift ;;
    --pgo) PGO=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

[ -f "$SRC_DIR/CMakeLists.txt" ] && [ -f "$SRC_DIR/test/examples-to-run.py" ] \
  || die "$SRC_DIR does not look like the $MODULE module"
if [ $STATIC -eq 1 ]; then
  [ $MPI -eq 0 ] || die "--static-benchmark and --mpi do not go together (one process, no MPI)"
  PROFILE=optimized
  WERROR=0
fi
[ $PGO -eq 0 ] || [ $STATIC -eq 1 ] || die "--pgo goes with --static-benchmark"
# the separate copy of Debian's source that --mpi or --static-benchmark builds in (none: the
# plain copy)
VARIANT=""
[ $MPI -eq 1 ] && VARIANT=mpi
[ $STATIC -eq 1 ] && VARIANT=static
[ $PGO -eq 1 ] && VARIANT=static-pgo

T_START=$(date +%s)
phase() { # phase TEXT: log TEXT with the seconds elapsed since the start
  log "[$(printf '%4ds' $(($(date +%s) - T_START)))] $*"
}

# ------------------------------------------------------------------------------------------
# 1. Packages (Debian 12). Only touches apt when something is missing.
# ------------------------------------------------------------------------------------------
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; fi
fi
apt_updated=0
apt_update() {
  [ $apt_updated -eq 1 ] && return 0
  $SUDO apt-get update -qq
  apt_updated=1
}
ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ $APT -eq 1 ] || die "missing packages (and --no-apt given): ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ] || die "need root or sudo to install: ${missing[*]}"
  log "installing: ${missing[*]}"
  apt_update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}
# compiler + build tools for ns-3 (CMake >= 3.10 for 3.37, 3.25 for ns-3-dev: Debian 12 has
# 3.25.1); python3 runs ./ns3 and test.py; Boost headers are used by mrc.
# dpkg-dev, bzip2, xz-utils: `apt-get source` unpacks the Debian source package.
# lld: ns-3 links with it when present (much faster than ld.bfd on debug objects).
ensure_packages g++ cmake ninja-build lld python3 libboost-dev dpkg-dev bzip2 xz-utils
# --mpi: OpenMPI (headers, mpicxx wrappers for CMake's FindMPI, and mpiexec)
if [ $MPI -eq 1 ]; then
  ensure_packages libopenmpi-dev openmpi-bin
fi

PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

# ------------------------------------------------------------------------------------------
# 2. The ns-3 tree
# ------------------------------------------------------------------------------------------
find_debian_tree() {
  local d
  for d in "$CACHE"/ns3-3.37*/ns-3.37 "$CACHE"/ns3-*/ns-3.*; do
    case $d in "$CACHE"/ns3-*-mpi*/* | "$CACHE"/ns3-*-static*/*) continue ;; esac # variants
    if [ -x "$d/ns3" ] && [ -f "$d/test.py" ]; then echo "$d"; return 0; fi
  done
  return 1
}
ensure_deb_src() {
  if grep -qsE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources \
     || grep -qsE '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list; then
    return 0
  fi
  log "adding a deb-src entry for Debian"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed -E 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' \
      /etc/apt/sources.list.d/debian.sources \
      | $SUDO tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    sed -n -E 's/^deb[[:space:]]/deb-src /p' /etc/apt/sources.list \
      | $SUDO tee /etc/apt/sources.list.d/debian-src.list >/dev/null
  else
    die "no Debian apt source found to derive a deb-src entry from"
  fi
  apt_updated=0
}

# --mpi, --static-benchmark: a separate copy of Debian's source each, unpacked from the source
# package that `apt-get source` left in $CACHE (the same files, Debian's patches applied), never
# configured otherwise.
find_debian_variant_tree() {
  local d
  for d in "$CACHE"/ns3-*-"$VARIANT"/ns-3.*; do
    if [ -x "$d/ns3" ] && [ -f "$d/test.py" ]; then echo "$d"; return 0; fi
  done
  return 1
}
latest_dsc() { # the newest ns3_*.dsc in $CACHE, or nothing
  local f d=""
  for f in "$CACHE"/ns3_*.dsc; do [ -f "$f" ] && d=$f; done
  echo "$d"
}
if [ -z "$NS3_DIR" ] && [ -n "$VARIANT" ]; then
  if ! NS3_DIR=$(find_debian_variant_tree); then
    dsc=$(latest_dsc)
    if [ -z "$dsc" ]; then
      [ $APT -eq 1 ] || die "no ns-3 source package in $CACHE (and --no-apt given)"
      ensure_deb_src
      apt_update
      mkdir -p "$CACHE"
      log "fetching Debian's ns-3 source package into $CACHE"
      (cd "$CACHE" && apt-get source --download-only -qq ns3 >/dev/null) \
        || die "apt-get source --download-only ns3 failed"
      dsc=$(latest_dsc)
      [ -n "$dsc" ] || die "apt-get source gave no ns3_*.dsc in $CACHE"
    fi
    # Version: [epoch:]upstream-debian revision -> upstream (3.37)
    ns3_upstream=$(sed -nE 's/^Version:[[:space:]]*([0-9]+:)?([^-]+)-.*$/\2/p' "$dsc" | head -n 1)
    [ -n "$ns3_upstream" ] || die "no Version in $dsc"
    variant_top="$CACHE/ns3-$ns3_upstream-$VARIANT"
    variant_tmp="$CACHE/.mrc-unpack-$VARIANT.$$"
    log "unpacking $(basename "$dsc") into $variant_top (the $VARIANT tree)"
    rm -rf "$variant_tmp"
    if ! dpkg-source -x "$dsc" "$variant_tmp" > "$CACHE/.mrc-unpack-$VARIANT.log" 2>&1; then
      cat "$CACHE/.mrc-unpack-$VARIANT.log" >&2
      rm -rf "$variant_tmp"
      die "dpkg-source -x $dsc failed"
    fi
    rm -rf "$variant_top"
    mv "$variant_tmp" "$variant_top"
    NS3_DIR=$(find_debian_variant_tree) \
      || die "no ns-3 tree in $variant_top after unpacking $dsc"
  fi
fi
if [ -z "$NS3_DIR" ]; then
  if ! NS3_DIR=$(find_debian_tree); then
    [ $APT -eq 1 ] || die "no ns-3 source in $CACHE (and --no-apt given)"
    ensure_deb_src
    apt_update
    mkdir -p "$CACHE"
    log "fetching Debian's ns-3 source into $CACHE"
    (cd "$CACHE" && apt-get source -qq ns3 >/dev/null) || die "apt-get source ns3 failed"
    NS3_DIR=$(find_debian_tree) || die "apt-get source ns3 gave no ns-3 tree in $CACHE"
  fi
fi
NS3_DIR=$(cd "$NS3_DIR" && pwd) || die "no such directory: $NS3_DIR"
[ -f "$NS3_DIR/ns3" ] && [ -f "$NS3_DIR/test.py" ] && [ -d "$NS3_DIR/contrib" ] \
  || die "$NS3_DIR is not an ns-3 source tree (ns3, test.py, contrib/)"
case "$NS3_DIR/" in "$SRC_DIR"/*) die "the ns-3 tree must be outside the module clone" ;; esac
# one run per tree at a time (a second run waits)
if command -v flock >/dev/null; then
  exec 9>"$NS3_DIR/.mrc-check-in-tree.lock"
  flock -n 9 || { log "waiting for another run on $NS3_DIR"; flock 9; }
fi
NS3_VERSION=$(cat "$NS3_DIR/VERSION" 2>/dev/null || echo unknown)
if [ $MPI -eq 1 ]; then
  log "module $SRC_DIR -> ns-$NS3_VERSION tree $NS3_DIR (profile $PROFILE, -j$JOBS, MPI)"
elif [ $STATIC -eq 1 ]; then
  log "module $SRC_DIR -> ns-$NS3_VERSION tree $NS3_DIR (profile $PROFILE, -j$JOBS, static" \
    "LTO mrc-benchmark only)"
else
  log "module $SRC_DIR -> ns-$NS3_VERSION tree $NS3_DIR (profile $PROFILE, -j$JOBS)"
fi
phase "setup done"

# ------------------------------------------------------------------------------------------
# 3. Mirror the module's working tree into contrib/mrc (no .git, no build directories).
#    By content, like `rsync -r --checksum --delete`: unchanged files are left untouched, so
#    they are not recompiled; new or changed files get the current time, so they always are
#    (copying source mtimes would miss a change whose file is older than the last build).
# ------------------------------------------------------------------------------------------
DEST="$NS3_DIR/contrib/$MODULE"
list_module_files() {
  if command -v git >/dev/null && git -C "$SRC_DIR" rev-parse --is-inside-work-tree \
       >/dev/null 2>&1; then
    # tracked + untracked files, minus what .gitignore excludes
    git -C "$SRC_DIR" ls-files -z --cached --others --exclude-standard
  else
    (cd "$SRC_DIR" && find . -path ./.git -prune -o \( -type f -o -type l \) -print0 \
       | sed -z 's|^\./||')
  fi
}
# build trees that may sit in the clone (standalone builds, IDE dirs)
EXCLUDE_RE='^(\.git|build[^/]*|cmake-build[^/]*|cmake-cache|_build|\.cache|\.vscode|\.idea)/'
SYNC_PY=$(cat <<'EOF'
import filecmp, os, re, shutil, sys
src, dest, rx = sys.argv[1], sys.argv[2], re.compile(sys.argv[3])
files = {p for p in sys.stdin.buffer.read().decode().split("\0")
         if p and not rx.match(p) and os.path.isfile(os.path.join(src, p))}
updated = removed = 0
for p in sorted(files):
    s, d = os.path.join(src, p), os.path.join(dest, p)
    if os.path.isfile(d) and not os.path.islink(d) and filecmp.cmp(s, d, shallow=False):
        if (os.stat(s).st_mode ^ os.stat(d).st_mode) & 0o777:
            shutil.copymode(s, d)
        continue
    os.makedirs(os.path.dirname(d), exist_ok=True)
    if os.path.lexists(d) and not os.path.isfile(d):
        shutil.rmtree(d) if os.path.isdir(d) and not os.path.islink(d) else os.remove(d)
    shutil.copyfile(s, d + ".mrc-tmp")
    shutil.copymode(s, d + ".mrc-tmp")
    os.replace(d + ".mrc-tmp", d)
    updated += 1
for root, dirs, names in os.walk(dest, topdown=False):
    for n in names:
        if os.path.relpath(os.path.join(root, n), dest) not in files:
            os.remove(os.path.join(root, n))
            removed += 1
    for n in dirs:
        full = os.path.join(root, n)
        if not os.path.islink(full) and not os.listdir(full):
            os.rmdir(full)
print(f"{len(files)} files, {updated} new or changed, {removed} removed")
EOF
)
mkdir -p "$DEST"
sync_result=$(list_module_files | "$PY" -c "$SYNC_PY" "$SRC_DIR" "$DEST" "$EXCLUDE_RE") \
  || die "copying the module into $DEST failed"
log "synced $DEST: $sync_result"

# ------------------------------------------------------------------------------------------
# 4. Configure (only when the options changed or nothing is configured yet)
# ------------------------------------------------------------------------------------------
cd "$NS3_DIR"
# `./ns3` exports CLICOLOR=1 (3.37: always), which makes ns-3's CMake add
# -fdiagnostics-color=always. CMake re-runs itself during `cmake --build` whenever the module's
# CMakeLists.txt changes; without the same CLICOLOR the flags change and *everything* rebuilds.
export CLICOLOR=1
strip_ansi() { sed -u 's/\x1b\[[0-9;]*[mK]//g'; }
# csma: ns-3's own src/test (always linked into test-runner) compiles ns3tcp-socket-test-suite.cc
# as soon as applications and point-to-point are enabled, but that file also needs csma
# (ns-3 bug, 3.37 .. ns-3-dev). Without csma it fails to compile -- or, if Debian's
# libns3-dev is installed, picks /usr/include/ns3/csma-helper.h and fails to link.
MODULES="$MODULE"
[ -d src/csma ] && [ $STATIC -eq 0 ] && MODULES="$MODULE;csma" # --static-benchmark: no tests
# --mpi: ns-3's mpi module (mrc links it when ns-3 is configured with MPI)
if [ $MPI -eq 1 ]; then
  [ -d src/mpi ] || die "$NS3_DIR has no src/mpi"
  MODULES="$MODULES;mpi"
fi
CONFIG_ARGS=(-G Ninja -d "$PROFILE" --enable-examples
  --enable-modules="$MODULES" --filter-module-examples-and-tests="$MODULE"
  --disable-python-bindings --disable-gtk)
[ $STATIC -eq 1 ] && CONFIG_ARGS+=(--disable-tests) || CONFIG_ARGS+=(--enable-tests)
[ $WERROR -eq 1 ] && CONFIG_ARGS+=(--enable-werror) || CONFIG_ARGS+=(--disable-werror)
if [ $MPI -eq 1 ]; then
  CONFIG_ARGS+=(--enable-mpi)
fi
# CMake options after ./ns3 configure's "--" (ns-3.37's ns3 has no switch for these two)
CMAKE_ARGS=(-DPython3_EXECUTABLE="$PY")
if [ $STATIC -eq 1 ]; then
  # GCC's LTO objects need a linker with GCC's plugin (ld.bfd, the default); ns-3 picks lld
  # (installed above) when it finds it, and lld links them into nothing ("undefined symbol:
  # main"). ns-3 looks for a fast linker only while USING_FAST_LINKER is unset.
  CMAKE_ARGS+=(-DNS3_STATIC=ON -DNS3_LINK_TIME_OPTIMIZATION=ON -DUSING_FAST_LINKER=BFD)
fi
STAMP=cmake-cache/.mrc-check-in-tree.stamp
if [ $FRESH -eq 1 ]; then
  log "--fresh: removing $NS3_DIR/build and cmake-cache"
  rm -rf build cmake-cache
fi
# configure_tree: ./ns3 configure with CONFIG_ARGS and CMAKE_ARGS, unless cmake-cache was
# configured with exactly these (STAMP).
configure_tree() {
  local lock f
  if [ -f cmake-cache/build.ninja ] && [ -f "$STAMP" ] \
     && [ "$(cat "$STAMP")" = "${CONFIG_ARGS[*]} -- ${CMAKE_ARGS[*]}" ]; then
    log "already configured with: ${CONFIG_ARGS[*]} -- ${CMAKE_ARGS[*]}"
    # test.py and ./ns3 find the programs through the lock file, which names the profile of the
    # last configured build: another cache configured in this tree since (e.g. an optimized copy,
    # cmake -B cmake-cache-opt) leaves it pointing at that one's programs. Re-running this cache's
    # configure step writes it back.
    lock=
    for f in .lock-ns3_*_build; do [ -f "$f" ] && lock=$f && break; done
    if [ -n "$lock" ] && ! grep -qx "BUILD_PROFILE = '$PROFILE'" "$lock"; then
      log "$lock names another build ($(grep '^BUILD_PROFILE' "$lock" || echo 'no profile')):" \
        "re-running cmake-cache's configure step"
      cmake cmake-cache > mrc-configure-refresh.log 2>&1 \
        || { tail -n 40 mrc-configure-refresh.log; die "cmake cmake-cache failed"; }
      grep -qx "BUILD_PROFILE = '$PROFILE'" "$lock" \
        || die "$lock still does not name profile $PROFILE after re-running cmake-cache's configure"
    fi
  else
    # a cache made with another generator cannot be reused
    [ -f cmake-cache/CMakeCache.txt ] && [ ! -f cmake-cache/build.ninja ] \
      && rm -rf cmake-cache
    log "configuring: ./ns3 configure ${CONFIG_ARGS[*]} -- ${CMAKE_ARGS[*]}"
    rm -f "$STAMP"
    if ! "$PY" ./ns3 configure "${CONFIG_ARGS[@]}" -- "${CMAKE_ARGS[@]}" 2>&1 \
         | strip_ansi > mrc-configure.log; then
      tail -n 60 mrc-configure.log
      die "ns-3 configure failed (full log: $NS3_DIR/mrc-configure.log)"
    fi
    sed -n '/^Modules configured to be built/,/^Modules that cannot/p' mrc-configure.log \
      | grep -qE "(^|[[:space:]])$MODULE([[:space:]]|$)" \
      || { tail -n 60 mrc-configure.log; die "module $MODULE is not among the modules to build"; }
    if [ $MPI -eq 1 ]; then
      sed -n '/^Modules configured to be built/,/^Modules that cannot/p' mrc-configure.log \
        | grep -qE "(^|[[:space:]])mpi([[:space:]]|$)" \
        || { tail -n 60 mrc-configure.log
             die "--mpi: module mpi is not among the modules to build"; }
    fi
    echo "${CONFIG_ARGS[*]} -- ${CMAKE_ARGS[*]}" > "$STAMP"
  fi
  phase "configured"
}

# ------------------------------------------------------------------------------------------
# 5. Build (cmake re-runs itself if contrib/mrc/CMakeLists.txt changed)
# ------------------------------------------------------------------------------------------
BUILD_LOG="$NS3_DIR/mrc-build.log"
# build_tree: build cmake-cache (--static-benchmark: mrc-benchmark only); fail with the log.
# Sets n_warn, the number of compiler warnings in the module (the summary reports it).
build_tree() {
  local targets=() warnings
  [ $STATIC -eq 1 ] && targets=(--target mrc-benchmark)
  if ! cmake --build cmake-cache -j "$JOBS" "${targets[@]}" 2>&1 | strip_ansi > "$BUILD_LOG"; then
    if grep -q '^FAILED:' "$BUILD_LOG"; then
      sed -n '/^FAILED:/,$p' "$BUILD_LOG" | grep -vE '^(/usr/bin/|: && )' | head -n 60
    else
      tail -n 40 "$BUILD_LOG"
    fi
    die "build failed (full log: $BUILD_LOG)"
  fi
  warnings=$(grep -E "contrib/$MODULE/.*warning:" "$BUILD_LOG" | sed "s|^.*contrib/$MODULE/||" \
    | sort -u || true)
  n_warn=$(printf '%s' "$warnings" | grep -c . || true)
  if [ "$n_warn" -gt 0 ]; then
    log "$n_warn compiler warning(s) in the module (not errors: deprecations are exempt):"
    printf '%s\n' "$warnings" | head -n 20
  fi
  phase "built ($(grep -cE '^\[[0-9]+/[0-9]+\]' "$BUILD_LOG" || true) build steps; log $BUILD_LOG)"
}

# find_benchmark: the mrc-benchmark program of this tree, in $bench.
find_benchmark() {
  local f
  bench=""
  for f in build/contrib/"$MODULE"/examples/ns3*-mrc-benchmark-"$PROFILE"; do
    [ -x "$f" ] && bench="$NS3_DIR/$f"
  done
  [ -n "$bench" ] || die "no mrc-benchmark program in $NS3_DIR/build/contrib/$MODULE/examples"
}

# pgo_build (--pgo): build mrc-benchmark instrumented (-fprofile-generate), train it, build it
# again with the profile (-fprofile-use), and print its path. The profile's files are named
# after the object files, so both builds use this tree's cmake-cache; a profile is valid only
# for the sources it was made from, so both are redone whenever the synced sources (or ns-3's
# or the flags) changed since the last profile-guided build.
pgo_build() {
  local base=("${CMAKE_ARGS[@]}") profile_dir="$NS3_DIR/mrc-pgo-profile" sources train
  local pgo_stamp=cmake-cache/.mrc-pgo-sources
  local gen_flags="-fprofile-generate -fprofile-update=single -fprofile-dir=$profile_dir"
  local use_flags="-fprofile-use -fprofile-partial-training -Wno-missing-profile"
  use_flags+=" -fprofile-dir=$profile_dir"
  local use=(-DCMAKE_CXX_FLAGS="$use_flags" -DCMAKE_EXE_LINKER_FLAGS=-fprofile-use)
  sources=$( (cd "$NS3_DIR" && find contrib/"$MODULE" src CMakeLists.txt build-support -type f \
                \( -name '*.cc' -o -name '*.h' -o -name 'CMakeLists.txt' -o -name '*.cmake' \) \
                -print0 | sort -z | xargs -0 sha256sum; echo "${CONFIG_ARGS[*]} ${use[*]}") \
              | sha256sum | cut -d' ' -f1)
  CMAKE_ARGS=("${base[@]}" "${use[@]}")
  if [ -f "$pgo_stamp" ] && [ "$(cat "$pgo_stamp")" = "$sources" ]; then
    log "--pgo: the sources are those of the last profile-guided build: reusing it"
    configure_tree
    build_tree
  else
    rm -f "$pgo_stamp"
    rm -rf "$profile_dir"
    CMAKE_ARGS=("${base[@]}" -DCMAKE_CXX_FLAGS="$gen_flags"
                -DCMAKE_EXE_LINKER_FLAGS=-fprofile-generate)
    log "--pgo: 1/3 the instrumented build"
    configure_tree
    build_tree
    find_benchmark
    train=$(mktemp -d)
    log "--pgo: 2/3 training: mrc-benchmark --k=8 --transport=mrc,udp" \
      "(log: $NS3_DIR/mrc-pgo-training.log)"
    if ! (cd "$train" && "$bench" --k=8 --transport=mrc,udp) \
         > "$NS3_DIR/mrc-pgo-training.log" 2>&1; then
      rm -rf "$train"
      tail -n 20 "$NS3_DIR/mrc-pgo-training.log"
      die "--pgo: the training run failed"
    fi
    rm -rf "$train"
    [ -n "$(find "$profile_dir" -name '*.gcda' -print -quit 2>/dev/null)" ] \
      || die "--pgo: the training run wrote no profile into $profile_dir"
    phase "trained ($(find "$profile_dir" -name '*.gcda' | wc -l) profile files)"
    log "--pgo: 3/3 the profile-guided build"
    CMAKE_ARGS=("${base[@]}" "${use[@]}")
    configure_tree
    build_tree
    echo "$sources" > "$pgo_stamp"
  fi
  find_benchmark
  echo " benchmark: $bench"
}

if [ $PGO -eq 1 ]; then
  pgo_build
  exit 0
fi
configure_tree
build_tree
if [ $STATIC -eq 1 ]; then
  find_benchmark
  echo " benchmark: $bench"
  exit 0
fi

# ------------------------------------------------------------------------------------------
# 6. Test suites and examples through test.py
# ------------------------------------------------------------------------------------------
# suites: the test-runner's suites (not examples) whose name starts with the module's name
mapfile -t SUITES < <("$PY" ./test.py --no-build --list --nocolor 2>/dev/null \
  | awk -v m="$MODULE" 'NF >= 2 && $1 !~ /^(example|pyexample)$/ && index($2, m) == 1 \
                        { print $2 }' | sort -u || true)
# examples expected to run: entries of examples-to-run.py whose do_run is true
mapfile -t EXAMPLES < <("$PY" - "$DEST/test/examples-to-run.py" <<'EOF'
import sys
env = {}
exec(open(sys.argv[1]).read(), env)
for entry in env.get("cpp_examples", []):
    name, do_run = entry[0], entry[1]
    try:
        run = bool(eval(do_run, {"True": True, "False": False}))
    except Exception:
        run = False  # a condition only test.py knows (e.g. ENABLE_REAL_TIME): not required
    if run:
        print(name)
EOF
)
log "test suites: ${SUITES[*]:-(none)}"
log "examples to run: ${#EXAMPLES[@]}"
[ ${#SUITES[@]} -gt 0 ] || die "test.py lists no $MODULE test suite"

TEST_LOG="$NS3_DIR/mrc-test.log"
if [ $MPI -eq 1 ]; then
  # for tests and examples that start mpiexec: OpenMPI refuses root without these, and
  # refuses more ranks than cores without oversubscription
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  export OMPI_MCA_rmaps_base_oversubscribe=1
fi
: > "$TEST_LOG"
status=0
# --suite=mrc* (fnmatch) runs the module's suites in one test.py run; --constrain=example runs
# the examples-to-run.py entries whose programs were built: with the filter above, mrc's only.
# (ns-3.37's `--example` cannot pass arguments, hence not used.)
"$PY" ./test.py --no-build --nocolor --fullness="$FULLNESS" --suite="$MODULE*" \
  >> "$TEST_LOG" 2>&1 || status=1
if [ ${#EXAMPLES[@]} -gt 0 ]; then
  "$PY" ./test.py --no-build --nocolor --fullness="$FULLNESS" --constrain=example \
    >> "$TEST_LOG" 2>&1 || status=1
fi
# result lines look like "PASS: TestSuite x" (3.37) or "[1/2] PASS: TestSuite x" (newer)
RESULTS=$(sed -nE 's/^(\[[0-9]+\/[0-9]+\] )?((PASS|FAIL|CRASH|SKIP|VALGR|TIMEOUT|IGNORE)[A-Z]*:)/\2/p' \
  "$TEST_LOG" || true)
echo "$RESULTS"
n_suite_pass=$(echo "$RESULTS" | grep -cE '^PASS: (TestSuite )?'"$MODULE" || true)
n_ex_pass=$(echo "$RESULTS" | grep -cE '^PASS: Example ' || true)
n_bad=$(echo "$RESULTS" | grep -cvE '^(PASS|SKIP)' || true)
[ -z "$RESULTS" ] && n_bad=0
if [ "$n_bad" -gt 0 ] || [ $status -ne 0 ]; then
  status=1
  # test.py hides the programs' output: re-run what failed, directly, and show its tail.
  runner=$(ls build/utils/ns3*-test-runner* 2>/dev/null | head -n 1 || true)
  echo "$RESULTS" | sed -nE 's/^(FAIL|CRASH|VALGR[A-Z]*|TIMEOUT): TestSuite (.*)$/\2/p' \
    | while read -r suite; do
        echo "---- $suite (test-runner --suite=$suite) ----"
        [ -n "$runner" ] && { (timeout 600 "$runner" --suite="$suite" --fullness="$FULLNESS" \
          2>&1 || true) 2>&1 | tail -n 15; }
      done
  echo "$RESULTS" | sed -nE 's/^(FAIL|CRASH|VALGR[A-Z]*|TIMEOUT): Example (.*)$/\2/p' \
    | while read -r prog args; do
        exe=""
        for f in "$NS3_DIR/build/$(dirname "$prog")"/ns3*-"$(basename "$prog")"{,-"$PROFILE"}; do
          [ -x "$f" ] && exe=$f
        done
        echo "---- example $(basename "$prog") $args ----"
        [ -n "$exe" ] || continue
        out=$(mktemp -d)
        # shellcheck disable=SC2086
        (cd "$out" && timeout 600 "$exe" $args 2>&1 || true) 2>&1 | tail -n 15
        rm -rf "$out"
      done
fi
if [ "$n_ex_pass" -lt ${#EXAMPLES[@]} ]; then
  log "expected ${#EXAMPLES[@]} passing examples from examples-to-run.py, got $n_ex_pass" \
      "(an example not built, misnamed, or failing?)"
  status=1
fi
if [ "$n_suite_pass" -ne ${#SUITES[@]} ]; then
  log "expected ${#SUITES[@]} passing suites, got $n_suite_pass"
  status=1
fi
phase "tested (log $TEST_LOG)"

echo "============================================================"
if [ $MPI -eq 1 ]; then
  echo " $MODULE in ns-$NS3_VERSION ($NS3_DIR), profile $PROFILE, MPI"
else
  echo " $MODULE in ns-$NS3_VERSION ($NS3_DIR), profile $PROFILE"
fi
echo " suites passed:   $n_suite_pass / ${#SUITES[@]}"
echo " examples passed: $n_ex_pass / ${#EXAMPLES[@]}"
echo " module warnings: $n_warn"
echo " wall time:       $(( $(date +%s) - T_START )) s"
if [ $status -eq 0 ]; then echo " RESULT: PASS"; else echo " RESULT: FAIL"; fi
echo "============================================================"
exit $status
