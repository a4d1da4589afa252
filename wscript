# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# waf-era ns-3 (3.35 and older) cannot build this module: it uses APIs of ns-3.37 and later
# (and C++17 throughout). This file exists so that such a tree stops at configure with the
# reason instead of failing later in the compiler. Supported: ns-3.37 up to current ns-3-dev,
# built with CMake (contrib/mrc/CMakeLists.txt) or standalone against an installed ns-3.37.

MESSAGE = ("contrib/mrc needs ns-3.37 or later (CMake build); this waf-based ns-3 tree "
           "(ns-3.35 or older) is not supported. Remove contrib/mrc, or use ns-3.37+ "
           "(see contrib/mrc/README.md)")


def configure(conf):
    conf.fatal(MESSAGE)


def build(bld):
    bld.fatal(MESSAGE)
