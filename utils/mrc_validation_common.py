#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What utils/mrc-validation-tables.py's table renderers share: the results directory of one
`utils/mrc.sh validate` run (Results), the Missing error, value extraction from printed output
(find), reStructuredText tables (simple_table, grid_table, para) and number formats (f0-f2).
Standard library only.
"""

import csv
import json
import os
import re
import textwrap


class Missing(Exception):
    """A table's input is absent or its run failed."""


class Results:
    """The results directory of one `utils/mrc.sh validate` run."""

    def __init__(self, root):
        self.root = root
        self.info = {}
        path = os.path.join(root, "run-info.txt")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    key, _, value = line.strip().partition(" ")
                    self.info.setdefault(key, value)
        self.used = []  # experiments read by the table being rendered

    @property
    def quick(self):
        return self.info.get("quick") == "1"

    def dir(self, name):
        """The directory of experiment `name`, checked: it ran, and exited with status 0."""
        d = os.path.join(self.root, name)
        status = os.path.join(d, "status")
        if not os.path.exists(status):
            raise Missing(f"{name}: no results (no {os.path.relpath(status, self.root)})")
        with open(status) as f:
            code = f.read().strip()
        if code != "0":
            raise Missing(f"{name}: the run exited with status {code} (see {name}/stderr.txt)")
        if name not in self.used:
            self.used.append(name)
        return d

    def text(self, name, file="stdout.txt"):
        with open(os.path.join(self.dir(name), file)) as f:
            return f.read()

    def json(self, name, file):
        path = os.path.join(self.dir(name), file)
        if not os.path.exists(path):
            raise Missing(f"{name}: no {file}")
        with open(path) as f:
            return json.load(f)

    def csv(self, name, file):
        path = os.path.join(self.dir(name), file)
        if not os.path.exists(path):
            raise Missing(f"{name}: no {file}")
        with open(path, newline="") as f:
            return list(csv.DictReader(f))

    def command(self, name):
        with open(os.path.join(self.dir(name), "command")) as f:
            return f.read().strip()

    def wall(self, name):
        with open(os.path.join(self.dir(name), "wall_s")) as f:
            return int(f.read().strip())


def find(pattern, text, what, cast=float, group=1):
    """The first match of `pattern` in `text` (group `group`, converted), or Missing."""
    m = re.search(pattern, text, re.M)
    if not m:
        raise Missing(f"{what}: no line matching /{pattern}/ in the program's output")
    return cast(m.group(group))


# ------------------------------------------------------------------------------------------------
# reStructuredText writers


def simple_table(header, rows):
    """A simple table; header is a list of column titles (or a list of such lists for several
    title lines); every cell one line."""
    heads = header if isinstance(header[0], list) else [header]
    rows = [[str(c) for c in r] for r in rows]
    width = [max(len(h[i]) for h in heads) for i in range(len(heads[0]))]
    for r in rows:
        width = [max(w, len(c)) for w, c in zip(width, r)]
    width = [max(w, 1) for w in width]
    rule = "  ".join("=" * w for w in width)

    def line(cells):
        return "  ".join(c.ljust(w) for c, w in zip(cells, width)).rstrip()

    out = [rule] + [line(h) for h in heads] + [rule] + [line(r) for r in rows] + [rule]
    return "\n".join(out) + "\n"


def grid_table(header, rows, widths):
    """A grid table; cells are wrapped to `widths` characters."""
    def wrap(text, w):
        lines = []
        for para in str(text).split("\n"):
            lines += textwrap.wrap(para, w, break_long_words=False, break_on_hyphens=False) or [""]
        return lines

    def rule(ch):
        return "+" + "+".join(ch * (w + 2) for w in widths) + "+"

    def row(cells):
        wrapped = [wrap(c, w) for c, w in zip(cells, widths)]
        for cell, w in zip(wrapped, widths):
            for piece in cell:
                if len(piece) > w:
                    raise ValueError(f"grid cell word longer than {w}: {piece!r}")
        n = max(len(c) for c in wrapped)
        return ["| " + " | ".join((c[i] if i < len(c) else "").ljust(w)
                                  for c, w in zip(wrapped, widths)) + " |" for i in range(n)]

    out = [rule("-")] + row(header) + [rule("=")]
    for r in rows:
        out += row(r) + [rule("-")]
    return "\n".join(out) + "\n"


def para(text):
    """A paragraph wrapped to 99 columns, then a blank line."""
    return textwrap.fill(text, 99, break_long_words=False, break_on_hyphens=False) + "\n\n"


def f0(x):
    return f"{x:.0f}"


def f1(x):
    return f"{x:.1f}"


def f2(x):
    return f"{x:.2f}"
