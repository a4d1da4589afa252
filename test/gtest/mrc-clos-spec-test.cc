/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-clos-spec.h"

#include <gtest/gtest.h>
#include <stdexcept>

using ns3::MrcClosSpec;

namespace
{

/// \return the message Validate() (or the factory) throws, "" if none
template<typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(MrcClosSpec, FatTreeCounts)
{
    for (uint32_t k : {2u, 4u, 8u, 16u, 64u})
    {
        MrcClosSpec s = MrcClosSpec::FatTree(k, 2);
        EXPECT_NO_THROW(s.Validate());
        EXPECT_EQ(s.GetTiers(), 3u);
        EXPECT_EQ(s.GetHostCount(), k * k * k / 4);
        EXPECT_EQ(s.GetT0Count(), k * k / 2);
        EXPECT_EQ(s.GetT1Count(), k * k / 2);
        EXPECT_EQ(s.t2Count, k * k / 4);
        EXPECT_EQ(s.GetT1Downlinks(), k / 2);
        EXPECT_EQ(s.GetT2Downlinks(), k);
        EXPECT_EQ(s.GetT0T1Parallel(), 1u);
        EXPECT_EQ(s.GetT1T2Parallel(), 1u);
        EXPECT_DOUBLE_EQ(s.GetT0Oversubscription(), 1.0);
    }
}

TEST(MrcClosSpec, TwoTierDefaultsToFullBisection)
{
    MrcClosSpec s = MrcClosSpec::TwoTier(4, 8, 16, 4);
    EXPECT_NO_THROW(s.Validate());
    EXPECT_EQ(s.GetTiers(), 2u);
    EXPECT_EQ(s.t0Uplinks, 16u);
    EXPECT_EQ(s.GetT0T1Parallel(), 4u);
    EXPECT_EQ(s.GetT1Downlinks(), 32u);
    EXPECT_EQ(s.GetHostCount(), 128u);
    EXPECT_EQ(s.Describe(),
              "2-tier Clos, 4 plane(s), 128 hosts; per plane: 8 T0 (16 down, 16 up), 4 T1 (32 "
              "down)");
    EXPECT_EQ(MrcClosSpec::FatTree(4).Describe(),
              "3-tier Clos, 1 plane(s), 16 hosts; per plane: 8 T0 (2 down, 2 up), 8 T1 (2 down, "
              "2 up), 4 T2 (4 down)");
}

TEST(MrcClosSpec, Oversubscription)
{
    MrcClosSpec s = MrcClosSpec::TwoTier(1, 4, 16, 4, 8);
    EXPECT_NO_THROW(s.Validate());
    EXPECT_DOUBLE_EQ(s.GetT0Oversubscription(), 2.0);
}

TEST(MrcClosSpec, RejectsOddOrOutOfRangeK)
{
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::FatTree(5);
              }),
              "MrcClosSpec: k (=5) must be an even number in 2..64");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::FatTree(0);
              }),
              "MrcClosSpec: k (=0) must be an even number in 2..64");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::FatTree(66);
              }),
              "MrcClosSpec: k (=66) must be an even number in 2..64");
}

TEST(MrcClosSpec, RejectsImpossibleShapes)
{
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::TwoTier(0, 4, 4, 2).Validate();
              }),
              "MrcClosSpec: planes (=0) must be in 1..16");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::TwoTier(17, 4, 4, 2).Validate();
              }),
              "MrcClosSpec: planes (=17) must be in 1..16");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::TwoTier(1, 0, 4, 2).Validate();
              }),
              "MrcClosSpec: t0PerPod (=0) must be >= 1");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::TwoTier(1, 4, 0, 2).Validate();
              }),
              "MrcClosSpec: hostsPerT0 (=0) must be in 1..65535");
    EXPECT_EQ(ErrorOf([] {
                  MrcClosSpec::TwoTier(1, 4, 4, 0).Validate();
              }),
              "MrcClosSpec: t1PerPod (=0) must be >= 1");
    EXPECT_NE(ErrorOf([] {
                  MrcClosSpec::TwoTier(1, 4, 6, 4).Validate();
              }).find("t0Uplinks (=6) must be a positive multiple of t1PerPod (=4)"),
              std::string::npos);
    MrcClosSpec s = MrcClosSpec::TwoTier(1, 4, 32, 4);
    s.radix = 48;
    EXPECT_NE(ErrorOf([&] {
                  s.Validate();
              }).find("hostsPerT0 + t0Uplinks (=64) must be <= radix (=48)"),
              std::string::npos);
    MrcClosSpec t1 = MrcClosSpec::TwoTier(1, 64, 4, 1);
    t1.radix = 32;
    EXPECT_NE(ErrorOf([&] {
                  t1.Validate();
              }).find("T1 ports (downlinks + t1Uplinks) (=256) must be <= radix (=32)"),
              std::string::npos);
    MrcClosSpec three = MrcClosSpec::FatTree(4);
    three.t1Uplinks = 3;
    EXPECT_NE(ErrorOf([&] {
                  three.Validate();
              }).find("t1Uplinks (=3) must be a positive multiple of t2Count / t1PerPod (=2)"),
              std::string::npos);
    MrcClosSpec pods = MrcClosSpec::TwoTier(1, 4, 4, 2);
    pods.pods = 2;
    EXPECT_EQ(ErrorOf([&] {
                  pods.Validate();
              }),
              "MrcClosSpec: pods (=2) must be 1 for a two-tier Clos (t2Count = 0)");
}

// Issue 20, item 6: FatTreeK=64 with 16 planes was built without a word (3,145,728 links).
TEST(MrcClosSpec, SizeIsCountedAndCapped)
{
    const MrcClosSpec big = MrcClosSpec::FatTree(64, 16);
    EXPECT_EQ(big.GetHostCount(), 65536u);
    EXPECT_EQ(big.GetSwitchCount(), 16u * (2048 + 2048 + 1024));
    EXPECT_EQ(big.GetLinkCount(), 16u * 3 * 65536);
    EXPECT_EQ(ErrorOf([&] {
                  big.CheckSize(MrcClosSpec::kDefaultMaxLinks, "MaxLinks");
              }),
              "the fabric (" + big.Describe()
                  + ") would have 65536 hosts, 81920 switches and 3145728 links, more than the "
                    "cap of 262144 links; fewer planes or a smaller k, or raise MaxLinks to "
                    "3145728 to build it anyway");
    // The largest fat-tree on one plane fits the default cap.
    EXPECT_EQ(MrcClosSpec::FatTree(64, 1).GetLinkCount(), 196608u);
    EXPECT_NO_THROW(
        MrcClosSpec::FatTree(64, 1).CheckSize(MrcClosSpec::kDefaultMaxLinks, "MaxLinks"));
    // Both sides of a cap: 4 planes x (8 x 8 host links + 8 x 8 uplinks) = 512 links.
    const MrcClosSpec two = MrcClosSpec::TwoTier(4, 8, 8, 8);
    EXPECT_EQ(two.GetLinkCount(), 512u);
    EXPECT_EQ(two.GetSwitchCount(), 64u);
    EXPECT_NO_THROW(two.CheckSize(512, "MaxLinks"));
    EXPECT_NE(ErrorOf([&] {
                  two.CheckSize(511, "MaxLinks");
              }).find("512 links, more than the cap of 511 links"),
              std::string::npos);
    // Parallel T1-T2 links count: a fat-tree of k = 4 has k^3/4 = 16 links per tier.
    EXPECT_EQ(MrcClosSpec::FatTree(4, 1).GetLinkCount(), 48u);
}
