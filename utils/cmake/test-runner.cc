/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner of the standalone build: runs the module's ns-3 TestSuites with ns-3's own
 * TestRunner (same options as ns-3's test-runner: --suite=NAME, --print-test-name-list, ...).
 */

#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
