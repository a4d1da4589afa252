/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-ai-cluster --jobs: the fabrics' runs side by side, each in a child process.
 */

#ifndef MRC_AI_CLUSTER_JOBS_H
#define MRC_AI_CLUSTER_JOBS_H

#include "ns3/mrc-cluster-scenario.h"
#include "ns3/mrc-scenario-result.h"

#include <functional>
#include <vector>

namespace ns3
{
namespace mrcaicluster
{

/**
 * Run every scenario and report each result in the scenarios' order.
 *
 * With jobs = 1 they run one after the other in this process. With more, up to `jobs` run at
 * once, each in a child process (fork) that sends its MrcScenarioResult back through a pipe
 * (MrcScenarioResultCodec); a result is reported once it and every one before it are in, so
 * what is printed and written does not depend on `jobs` (each run already starts from its own
 * seed and streams). The runs are ns-3 simulations of their own: nothing is shared but the
 * scenarios' configuration, made before the first fork. Each run prints its wall time on
 * stderr when it ends.
 *
 * \param scenarios the runs \param jobs how many at once (at least 1)
 * \param report called with each result, in order
 * \throws std::runtime_error when a run fails (its message) or its child process dies
 */
void RunScenarios(const std::vector<Ptr<MrcClusterScenario>>& scenarios,
                  uint32_t jobs,
                  const std::function<void(const MrcScenarioResult&)>& report);

} // namespace mrcaicluster
} // namespace ns3

#endif /* MRC_AI_CLUSTER_JOBS_H */
