/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-tcp-bulk-workload.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST(MrcTcpBulkWorkload, MergeFlowsTakesEveryRanksView)
{
    Ptr<MrcTcpBulkWorkload> w = CreateObject<MrcTcpBulkWorkload>();
    w->AddFlow(0, 1, 1000, MicroSeconds(5));
    w->AddFlow(1, 2, 2000, MicroSeconds(0));
    w->AddFlow(2, 0, 3000, MicroSeconds(0));
    // Rank 0 received flow 0, rank 1 flow 1; flow 2 did not complete anywhere.
    w->MergeFlows({1000, 2000, 1500},
                  {MicroSeconds(25).GetTimeStep(), MicroSeconds(40).GetTimeStep(), -1});
    const auto& f = w->GetFlows();
    EXPECT_EQ(w->GetCompletedCount(), 2u);
    EXPECT_EQ(f[0].received, 1000u);
    EXPECT_EQ(f[0].GetCompletionTime(), MicroSeconds(20)) << "finish minus start";
    EXPECT_EQ(f[1].finish, MicroSeconds(40));
    EXPECT_EQ(f[2].received, 1500u);
    EXPECT_FALSE(f[2].IsComplete()) << "-1: not complete";
    EXPECT_EQ(w->GetCompletionStats().GetCount(), 2u);
    EXPECT_THROW(w->MergeFlows({1, 2}, {0, 0, 0}), std::invalid_argument) << "one value per flow";
    w->Dispose();
}
