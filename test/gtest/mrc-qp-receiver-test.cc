/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcQpReceiver with forged data packets (issue 20, item 4): a RETH is untrusted input. Its
 * virtual address and the payload must lie inside registered memory; the bound is checked
 * without overflow (a va within one packet of 2^64 wrapped the old check and a 64-byte write
 * landed 16 bytes before the region). Such a packet is dropped and counted as malformed.
 */

#include "ns3/ipv6-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-qp-receiver.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-sack-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// A receiver with hooks that record what it does.
class ReceiverBed
{
  public:
    ReceiverBed()
    {
        MrcQpReceiver::Config config;
        config.sackDelay = MicroSeconds(10);
        config.trimmedDscp = Ipv6Header::DSCP_CS1;
        config.trimmedLastHopDscp = Ipv6Header::DSCP_CS2;
        MrcQpReceiver::Hooks hooks;
        hooks.sendControl =
            [this](Ptr<Packet> body, MrcOpcode opcode, uint32_t, std::optional<uint32_t>) {
                sent.push_back(opcode);
                bodies.push_back(body);
            };
        hooks.portState = [] {
            return uint8_t{0};
        };
        hooks.placed = [this](Ptr<const Packet>, uint32_t psn, uint32_t) {
            placed.push_back(psn);
        };
        hooks.delivered = [this](uint32_t msn, uint64_t, std::optional<uint32_t>) {
            delivered.push_back(msn);
        };
        hooks.cnpSent = [](uint32_t) {};
        receiver = std::make_unique<MrcQpReceiver>(config, 0, hooks, stats);
    }

    ~ReceiverBed()
    {
        receiver.reset();
        Simulator::Destroy();
    }

    /**
     * Deliver a one-packet WRITE whose RETH says va.
     * \param psn its PSN (and MSN)
     * \param va the RETH's virtual address
     * \param bytes payload bytes (0xee each)
     * \param length the message's length in the RETH (0: bytes, a one-packet message)
     */
    void Receive(uint32_t psn, uint64_t va, uint32_t bytes, uint64_t length = 0)
    {
        const std::vector<uint8_t> payload(bytes, 0xee);
        Ptr<Packet> p = Create<Packet>(payload.data(), bytes);
        MrcRethHeader reth;
        reth.SetVirtualAddress(va);
        reth.SetDmaLength(length ? length : bytes);
        p->AddHeader(reth);
        MrcTsethHeader tseth;
        tseth.SetTimestamp(1);
        p->AddHeader(tseth);
        MrcMethHeader meth;
        meth.SetMsn(psn);
        p->AddHeader(meth);
        p->AddTrailer(MrcIcrcTrailer());
        MrcBthHeader bth;
        bth.SetOpcode(MrcOpcode::WRITE_ONLY);
        bth.SetPsn(psn);
        Ipv6Header outer;
        receiver->OnData(p, bth, outer, 5, 0);
    }

    MrcQpStats stats;                        //!< the receiver's counters
    std::unique_ptr<MrcQpReceiver> receiver; //!< the receiver
    std::vector<MrcOpcode> sent;             //!< control packets sent
    std::vector<Ptr<Packet>> bodies;         //!< their bodies (after the BTH)
    std::vector<uint32_t> placed;            //!< PSNs placed
    std::vector<uint32_t> delivered;         //!< MSNs delivered
};

/**
 * \param bytes size
 * \return a region of that size filled with 0x11
 */
std::shared_ptr<std::vector<uint8_t>>
Region(size_t bytes)
{
    return std::make_shared<std::vector<uint8_t>>(bytes, 0x11);
}

} // namespace

TEST(MrcQpReceiver, RethNearTwoToTheSixtyFourIsDroppedNotWrapped)
{
    ReceiverBed bed;
    auto region = Region(4096);
    const auto before = *region;
    bed.receiver->RegisterMemory(0, region);
    // off = 2^64 - 16, off + 64 wrapped to 48 <= 4096: the write landed at region - 16.
    bed.Receive(0, std::numeric_limits<uint64_t>::max() - 15, 64);
    EXPECT_EQ(bed.stats.malformedReceived, 1u);
    EXPECT_EQ(bed.stats.dataPacketsReceived, 0u);
    EXPECT_TRUE(bed.placed.empty());
    EXPECT_TRUE(bed.delivered.empty());
    EXPECT_TRUE(bed.sent.empty()); // neither acknowledged nor NACKed (MRC has no NAK code)
    EXPECT_EQ(*region, before);
    EXPECT_EQ(bed.receiver->GetCumulativePsn(), 0u); // the PSN is still expected
    // The genuine packet with that PSN is then placed.
    bed.Receive(0, 100, 64);
    EXPECT_EQ(bed.stats.dataPacketsReceived, 1u);
    EXPECT_EQ(bed.delivered, std::vector<uint32_t>{0});
    EXPECT_EQ((*region)[100], 0xee);
    EXPECT_EQ((*region)[99], 0x11);
}

TEST(MrcQpReceiver, WritesMustLieInsideOneRegion)
{
    ReceiverBed bed;
    auto region = Region(4096);
    bed.receiver->RegisterMemory(0x10000, region);
    bed.Receive(0, 0x10000 + 4096 - 64, 64); // ends at the last byte: placed
    EXPECT_EQ(bed.stats.dataPacketsReceived, 1u);
    EXPECT_EQ((*region)[4095], 0xee);
    EXPECT_EQ((*region)[4096 - 65], 0x11);
    const auto before = *region;
    for (const uint64_t va : {uint64_t{0x10000 + 4096 - 63}, // one byte past the end
                              uint64_t{0x10000 + 4096},      // just after the region
                              uint64_t{0x10000 - 1},         // one byte before it
                              uint64_t{0},                   // below every region
                              std::numeric_limits<uint64_t>::max()})
    {
        bed.Receive(1, va, 64);
    }
    EXPECT_EQ(bed.stats.malformedReceived, 5u);
    EXPECT_EQ(bed.stats.dataPacketsReceived, 1u);
    EXPECT_EQ(*region, before);
}

TEST(MrcQpReceiver, WithoutRegisteredMemoryNothingIsWrittenAndDataIsPlaced)
{
    // Simulations that carry no real bytes register no memory: any va is placed, not written.
    ReceiverBed bed;
    bed.Receive(0, std::numeric_limits<uint64_t>::max() - 15, 64);
    EXPECT_EQ(bed.stats.malformedReceived, 0u);
    EXPECT_EQ(bed.stats.dataPacketsReceived, 1u);
    EXPECT_EQ(bed.delivered, std::vector<uint32_t>{0});
}

TEST(MrcQpReceiver, EveryArrivalIsReportedByASack)
{
    // One long message: PSNs 0 and 3 are missing, 1, 2 and 4..90 arrive; then 3 (a
    // retransmission, 87 PSNs behind the newest), 91 and 92. SACKs coalesce (16 KiB: four
    // packets each) and their 64-PSN bitmap follows the packet they answer. Every arrival must
    // be reported by some SACK: before, PSN 3 waited for the SACK about 92, whose bitmap starts
    // at 29, and stayed unreported while the cumulative PSN was stuck at 0, so that the
    // sender's per-EV order rule took it for lost again.
    ReceiverBed bed;
    std::vector<uint32_t> order{1, 2};
    for (uint32_t psn = 4; psn <= 90; ++psn)
    {
        order.push_back(psn);
    }
    for (uint32_t psn : {3u, 91u, 92u})
    {
        order.push_back(psn);
    }
    for (uint32_t psn : order)
    {
        bed.Receive(psn, 0, 4096, uint64_t(1) << 30);
    }
    Simulator::Run(); // the last coalesced SACK leaves after SackDelay
    std::set<uint32_t> reported;
    for (Ptr<Packet> body : bed.bodies)
    {
        MrcSackHeader sack;
        body->Copy()->RemoveHeader(sack);
        for (uint32_t psn = 0; psn < sack.GetCumulativeAckPsn(); ++psn)
        {
            reported.insert(psn);
        }
        for (uint32_t i = 0; i < 64; ++i)
        {
            if (sack.GetBitmap() >> i & 1)
            {
                reported.insert(sack.GetBitmapBasePsn() + i);
            }
        }
    }
    for (uint32_t psn : order)
    {
        EXPECT_TRUE(reported.count(psn)) << "PSN " << psn << " arrived but no SACK reported it";
    }
    EXPECT_FALSE(reported.count(0)) << "PSN 0 never arrived";
    EXPECT_LE(bed.stats.sacksSent, order.size() / 4 + 3) << "coalescing still holds";
}
