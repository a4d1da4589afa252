#!/usr/bin/python3
"""Check that CMakeLists.txt lists every source and header of model/ and helper/ (and only
files that exist), and that test/examples-to-run.py reads the same way to ns-3's test.py as
to the module's CMake. (wscript only refuses waf-era trees: it lists no files.)

Run by CTest (test "file-lists"). Exit 1 with the differences if they disagree.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent


def cmake_list(text, var):
    m = re.search(r"set\(%s\s+(.*?)\)" % var, text, re.S)
    return sorted(m.group(1).split()) if m else []


def test_py_list(path, name):
    """The list `name` as ns-3's test.py (get_list_from_file) reads it: the first line that
    names it, up to the first ']', evaluated. Later `+=` extensions are invisible to it."""
    text = ""
    for line in path.read_text().splitlines(keepends=True):
        line = line.split("#", 1)[0]
        if name in line or text:
            text += line
            if "]" in text:
                return eval(text.split("=", 1)[1].strip())
    return []


def examples_to_run_problems():
    """Every example the module's CMake registers must also be seen by ns-3's test.py."""
    path = root / "test/examples-to-run.py"
    scope = {}
    exec(compile(path.read_text(), str(path), "exec"), scope)
    problems = []
    for name in ("cpp_examples", "python_examples"):
        full = scope.get(name, [])
        seen = test_py_list(path, name)
        if full != seen:
            problems.append("test/examples-to-run.py: ns-3's test.py reads %d of the %d %s "
                            "(keep each list in one literal, no '+=')" % (len(seen), len(full), name))
    return problems


def main():
    cmake = (root / "CMakeLists.txt").read_text()
    errors = []
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
    errors += examples_to_run_problems()
    for e in errors:
        print(e)
    print("file lists: %d problem(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
