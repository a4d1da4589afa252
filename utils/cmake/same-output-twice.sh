#!/bin/sh
# Determinism check (CTest): run a command twice; its standard output must be byte-identical.
set -eu
a=$("$@")
b=$("$@")
if [ "$a" != "$b" ]; then
    echo "outputs differ between two runs of: $*"
    printf '%s\n' "$a" > run1.txt
    printf '%s\n' "$b" > run2.txt
    diff run1.txt run2.txt || true
    exit 1
fi
echo "identical output ($(printf '%s' "$a" | wc -c) bytes) from two runs of: $*"
