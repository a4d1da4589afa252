#!/usr/bin/python3
"""Check that every doc/*.rst (the reference mrc.rst, the validation mrc-validation.rst) is
valid reStructuredText: docutils parses it without a warning
(malformed tables, inconsistent title levels, broken references), apart from the Sphinx-only
parts of ns-3's manual (the `replace.txt` include and the `highlight` directive).

Run by CTest (test "doc-rst"). Exit 1 with docutils' messages on a problem; exit 77 (CTest:
skipped) when python3-docutils is not installed.
"""
import io
import pathlib
import sys

try:
    import docutils.core
except ImportError:
    print("check-doc: python3-docutils is not installed: skipped")
    sys.exit(77)

failed = False
for doc in sorted((pathlib.Path(__file__).resolve().parent.parent / "doc").glob("*.rst")):
    text = doc.read_text()
    # Sphinx-only lines: keep the line count so that messages give the right line numbers.
    lines = ["" if line.startswith((".. include:: replace.txt", ".. highlight::")) else line
             for line in text.splitlines()]
    messages = io.StringIO()
    docutils.core.publish_doctree("\n".join(lines) + "\n",
                                  source_path=str(doc),
                                  settings_overrides={"warning_stream": messages,
                                                      "report_level": 2,
                                                      "halt_level": 5})
    problems = messages.getvalue().strip()
    if problems:
        print(problems)
        failed = True
    else:
        print(f"check-doc: {doc.name} parses cleanly")
sys.exit(1 if failed else 0)
