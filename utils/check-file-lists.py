#!/usr/bin/python3
"""Check that wscript and examples/wscript list the same files as the CMake build files.

Run by CTest (test "file-lists"). Exit 1 with the differences if they disagree.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent


def cmake_list(text, var):
    m = re.search(r"set\(%s\s+(.*?)\)" % var, text, re.S)
    return sorted(m.group(1).split()) if m else []


def main():
    cmake = (root / "CMakeLists.txt").read_text()
    waf = (root / "wscript").read_text()
    blocks = {
        "module.source": ("mrc_sources", r"module\.source = \[(.*?)\]"),
        "module_test.source": ("mrc_test_sources", r"module_test\.source = \[(.*?)\]"),
        "headers.source": ("mrc_headers", r"headers\.source = \[(.*?)\]"),
    }
    errors = []
    for name, (var, pattern) in blocks.items():
        m = re.search(pattern, waf, re.S)
        in_waf = sorted(re.findall(r"'([^']+)'", m.group(1))) if m else []
        in_cmake = cmake_list(cmake, var)
        if in_waf != in_cmake:
            errors.append("%s: wscript %s != CMakeLists.txt %s" % (name, in_waf, in_cmake))
    ex_cmake = sorted(re.findall(r"NAME\s+(\S+)", (root / "examples/CMakeLists.txt").read_text()))
    ex_waf = sorted(re.findall(r"create_ns3_program\('([^']+)'",
                               (root / "examples/wscript").read_text()))
    if ex_cmake != ex_waf:
        errors.append("examples: wscript %s != CMakeLists.txt %s" % (ex_waf, ex_cmake))
    for sources in (cmake_list(cmake, "mrc_sources"), cmake_list(cmake, "mrc_headers")):
        for f in sources:
            if not (root / f).is_file():
                errors.append("listed but missing: %s" % f)
    listed = set(cmake_list(cmake, "mrc_sources") + cmake_list(cmake, "mrc_headers"))
    for folder in ("model", "helper"):
        for f in sorted((root / folder).glob("*.[ch]*")):
            rel = f.relative_to(root).as_posix()
            if rel not in listed:
                errors.append("not listed in CMakeLists.txt: %s" % rel)
    for e in errors:
        print(e)
    print("file lists: %d problem(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
