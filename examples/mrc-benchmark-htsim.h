/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-benchmark --htsim=PATH: the same permutation run by an htsim binary (the UEC reference
 * simulator's htsim_uec, github.com/ultraethernet/uet-htsim, built by the user), for the
 * wall-time and memory ratios of the module against the field's reference packet simulator.
 */

#ifndef MRC_BENCHMARK_HTSIM_H
#define MRC_BENCHMARK_HTSIM_H

#include "mrc-benchmark-permutation.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace mrcbenchmark
{

/// What one htsim run took and did.
struct HtsimResult
{
    double wallS{0};         //!< wall seconds of the whole process (setup included)
    double peakRssMiB{0};    //!< its peak resident set (VmHWM, sampled; 0: ended unsampled)
    uint32_t flows{0};       //!< flows in the connection matrix
    uint32_t done{0};        //!< flows htsim reported finished
    double lastFinishUs{0};  //!< simulated time the last flow finished, us
    uint64_t newPackets{0};  //!< data packets sent for the first time ("New:")
    uint64_t rtxPackets{0};  //!< data packets retransmitted ("Rtx:")
    uint64_t bytes{0};       //!< bytes per flow
    std::string commandLine; //!< what was run (in a temporary directory, removed afterwards)
};

/**
 * The run's parameters: the benchmark's permutation (htsim's MTU is its packetSize plus 54;
 * the rate must be whole Gb/s and the delay whole ns), the binary and htsim's seed.
 */
struct HtsimSetup : PermutationSetup
{
    std::string binary; //!< path of an htsim_uec executable
    uint32_t seed{1};   //!< htsim's -seed
};

/**
 * Write the permutation as an htsim connection matrix and the k-ary fat-tree as an htsim
 * topology file, run the binary on them (-tm, -topo, -mtu, -seed, -end 1 s) in a temporary
 * directory, and read its output ("Flow ... finished at T" per flow, "New: N Rtx: R").
 * \param setup the run \return what it took and did
 * \throws std::invalid_argument when the binary is not an executable file or the rate or delay
 *         cannot be written in htsim's units; std::runtime_error when htsim fails (its last
 *         output lines in the message)
 */
HtsimResult RunHtsim(const HtsimSetup& setup);

/**
 * Fail before any simulation when --htsim cannot run: the binary is not an executable file,
 * or the links cannot be written in htsim's topology file.
 * \param binary the --htsim path \param rate link rate \param delay link delay
 * \throws std::invalid_argument naming the option and what it accepts
 */
void CheckHtsim(const std::string& binary, DataRate rate, Time delay);

/**
 * \param k fat-tree radix \param rate link rate \param delay link delay
 * \return htsim's topology file for a k-ary fat-tree of those links (3 tiers, podsize k^2/4)
 * \throws std::invalid_argument when the rate is not whole Gb/s or the delay not whole ns
 */
std::string HtsimFatTreeTopology(uint32_t k, DataRate rate, Time delay);

} // namespace mrcbenchmark
} // namespace ns3

#endif /* MRC_BENCHMARK_HTSIM_H */
