/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-path-set.h"
#include "ns3/mrc-probe-header.h"
#include "ns3/mrc-qp-prober.h"
#include "ns3/mrc-qp-stats.h"
#include "ns3/mrc-spray-ev-rules.h"
#include "ns3/simulator.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{
/// State-change log: EV, old state, new state, cause.
using ChangeLog = std::vector<std::tuple<uint32_t, MrcEvState, MrcEvState, std::string>>;

/// An EV set and MRC's spraying rules over it.
struct Evs
{
    MrcPathSet set;        //!< the EV set
    MrcSprayEvRules rules; //!< the rules

    /**
     * \param evsPerPlane candidate EVs per plane
     * \param active active EVs per plane
     * \param probeSuccesses probe successes restoring an EV
     */
    Evs(const std::vector<std::vector<uint32_t>>& evsPerPlane,
        uint32_t active,
        uint32_t probeSuccesses)
        : set(evsPerPlane, active)
        , rules(set, probeSuccesses)
    {
    }

    /// Two planes of 5 candidate EVs; 3 active per plane, 2 backups.
    /// \param log where state changes go (none: nowhere)
    explicit Evs(ChangeLog* log = nullptr)
        : Evs({{10, 11, 12, 13, 14}, {20, 21, 22, 23, 24}}, 3, 3)
    {
        if (log)
        {
            set.SetChangeCallback(
                [log](uint32_t ev, MrcEvState a, MrcEvState b, const std::string& c) {
                    log->emplace_back(ev, a, b, c);
                });
        }
    }
};
} // namespace

TEST(MrcSprayEvRules, RotatesOverActiveEvsPerPlane)
{
    Evs s;
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{10, 11, 12}));
    EXPECT_EQ(s.set.GetBackups(1), (std::vector<uint32_t>{23, 24}));
    std::vector<uint32_t> got;
    for (int i = 0; i < 7; ++i)
    {
        got.push_back(*s.rules.Next(0));
    }
    EXPECT_EQ(got, (std::vector<uint32_t>{10, 11, 12, 10, 11, 12, 10}));
    EXPECT_EQ(*s.rules.Next(1), 20u);
}

TEST(MrcSprayEvRules, EcnSkipsUntilTheNextRotation)
{
    ChangeLog log;
    Evs s(&log);
    EXPECT_EQ(*s.rules.Next(0), 10u);
    s.rules.OnEcn(11);
    EXPECT_EQ(s.set.GetState(11), MrcEvState::SKIP);
    EXPECT_EQ(*s.rules.Next(0), 12u); // 11 passed over
    EXPECT_EQ(*s.rules.Next(0), 10u); // new rotation: 11 is GOOD again
    EXPECT_EQ(*s.rules.Next(0), 11u);
    EXPECT_EQ(s.set.GetState(11), MrcEvState::GOOD);
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0], std::make_tuple(11u, MrcEvState::GOOD, MrcEvState::SKIP, std::string("ecn")));
    EXPECT_EQ(log[1],
              std::make_tuple(11u, MrcEvState::SKIP, MrcEvState::GOOD, std::string("rotation")));
    // Trimmed in the fabric: SKIP too; everything skipped: a SKIP EV is still used.
    s.rules.OnTrimmed(10);
    s.rules.OnTrimmed(11);
    s.rules.OnTrimmed(12);
    EXPECT_TRUE(s.rules.Next(0).has_value());
}

TEST(MrcSprayEvRules, SkipCanLastSeveralRotations)
{
    Evs s;
    s.rules.SetSkipRotations(2);
    EXPECT_EQ(*s.rules.Next(0), 10u);
    s.rules.OnEcn(11);
    EXPECT_EQ(*s.rules.Next(0), 12u);
    EXPECT_EQ(*s.rules.Next(0), 10u); // rotation 1: 11 still skipped
    EXPECT_EQ(*s.rules.Next(0), 12u);
    EXPECT_EQ(*s.rules.Next(0), 10u); // rotation 2: 11 back
    EXPECT_EQ(*s.rules.Next(0), 11u);
}

TEST(MrcSprayEvRules, SilentLossReplacesFromTheSamePlaneAndProbesRestore)
{
    ChangeLog log;
    Evs s(&log);
    auto repl = s.rules.OnSilentLoss(21);
    ASSERT_TRUE(repl.has_value());
    EXPECT_EQ(*repl, 23u); // a backup of plane 1
    EXPECT_EQ(s.set.GetState(21), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(s.set.GetActive(1), (std::vector<uint32_t>{20, 22, 23}));
    EXPECT_EQ(s.set.GetActive(0).size(), 3u) << "planes stay equally loaded";
    EXPECT_EQ(s.set.GetProbeCandidates(), (std::vector<uint32_t>{21}));
    for (int i = 0; i < 6; ++i)
    {
        EXPECT_NE(*s.rules.Next(1), 21u);
    }
    s.rules.OnProbeSuccess(21);
    s.rules.OnProbeSuccess(21);
    s.rules.OnProbeFailure(21); // a failure resets the count
    s.rules.OnProbeSuccess(21);
    s.rules.OnProbeSuccess(21);
    EXPECT_EQ(s.set.GetState(21), MrcEvState::ASSUMED_BAD);
    s.rules.OnProbeSuccess(21);
    EXPECT_EQ(s.set.GetState(21), MrcEvState::GOOD);
    EXPECT_EQ(s.set.GetBackups(1), (std::vector<uint32_t>{24, 21})) << "active set was full";
    EXPECT_EQ(std::get<3>(log.back()), "probes");
    // Losing every backup and then an active EV shrinks the plane; a restored EV refills it.
    s.rules.OnSilentLoss(20);
    s.rules.OnSilentLoss(22);
    s.rules.OnSilentLoss(23);
    s.rules.OnSilentLoss(24);
    EXPECT_EQ(s.set.GetActive(1), (std::vector<uint32_t>{21}));
    EXPECT_FALSE(s.rules.OnSilentLoss(21).has_value());
    EXPECT_FALSE(s.rules.Next(1).has_value()) << "nothing usable on plane 1";
    for (int i = 0; i < 3; ++i)
    {
        s.rules.OnProbeSuccess(20);
    }
    EXPECT_EQ(*s.rules.Next(1), 20u);
}

TEST(MrcSprayEvRules, RestoredEvTakesItsPathsShareBackFromAStandIn)
{
    // One plane of 8 EVs over 4 paths (path = EV % 4), 4 active: one per path.
    Evs s({{10, 11, 12, 13, 14, 15, 16, 17}}, 4, 3);
    s.rules.SetPathKey([](uint32_t ev) {
        return uint64_t(ev % 4);
    });
    ASSERT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{10, 11, 12, 13}));
    // Path 2 fails: EV 10 is retired, a backup on another path stands in (path 3 now has two).
    ASSERT_EQ(s.rules.OnSilentLoss(10), std::optional<uint32_t>(15));
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{11, 12, 13, 15}));
    // Path 2 is repaired: the restored EV takes the place of path 3's second EV, so that the
    // active set covers every path again (before, it went to the backups and spraying stayed
    // off path 2 until some other EV was lost).
    for (int i = 0; i < 3; ++i)
    {
        s.rules.OnProbeSuccess(10);
    }
    EXPECT_EQ(s.set.GetState(10), MrcEvState::GOOD);
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{11, 12, 13, 10}));
    EXPECT_EQ(s.set.GetBackups(0).front(), 15u) << "the stand-in is a backup again";
    // Without an imbalance of two the active set is left alone.
    ASSERT_TRUE(s.rules.OnSilentLoss(11).has_value());
    for (int i = 0; i < 3; ++i)
    {
        s.rules.OnProbeSuccess(11);
    }
    std::map<uint64_t, int> perPath;
    for (uint32_t ev : s.set.GetActive(0))
    {
        perPath[ev % 4]++;
    }
    for (const auto& [path, n] : perPath)
    {
        EXPECT_LE(n, 2) << "path " << path;
    }
    EXPECT_EQ(perPath.size(), 4u) << "every path active after both restorations";
}

TEST(MrcSprayEvRules, ReplacementAvoidsAPathWhoseEvsAreFailing)
{
    // One plane of 12 EVs over 4 paths (path = EV % 4), 8 active: two per path.
    Evs s({{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}}, 8, 3);
    s.rules.SetPathKey([](uint32_t ev) {
        return uint64_t(ev % 4);
    });
    ASSERT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{10, 11, 12, 13, 14, 15, 16, 17}));
    // Path 2 dies: both its active EVs are retired, replaced on other paths.
    ASSERT_EQ(s.rules.OnSilentLoss(10), std::optional<uint32_t>(19));
    ASSERT_EQ(s.rules.OnSilentLoss(14), std::optional<uint32_t>(20));
    // Then an EV of a healthy path is lost (a gray loss, a spurious declaration): path 2 has
    // the fewest active EVs now, but its EVs are failing; the replacement must not be its last
    // backup (EV 18), which would be lost too (before: it was, and every retirement elsewhere
    // sent one more EV onto the dead path).
    EXPECT_EQ(s.rules.OnSilentLoss(11), std::optional<uint32_t>(21));
    for (uint32_t ev : s.set.GetActive(0))
    {
        EXPECT_NE(ev % 4, 2u) << "EV " << ev << " is on the dead path";
    }
}

TEST(MrcSprayEvRules, RetirePathRetiresEveryActiveEvOfThePath)
{
    // One plane of 12 EVs over 4 paths (path = EV % 4), 8 active: two per path.
    ChangeLog log;
    Evs s({{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}}, 8, 3);
    s.set.SetChangeCallback([&log](uint32_t ev, MrcEvState a, MrcEvState b, const std::string& c) {
        log.emplace_back(ev, a, b, c);
    });
    s.rules.SetPathKey([](uint32_t ev) {
        return uint64_t(ev % 4);
    });
    EXPECT_TRUE(s.rules.IsSamePath(10, 14));
    EXPECT_FALSE(s.rules.IsSamePath(10, 11));
    // A silent loss retires its own EV only.
    ASSERT_EQ(s.rules.OnSilentLoss(10), std::optional<uint32_t>(19));
    EXPECT_EQ(s.set.GetState(14), MrcEvState::GOOD);
    // Path 2 retired (losses on several of its EVs, MrcSelectiveRecovery): EV 14 goes too,
    // replaced by a backup off path 2 (20; backup 18 is on path 2 and stays out).
    s.rules.RetirePath(10);
    EXPECT_EQ(s.set.GetState(14), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{11, 12, 13, 15, 16, 17, 19, 20}));
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[1],
              std::make_tuple(14u,
                              MrcEvState::GOOD,
                              MrcEvState::ASSUMED_BAD,
                              std::string("silent loss on its path")));
    // Path 3 retired: EVs 11 and 15 go, replaced by the last backups, 21 (path 1) and 18 (path
    // 2, although its path lost EVs: nothing else is left); EV 19, also on path 3, stays until a
    // loss of its own, as no backup is left to replace it.
    s.rules.RetirePath(11);
    EXPECT_EQ(s.set.GetState(11), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(s.set.GetState(15), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(s.set.GetState(19), MrcEvState::GOOD);
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{12, 13, 16, 17, 19, 20, 21, 18}));
    // A plane of one path is never emptied.
    Evs single({{1, 2, 3, 4, 5, 6}}, 3, 3);
    single.rules.SetPathKey([](uint32_t) {
        return uint64_t(7);
    });
    ASSERT_EQ(single.rules.OnSilentLoss(1), std::optional<uint32_t>(4));
    single.rules.RetirePath(1);
    EXPECT_EQ(single.set.GetActive(0), (std::vector<uint32_t>{2, 3, 4}));
}

TEST(MrcSprayEvRules, DenylistAndDisabledPlanes)
{
    Evs s;
    s.rules.Deny(12);
    EXPECT_EQ(s.set.GetState(12), MrcEvState::DENIED);
    EXPECT_EQ(s.set.GetActive(0), (std::vector<uint32_t>{10, 11, 13}));
    s.rules.OnProbeSuccess(12);
    s.rules.OnSilentLoss(12);
    EXPECT_EQ(s.set.GetState(12), MrcEvState::DENIED) << "denied stays denied";
    s.set.SetPlaneEnabled(0, false);
    EXPECT_FALSE(s.rules.Next(0).has_value());
    EXPECT_TRUE(s.rules.Next(1).has_value());
    s.set.SetPlaneEnabled(0, true);
    EXPECT_TRUE(s.rules.Next(0).has_value());
}

TEST(MrcSprayEvRules, GoodCountFollowsEveryChangeOfTheSet)
{
    // GetGoodCount/HasGood keep what they read from the set until it changes: each kind of
    // change must show at once, and a SKIP counts again as soon as it is over.
    Evs s;
    EXPECT_EQ(s.rules.GetGoodCount(0), 3u);
    EXPECT_EQ(*s.rules.Next(0), 10u);
    s.rules.OnEcn(11); // state change
    EXPECT_EQ(s.rules.GetGoodCount(0), 2u);
    EXPECT_EQ(*s.rules.Next(0), 12u);
    s.rules.Next(0); // a new rotation: the SKIP is over (counted before Next ends it)
    EXPECT_EQ(s.rules.GetGoodCount(0), 3u);
    s.rules.OnSilentLoss(10); // retired, a backup takes its place: still 3
    EXPECT_EQ(s.set.GetState(10), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(s.rules.GetGoodCount(0), 3u);
    s.rules.Deny(13); // the backup denied, the last backup takes its place
    EXPECT_EQ(s.rules.GetGoodCount(0), 3u);
    s.rules.Deny(14); // no backup left
    EXPECT_EQ(s.rules.GetGoodCount(0), 2u);
    s.set.SetPlaneEnabled(0, false);
    EXPECT_EQ(s.rules.GetGoodCount(0), 0u);
    EXPECT_FALSE(s.rules.HasGood(0));
    s.set.SetPlaneEnabled(0, true);
    EXPECT_EQ(s.rules.GetGoodCount(0), 2u);
    EXPECT_TRUE(s.rules.HasGood(0));
    const std::vector<uint32_t> active = s.set.GetActive(0);
    for (uint32_t ev : active)
    {
        s.rules.OnSilentLoss(ev);
    }
    EXPECT_EQ(s.rules.GetGoodCount(0), 0u);
    EXPECT_FALSE(s.rules.HasGood(0));
    EXPECT_EQ(s.rules.GetGoodCount(1), 3u) << "the other plane untouched";
}

TEST(MrcPathSet, RejectsBadConfigurations)
{
    EXPECT_THROW(MrcPathSet({{1, 2}}, 0), std::invalid_argument);
    EXPECT_THROW(Evs({{1, 2}}, 1, 0), std::invalid_argument) << "ProbeSuccesses 0 (the rules)";
    EXPECT_THROW(MrcPathSet({{1, 2}, {2}}, 1), std::invalid_argument);
    Evs s({{1}}, 1, 1);
    EXPECT_THROW(s.set.GetState(9), std::out_of_range);
}

TEST(MrcPathSet, ControlPacketsKeepAReverseEvWhenEveryEvIsRetired)
{
    Evs s;
    EXPECT_EQ(*s.set.NextControl(0), 10u); // a usable EV: the same rotation as data
    for (uint32_t ev : {10, 11, 12, 13, 14})
    {
        s.rules.OnSilentLoss(ev);
    }
    EXPECT_FALSE(s.rules.Next(0).has_value()); // no data EV left in plane 0
    std::vector<uint32_t> got;
    for (int i = 0; i < 6; ++i)
    {
        got.push_back(*s.set.NextControl(0));
    }
    EXPECT_EQ(got, (std::vector<uint32_t>{10, 11, 12, 13, 14, 10})); // retired EVs in turn
    s.rules.Deny(10);
    s.rules.Deny(11);
    for (int i = 0; i < 6; ++i)
    {
        const uint32_t ev = *s.set.NextControl(0);
        EXPECT_TRUE(ev >= 12 && ev <= 14) << "never a denied EV: " << ev;
    }
    for (int i = 0; i < 3; ++i)
    {
        s.rules.OnProbeSuccess(13);
    }
    EXPECT_EQ(*s.set.NextControl(0), 13u); // restored: back to the usable EV
    EXPECT_EQ(*s.set.NextControl(0), 13u);
    s.set.SetPlaneEnabled(1, false);
    EXPECT_FALSE(s.set.NextControl(1).has_value()); // a disabled plane carries nothing
}

namespace
{
/// Retire ev at t, then send it three successful probes at t + after.
/// \return whether the third success restored it
bool
RetireAndProbe(Evs& s, uint32_t ev, Time t, Time after)
{
    s.rules.OnSilentLoss(ev, t);
    bool restored = false;
    for (int i = 0; i < 3; ++i)
    {
        restored = s.rules.OnProbeSuccess(ev, t + after);
    }
    return restored;
}
} // namespace

TEST(MrcSprayEvRules, DampeningHoldsAFlappingEvOutWhileBackupsStandIn)
{
    Evs s;
    // Hold-down 10 us doubling to at most 80 us; a retirement within 100 us of a restoration is
    // a flap.
    s.rules.SetDampening(MicroSeconds(10), MicroSeconds(80), MicroSeconds(100));
    EXPECT_TRUE(RetireAndProbe(s, 10, MicroSeconds(0), MicroSeconds(1)))
        << "first retirement: no hold-down";
    EXPECT_FALSE(RetireAndProbe(s, 10, MicroSeconds(50), MicroSeconds(5)))
        << "a flap: held down 10 us";
    EXPECT_EQ(s.rules.GetHoldDown(10), MicroSeconds(10));
    EXPECT_TRUE(s.rules.OnProbeSuccess(10, MicroSeconds(61))) << "after its hold-down";
    EXPECT_FALSE(RetireAndProbe(s, 10, MicroSeconds(70), MicroSeconds(15)));
    EXPECT_EQ(s.rules.GetHoldDown(10), MicroSeconds(20)) << "each flap doubles it";
    EXPECT_TRUE(s.rules.OnProbeSuccess(10, MicroSeconds(91)));
    // Healthy for three flap windows: halved three times (20 -> 10 -> 0).
    EXPECT_TRUE(RetireAndProbe(s, 10, MicroSeconds(400), MicroSeconds(1)));
    EXPECT_EQ(s.rules.GetHoldDown(10), Time(0));
}

TEST(MrcSprayEvRules, PlaneShortOfEvsTakesBackAWorkingEvDespiteItsHoldDown)
{
    Evs s;
    s.rules.SetDampening(MicroSeconds(10), MicroSeconds(80), MicroSeconds(100));
    // Plane 0: 10, 11, 12 active, 13 and 14 backups. 10 flaps once (hold-down 10 us).
    ASSERT_TRUE(RetireAndProbe(s, 10, MicroSeconds(0), MicroSeconds(1)));
    // Its restoration went to the backups; every other EV of the plane is then lost (random
    // loss everywhere): 11, 12, 13 and 14 retired.
    for (uint32_t ev : {11u, 12u, 13u, 14u})
    {
        s.rules.OnSilentLoss(ev, MicroSeconds(20));
    }
    ASSERT_EQ(s.set.GetActive(0), std::vector<uint32_t>{10}) << "only 10 is left, a replacement";
    ASSERT_TRUE(s.set.GetBackups(0).empty());
    s.rules.OnSilentLoss(10, MicroSeconds(30)); // a flap: hold-down 10 us, until 40 us
    EXPECT_TRUE(s.set.GetActive(0).empty());
    bool restored = false;
    for (int i = 0; i < 3; ++i)
    {
        restored = s.rules.OnProbeSuccess(10, MicroSeconds(32));
    }
    EXPECT_TRUE(restored) << "short of EVs with no backup: the hold-down gives way";
}

namespace
{
/// A path set whose plane 0 has two active EVs (10, 11), with SKIPs in time on a manual clock.
/// \param us microseconds (fractions kept: ns-3's MicroSeconds(double) rounds to whole us)
Time
Us(double us)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(us * 1000)));
}

struct TimedSet
{
    Time now; //!< the clock
    Evs s;    //!< the set and its rules

    /**
     * \param one one SKIP
     * \param memory echo memory
     * \param factor AlwaysSkipFactor
     */
    TimedSet(Time one, Time memory, uint32_t factor)
    {
        for (uint32_t ev : {12u, 13u, 14u})
        {
            s.rules.Deny(ev);
        }
        s.rules.SetSkipTime(one, memory);
        s.rules.SetAlwaysSkipFactor(factor);
        s.rules.SetClock([this] {
            return now;
        });
    }

    /// \param at a time (us) \return whether EV 11 is used at that time (within 2 packets)
    bool UsedAt(double at)
    {
        now = Us(at);
        return *s.rules.Next(0) == 11u || *s.rules.Next(0) == 11u;
    }
};
} // namespace

TEST(MrcSprayEvRules, SkipInTimeLastsItsTimeHoweverShortTheRotation)
{
    // Counted in rotations, a SKIP of EV 11 beside one GOOD EV lasted one packet per rotation
    // (the flow was back on the congested path within a fraction of an RTT). In time it lasts
    // its time, whatever the plane sends meanwhile.
    TimedSet t(MicroSeconds(10), MicroSeconds(80), 16);
    t.s.rules.OnEcn(11);
    for (int i = 0; i < 1000; ++i)
    {
        ASSERT_EQ(*t.s.rules.Next(0), 10u) << "packet " << i << " still within the SKIP";
    }
    EXPECT_FALSE(t.UsedAt(9.99));
    EXPECT_TRUE(t.UsedAt(10));
    EXPECT_EQ(t.s.set.GetState(11), MrcEvState::GOOD);
}

TEST(MrcSprayEvRules, EchoesSoonAfterASkipDoubleTheNextUpToTheFactor)
{
    TimedSet t(MicroSeconds(10), MicroSeconds(80), 4);
    t.s.rules.OnEcn(11); // 0-10 us
    EXPECT_TRUE(t.UsedAt(10));
    t.now = Us(50);      // 40 us after it ended, within the memory: doubled
    t.s.rules.OnEcn(11); // 50-70 us
    EXPECT_FALSE(t.UsedAt(69.9));
    EXPECT_TRUE(t.UsedAt(70));
    t.now = Us(149); // doubled again: 149-189 us
    t.s.rules.OnEcn(11);
    EXPECT_FALSE(t.UsedAt(188.9));
    EXPECT_TRUE(t.UsedAt(189));
    t.now = Us(200); // capped at AlwaysSkipFactor (4) SKIPs: 200-240 us
    t.s.rules.OnEcn(11);
    EXPECT_FALSE(t.UsedAt(239.9));
    EXPECT_TRUE(t.UsedAt(240));
    t.now = Us(320.1); // a quiet spell longer than the memory: one SKIP again
    t.s.rules.OnEcn(11);
    EXPECT_FALSE(t.UsedAt(330));
    EXPECT_TRUE(t.UsedAt(330.1));
    t.now = Us(1000); // ALWAYS_SKIP: the longest SKIP at once
    t.s.rules.OnEcn(11, true);
    EXPECT_FALSE(t.UsedAt(1039.9));
    EXPECT_TRUE(t.UsedAt(1040));
    // A trim skips for one SKIP, and an echo while in SKIP never shortens it.
    t.now = Us(2000);
    t.s.rules.OnEcn(11, true); // until 2040
    t.s.rules.OnTrimmed(11);
    EXPECT_FALSE(t.UsedAt(2039.9));
}

TEST(MrcSprayEvRules, NoEscalationWhenEveryPathIsMarkedAlike)
{
    // Flows sharing one set of bottlenecks (uplinks down, an oversubscribed first hop) see every
    // path marked: escalating SKIPs piled each queue pair's load onto its few EVs left, which
    // then overflowed in turn (mrc-path-health --experiment=links --count=2 --step=10: 0.94 of
    // the capacity, 0.97 when an escalation needs the path to be marked more than the others).
    TimedSet t(MicroSeconds(10), MicroSeconds(80), 4);
    t.s.rules.SetEscalation(4, 0.125);
    const std::vector<uint32_t> others{10, 20, 21, 22}; // the other active EVs, both planes
    for (int i = 0; i < 40; ++i)
    {
        for (uint32_t ev : others)
        {
            t.s.rules.OnFeedback(ev, i % 2 == 0);
        }
        t.s.rules.OnFeedback(11, i % 2 == 0);
    }
    EXPECT_NEAR(t.s.rules.GetMarkRate(11), 0.5, 0.05);
    EXPECT_NEAR(t.s.rules.GetMarkRate(21), 0.5, 0.05);
    t.s.rules.OnEcn(11, true);
    EXPECT_EQ(t.s.set.GetState(11), MrcEvState::SKIP);
    EXPECT_FALSE(t.UsedAt(9.99));
    EXPECT_TRUE(t.UsedAt(10)) << "ALWAYS_SKIP on a path marked like the others: one SKIP";
    // Now only 11's path is marked: its rate stays, the others' fall below a quarter of it, and
    // ALWAYS_SKIP keeps the flow off it for AlwaysSkipFactor (4) SKIPs.
    for (int i = 0; i < 40; ++i)
    {
        for (uint32_t ev : others)
        {
            t.s.rules.OnFeedback(ev, false);
        }
        t.s.rules.OnFeedback(11, true);
    }
    EXPECT_GT(t.s.rules.GetMarkRate(11), 0.9);
    EXPECT_LT(t.s.rules.GetMarkRate(10), 0.01);
    t.now = Us(20);
    t.s.rules.OnEcn(11, true);
    EXPECT_FALSE(t.UsedAt(59.9));
    EXPECT_TRUE(t.UsedAt(60));
    // A trim is congestion on its path: it counts as a marked packet.
    const double before = t.s.rules.GetMarkRate(10);
    t.s.rules.OnTrimmed(10);
    EXPECT_NEAR(t.s.rules.GetMarkRate(10), before + 0.125 * (1 - before), 1e-9);
}

TEST(MrcSprayEvRules, EscalatedSkipEndsOnceTheOtherPathsAreAsMarked)
{
    // Four queue pairs of a rack shedding one hot path at once for AlwaysSkipFactor SKIPs
    // overloaded the paths left (mrc-path-health links at 128 EVs): an escalated SKIP ends as
    // soon as the rest of its plane is marked as much, and only then.
    for (double ratio : {2.0, 0.0})
    {
        TimedSet t(MicroSeconds(10), MicroSeconds(80), 16);
        t.s.rules.SetSkipRelease(ratio);
        for (int i = 0; i < 40; ++i)
        {
            t.s.rules.OnFeedback(10, false);
            t.s.rules.OnFeedback(11, true);
        }
        t.s.rules.OnEcn(11, true); // ALWAYS_SKIP, 0-160 us
        EXPECT_FALSE(t.UsedAt(50)) << "the others are unmarked: the SKIP holds";
        // EV 10 now carries the load and is marked, in plane 0 only: after 8 marks 11's rate
        // (about 1) is less than twice 10's (1 - 0.875^8 = 0.66).
        for (int i = 0; i < 8; ++i)
        {
            t.s.rules.OnFeedback(20, false);
            t.s.rules.OnFeedback(10, true);
        }
        EXPECT_GT(t.s.rules.GetMarkRate(10), 0.6);
        EXPECT_LT(t.s.rules.GetMarkRate(20), 0.01);
        // (The plane's marks are summed again once per SKIP time: at 60 us, not at 50.)
        if (ratio > 0)
        {
            EXPECT_TRUE(t.UsedAt(60)) << "the plane is marked alike again: the SKIP ends";
            EXPECT_EQ(t.s.set.GetState(11), MrcEvState::GOOD);
        }
        else
        {
            EXPECT_FALSE(t.UsedAt(60)) << "ratio 0: the SKIP runs its course";
            EXPECT_FALSE(t.UsedAt(159.9));
            EXPECT_TRUE(t.UsedAt(160));
        }
    }
    Evs s;
    EXPECT_THROW(s.rules.SetSkipRelease(-1), std::invalid_argument);
}

TEST(MrcSprayEvRules, EscalationParametersAreChecked)
{
    Evs s;
    EXPECT_THROW(s.rules.SetEscalation(-1, 0.125), std::invalid_argument);
    EXPECT_THROW(s.rules.SetEscalation(4, 0), std::invalid_argument);
    EXPECT_THROW(s.rules.SetEscalation(4, 1.5), std::invalid_argument);
    EXPECT_NO_THROW(s.rules.SetEscalation(0, 1));
}

namespace
{
/**
 * \param backoffMax MrcQpProber's restoreBackoffMax
 * \return prober timing of the tests: rounds of 1 us
 */
MrcQpProber::Config
RoundsOfOneMicrosecond(uint32_t backoffMax)
{
    MrcQpProber::Config c;
    c.restoreInterval = MicroSeconds(1);
    c.livenessInterval = MicroSeconds(1);
    c.livenessTimeout = MicroSeconds(8);
    c.restoreBackoffMax = backoffMax;
    return c;
}

/**
 * Probe a dead EV (its probes never answered) for 40 rounds of 1 us.
 * \param backoffMax MrcQpProber's restoreBackoffMax
 * \return the rounds between its successive probes
 */
std::vector<int64_t>
ProbeGaps(uint32_t backoffMax)
{
    Evs s({{10, 11, 12}}, 2, 3);
    MrcQpStats stats;
    std::vector<int64_t> sent; // rounds at which EV 10 was probed
    MrcQpProber::Hooks hooks;
    hooks.sendProbe = [&sent](uint32_t ev, Ptr<Packet>) {
        if (ev == 10)
        {
            sent.push_back(Simulator::Now().GetNanoSeconds() / 1000);
        }
    };
    hooks.onlyReceiving = [] {
        return false;
    };
    hooks.restored = [] {};
    MrcQpProber prober(s.rules,
                       RoundsOfOneMicrosecond(backoffMax),
                       hooks,
                       stats,
                       CreateObject<UniformRandomVariable>());
    s.rules.OnSilentLoss(10);
    prober.OnEvRetired();
    Simulator::Stop(MicroSeconds(40) + NanoSeconds(500));
    Simulator::Run();
    prober.Stop();
    Simulator::Destroy();
    std::vector<int64_t> gaps;
    for (size_t i = 1; i < sent.size(); ++i)
    {
        gaps.push_back(sent[i] - sent[i - 1]);
    }
    return gaps;
}
} // namespace

TEST(MrcQpProber, FailingEvIsProbedWithABackoffCappedByRestoreBackoffMax)
{
    // Unanswered probes double the rounds between probes: 2, 4, 8, ... up to the cap.
    EXPECT_EQ(ProbeGaps(4), (std::vector<int64_t>{2, 4, 4, 4, 4, 4, 4, 4, 4, 4}));
    EXPECT_EQ(ProbeGaps(8), (std::vector<int64_t>{2, 4, 8, 8, 8, 8})) << "the default cap";
    EXPECT_EQ(ProbeGaps(64), (std::vector<int64_t>{2, 4, 8, 16})) << "40 rounds: 2 + 4 + 8 + 16";
    EXPECT_EQ(ProbeGaps(1), std::vector<int64_t>(39, 1)) << "1: probed every round";
}

TEST(MrcQpProber, EvsOfOnePathShareOneProbeAndItsAnswer)
{
    // EVs 10, 11, 12 name path 0 (SRv6 gives a path several EVs), 13, 14, 15 path 1.
    Evs s({{10, 11, 12, 13, 14, 15}}, 3, 1);
    s.rules.SetPathKey([](uint32_t ev) {
        return ev < 13 ? 0 : 1;
    });
    s.rules.RetirePath(s.set.GetActive(0).front());
    ASSERT_EQ(s.set.GetProbeCandidates().size(), 3u) << "path 0's three EVs retired";
    MrcQpStats stats;
    std::vector<std::pair<uint32_t, uint32_t>> probes; // (EV, sequence)
    bool answer = false;
    MrcQpProber* self = nullptr;
    MrcQpProber::Hooks hooks;
    hooks.sendProbe = [&](uint32_t ev, Ptr<Packet> body) {
        MrcProbeHeader h;
        body->PeekHeader(h);
        probes.emplace_back(ev, h.GetSequence());
        if (answer)
        {
            Simulator::Schedule(NanoSeconds(100), [&self, h]() {
                self->OnResponse(h);
            });
        }
    };
    hooks.onlyReceiving = [] {
        return false;
    };
    hooks.restored = [] {};
    MrcQpProber::Config c = RoundsOfOneMicrosecond(1); // 1: no backoff
    c.restoreProbesPerRound = 0; // no cap: every path of retired EVs, every round
    MrcQpProber prober(s.rules, c, hooks, stats, CreateObject<UniformRandomVariable>());
    self = &prober;
    prober.OnEvRetired();
    // Five unanswered rounds: one probe of the path per round, not one per EV.
    Simulator::Stop(MicroSeconds(5) + NanoSeconds(500));
    Simulator::Run();
    EXPECT_EQ(probes.size(), 5u) << "one probe a round for the three EVs of one path";
    // The next probe is answered: every EV of the path counts the success and leaves
    // ASSUMED_BAD (ProbeSuccesses 1, no hold-down: none of them flapped).
    answer = true;
    Simulator::Stop(MicroSeconds(1));
    Simulator::Run();
    EXPECT_EQ(probes.size(), 6u);
    for (uint32_t ev : {10u, 11u, 12u})
    {
        EXPECT_NE(s.set.GetState(ev), MrcEvState::ASSUMED_BAD) << "EV " << ev;
    }
    EXPECT_TRUE(s.set.GetProbeCandidates().empty());
    prober.Stop();
    Simulator::Destroy();
}
