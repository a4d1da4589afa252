/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RANK_PLAN_H
#define MRC_RANK_PLAN_H

#include "mrc-clos-spec.h"
#include "mrc-fabric-link.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Which rank of a distributed run (ns-3's MPI engine; the rank is the node's system id)
 * simulates each node of a Clos fabric.
 *
 * The T0s (index t over all pods, the same in every plane) are cut into contiguous blocks, one
 * per rank: T0 t is on rank floor(t x ranks / T0 count), so whole pods stay on one rank when
 * the ranks divide the pods. A host is on its T0's rank: host links, the busiest, never cross
 * ranks. T1 l of pod p is on the rank of T0 p x t0PerPod + floor(l x t0PerPod / t1PerPod), which
 * keeps a pod's T1s with its T0s and spreads the T1s of a two-tier fabric (one pod) over the
 * ranks as its T0s are; T2 i is on rank i mod ranks. Only T0-T1 links of a split pod and T1-T2
 * links cross ranks, so the distributed run's lookahead is their delay.
 *
 * One rank (the default) puts every node on system id 0, as an ordinary run.
 */
class MrcRankPlan
{
  public:
    /**
     * \param spec the fabric (valid)
     * \param ranks number of ranks, 1 .. spec.GetT0Count()
     * \throws std::invalid_argument if ranks is out of that range
     */
    MrcRankPlan(const MrcClosSpec& spec, uint32_t ranks);

    /// \return number of ranks
    uint32_t GetRanks() const;
    /// \param host host index \return its rank
    uint32_t OfHost(uint32_t host) const;
    /**
     * \param tier switch tier
     * \param index switch index within its tier and plane (T1s: pod x t1PerPod + l)
     * \return its rank, the same in every plane
     */
    uint32_t OfSwitch(MrcSwitchTier tier, uint32_t index) const;

  private:
    /// \param t T0 index \return its rank
    uint32_t OfT0(uint32_t t) const;

    MrcClosSpec m_spec; //!< the fabric
    uint32_t m_ranks;   //!< number of ranks
};

} // namespace ns3

#endif /* MRC_RANK_PLAN_H */
