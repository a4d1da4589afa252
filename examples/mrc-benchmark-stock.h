/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-benchmark --transport=stock: the benchmark's permutation on a fat-tree built from ns-3's
 * own helpers only (point-to-point links, IPv4, Ipv4GlobalRouting with its equal-cost
 * multipath, OnOff UDP sources, packet sinks), nothing of the module: the "stock ns-3 UDP over
 * ECMP" floor that issue 17 measures the module against.
 */

#ifndef MRC_BENCHMARK_STOCK_H
#define MRC_BENCHMARK_STOCK_H

#include "mrc-benchmark-permutation.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{
namespace mrcbenchmark
{

/// What the stock run did.
struct StockResult
{
    double wallS{0};       //!< wall seconds of Simulator::Run
    uint64_t events{0};    //!< events executed by Simulator::Run
    uint64_t hops{0};      //!< packets sent by the root queue discs of every device
    uint32_t done{0};      //!< flows that received every byte
    uint64_t delivered{0}; //!< bytes the sinks received, at most each flow's
    Time lastFinish;       //!< the last completion among the flows that completed
    uint32_t hosts{0};     //!< hosts (flows)
};

/**
 * Build the stock fat-tree, run the permutation for at most one simulated second, and count.
 * The caller destroys the simulator afterwards.
 * \param setup the run \return what it did
 * \throws std::invalid_argument when k is odd or below 2, or dst does not name every host
 */
StockResult RunStock(const PermutationSetup& setup);

} // namespace mrcbenchmark
} // namespace ns3

#endif // MRC_BENCHMARK_STOCK_H
