/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RANK_LOCALITY_H
#define MRC_RANK_LOCALITY_H

#include "ns3/node.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Which nodes this process simulates, for model code that must act only on its own
 * nodes in a distributed run (ns-3's MPI engine).
 *
 * Without MPI (ns-3 not configured with --enable-mpi, or MpiInterface not enabled) every node is
 * local, whatever its system id. MrcDistributed (helper) gives programs the same answers.
 */
class MrcRankLocality
{
  public:
    /// \return true if ns-3's MPI interface is enabled (a distributed run)
    static bool IsDistributed();
    /// \return this process's rank (0 when not distributed)
    static uint32_t GetRank();
    /// \param node a node \return true if this process simulates it
    static bool IsLocal(Ptr<const Node> node);
};

} // namespace ns3

#endif /* MRC_RANK_LOCALITY_H */
