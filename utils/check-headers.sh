#!/bin/sh
# Parse every public header of the module on its own with Clang (-fsyntax-only, C++17): each
# header must be self-contained and free of constructs Clang rejects. This is the nearest check
# available here to ns-3's cppyy bindings (Cling is Clang), which cannot be installed on
# Debian 12; it does not run cppyy itself.
#
#   utils/check-headers.sh [BUILD_DIR]      (default build; needs a standalone build's
#                                            build/include/ns3 forwarding headers)
set -eu
BUILD=${1:-build}
CXX=${CXX_CLANG:-clang++}
command -v "$CXX" >/dev/null || { echo "check-headers: $CXX not found (apt-get install clang)"; exit 2; }
[ -d "$BUILD/include/ns3" ] || { echo "check-headers: no $BUILD/include/ns3 (build first)"; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0
bad=0
for h in "$BUILD"/include/ns3/*.h; do
  name=$(basename "$h")
  printf '#include "ns3/%s"\n' "$name" > "$TMP/t.cc"
  if ! "$CXX" -std=c++17 -fsyntax-only -Wall -Werror -I "$BUILD/include" -I /usr/include \
      "$TMP/t.cc" > "$TMP/out" 2>&1; then
    echo "FAIL $name"; sed 's/^/  /' "$TMP/out" | head -20
    bad=$((bad + 1))
  fi
  n=$((n + 1))
done
echo "check-headers: $((n - bad))/$n headers parse on their own with $CXX"
[ "$bad" -eq 0 ]
