/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "receive": forged MRC packets (BTH onwards, with forged SACKs, NACKs, probes,
 * RETHs and immediates) arrive at both ends of a queue pair in the middle of a transfer.
 *
 * Each input builds a fresh two-plane, two-host fabric with MRC (the transport tests' bench),
 * posts three RDMA WRITEs from host 0 into a registered region of host 1, and delivers the
 * input's records through each host's UDP layer exactly as the fabric would (UDP port 4791,
 * the EV in the flow label and source port). A record is
 *   [to: 1 byte, bit 0: 0 = the receiver, 1 = the sender] [at: 2 bytes, ns after the start]
 *   [ev: 4 bytes] [length: 2 bytes] [MRC bytes: BTH, extension headers, payload, ICRC].
 * Properties: nothing crashes, trips an assertion or reads outside a buffer (with -DMRC_FUZZ=ON
 * under ASan/UBSan); the run ends; and when every forged packet was dropped by the L4 protocol
 * (malformed, unknown QP), the transfer is untouched: each message completes once and the
 * region holds exactly the bytes written.
 * The seeds are the packets of a clean transfer as they left each host. MRC_FUZZ_VERBOSE=1 in
 * the environment prints, per input, where the forged packets went.
 */

#include "../mrc-test-bench.h"
#include "mrc-fuzz.h"

#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

#include <cstdlib>
#include <iostream>
#include <set>

using namespace ns3;
using namespace ns3::mrcfuzz;

namespace
{

/// One forged packet.
struct Record
{
    bool toSender{false};         //!< deliver to the sender (else the receiver)
    uint16_t atNs{0};             //!< when, after the start
    uint32_t ev{0};               //!< EV (flow label and UDP source port)
    std::vector<uint8_t> payload; //!< MRC bytes
};

/// \param r the reader \return the records of an input
std::vector<Record>
ReadRecords(ByteReader& r)
{
    std::vector<Record> out;
    while (r.Remaining() > 0 && out.size() < 64)
    {
        Record rec;
        rec.toSender = r.U8() & 1;
        rec.atNs = r.U16();
        rec.ev = r.U32();
        rec.payload = r.Bytes(r.U16());
        out.push_back(std::move(rec));
    }
    return out;
}

/// \param w the writer \param rec a record to append
void
WriteRecord(ByteWriter& w, const Record& rec)
{
    w.U8(rec.toSender ? 1 : 0);
    w.U16(rec.atNs);
    w.U32(rec.ev);
    w.U16(static_cast<uint16_t>(rec.payload.size()));
    w.Bytes(rec.payload);
}

/**
 * Deliver forged MRC bytes to a host's UDP layer, as if they had arrived on plane 0.
 * \param host the host
 * \param from source address
 * \param to destination address
 * \param ev the EV
 * \param bytes MRC bytes
 */
void
Inject(Ptr<Node> host, Ipv6Address from, Ipv6Address to, uint32_t ev, std::vector<uint8_t> bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    UdpHeader udp;
    udp.SetSourcePort(static_cast<uint16_t>(ev & 0xffff));
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv6Header h;
    h.SetSource(from);
    h.SetDestination(to);
    h.SetNextHeader(UdpL4Protocol::PROT_NUMBER);
    h.SetPayloadLength(p->GetSize());
    h.SetFlowLabel((ev >> 16) & 0xffff);
    h.SetHopLimit(60);
    Ptr<Ipv6L3Protocol> ipv6 = host->GetObject<Ipv6L3Protocol>();
    host->GetObject<UdpL4Protocol>()->Receive(p, h, ipv6->GetInterface(1));
}

/// The fabric and the transfer of one input.
struct World
{
    mrctest::Bench bench{MrcClosSpec::TwoTier(2, 2, 1, 2, 2), true};
    Ptr<MrcQueuePair> sender;                       //!< host 0's end
    Ptr<MrcQueuePair> receiver;                     //!< host 1's end
    std::shared_ptr<std::vector<uint8_t>> region;   //!< host 1's registered memory
    std::shared_ptr<std::vector<uint8_t>> expected; //!< what the WRITEs put there
    std::vector<Record> sent;                       //!< packets that left the hosts (seeds)

    World()
    {
        auto qps = bench.Connect(0, 1);
        sender = qps.first;
        receiver = qps.second;
        expected = mrctest::PostRandom(sender, receiver, {3000, 64, 9000}, 5, region);
    }

    /// \param toSender the sender's (else the receiver's) L4 \return it
    Ptr<MrcL4Protocol> L4(bool toSender) const
    {
        return bench.topo->GetHost(toSender ? 0 : 1)->GetObject<MrcL4Protocol>();
    }

    /// \param rec a record \return nothing; schedules its delivery
    void Schedule(const Record& rec) const
    {
        const uint32_t to = rec.toSender ? 0 : 1;
        Simulator::Schedule(NanoSeconds(rec.atNs),
                            &Inject,
                            bench.topo->GetHost(to),
                            bench.topo->GetHostAddress(1 - to, 0),
                            bench.topo->GetHostAddress(to, 0),
                            rec.ev,
                            rec.payload);
    }

    /// Record what leaves each host (the seeds), in the layout of a record.
    void Capture()
    {
        for (uint32_t host = 0; host < 2; ++host)
        {
            L4(host == 0)->TraceConnectWithoutContext(
                "Tx",
                MakeBoundCallback(&World::OnTx, this, host == 1));
        }
    }

    /**
     * \param self the world
     * \param toSender the packet is bound for the sender
     * \param packet UDP (and SRH) and MRC bytes
     * \param h its IPv6 header
     */
    static void OnTx(World* self,
                     bool toSender,
                     Ptr<const Packet> packet,
                     const Ipv6Header& h,
                     uint32_t)
    {
        Ptr<Packet> p = packet->Copy();
        if (h.GetNextHeader() == MrcSegmentRoutingHeader::kProtocolNumber)
        {
            MrcSegmentRoutingHeader srh;
            p->RemoveHeader(srh);
        }
        UdpHeader udp;
        p->RemoveHeader(udp);
        Record rec;
        rec.toSender = toSender;
        rec.atNs =
            static_cast<uint16_t>(std::min<int64_t>(Simulator::Now().GetNanoSeconds(), 65535));
        rec.ev = (h.GetFlowLabel() & 0xffff) << 16 | udp.GetSourcePort();
        rec.payload.resize(p->GetSize());
        p->CopyData(rec.payload.data(), p->GetSize());
        self->sent.push_back(std::move(rec));
    }
};

/// Simulated time after which a run stops (the transfer takes microseconds).
const Time kRunFor = MilliSeconds(2);

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ByteReader reader(data, size);
    const std::vector<Record> records = ReadRecords(reader);
    {
        World world;
        for (const Record& rec : records)
        {
            world.Schedule(rec);
        }
        Simulator::Stop(kRunFor);
        Simulator::Run();
        uint64_t dropped = 0;
        for (bool side : {false, true})
        {
            for (auto reason :
                 {MrcL4Protocol::DropReason::MALFORMED, MrcL4Protocol::DropReason::UNKNOWN_QP})
            {
                dropped += world.L4(side)->GetDroppedPackets(reason);
            }
        }
        if (std::getenv("MRC_FUZZ_VERBOSE"))
        {
            const auto& tx = world.sender->GetStats();
            const auto& rx = world.receiver->GetStats();
            std::cerr << records.size() << " forged packets, " << dropped
                      << " dropped by the L4 protocol; sender: " << tx.sacksReceived << " SACKs, "
                      << tx.nacksReceived << " NACKs, " << tx.malformedReceived << " malformed, "
                      << tx.retransmissions
                      << " retransmissions; receiver: " << rx.dataPacketsReceived << " placed, "
                      << rx.duplicatesReceived << " duplicates, " << rx.malformedReceived
                      << " malformed; " << world.bench.completed.size()
                      << " of 3 messages completed" << std::endl;
        }
        if (dropped == records.size())
        {
            // No forged packet reached a queue pair: the transfer must be untouched.
            if (*world.region != *world.expected || world.bench.completed.size() != 3
                || !world.bench.errors.empty())
            {
                Fail("forged packets the L4 protocol dropped disturbed the transfer ("
                     + std::to_string(world.bench.completed.size()) + " of 3 messages completed)");
            }
            for (const auto& [msn, times] : world.bench.completed)
            {
                if (times != 1)
                {
                    Fail("message " + std::to_string(msn) + " completed " + std::to_string(times)
                         + " times");
                }
            }
        }
    }
    Simulator::Destroy();
    return 0;
}

namespace ns3
{
namespace mrcfuzz
{

std::vector<Input>
Seeds()
{
    std::vector<Record> sent;
    uint32_t senderQpn = 0;
    uint32_t receiverQpn = 0;
    {
        World world;
        world.Capture();
        Simulator::Stop(kRunFor);
        Simulator::Run();
        sent = world.sent;
        senderQpn = world.sender->GetQpn();
        receiverQpn = world.receiver->GetQpn();
    }
    Simulator::Destroy();
    // A clean transfer has no NACK and no probe: forge one of each kind from its first packet.
    MrcBthHeader first;
    {
        const Record& data = sent.front();
        Ptr<Packet> p = Create<Packet>(data.payload.data(), data.payload.size());
        p->PeekHeader(first);
    }
    auto forge = [&](bool toSender, MrcOpcode opcode, const Header& body) {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(body);
        MrcBthHeader bth;
        bth.SetOpcode(opcode);
        bth.SetDestQp(toSender ? senderQpn : receiverQpn);
        bth.SetPsn(first.GetPsn());
        p->AddHeader(bth);
        p->AddTrailer(MrcIcrcTrailer());
        Record rec;
        rec.toSender = toSender;
        rec.atNs = sent.front().atNs + 1000;
        rec.ev = sent.front().ev;
        rec.payload.resize(p->GetSize());
        p->CopyData(rec.payload.data(), p->GetSize());
        sent.push_back(rec);
    };
    for (auto code : {MrcNackCode::TRIMMED,
                      MrcNackCode::TRIMMED_LASTHOP,
                      MrcNackCode::NO_BITMAP,
                      MrcNackCode::PSN_OOR_WINDOW,
                      MrcNackCode::UNEXP_EVENT,
                      MrcNackCode::SEQUENCE_ERROR})
    {
        MrcNackHeader nack;
        nack.SetCode(code);
        nack.SetPsn(first.GetPsn());
        nack.SetReflectedEv(sent.front().ev);
        forge(true, MrcOpcode::NACK, nack);
    }
    MrcProbeHeader probe;
    probe.SetSequence(1);
    probe.SetEv(sent.front().ev);
    probe.SetAckRequest(true);
    forge(false, MrcOpcode::PROBE, probe);
    probe.SetResponse(true);
    forge(true, MrcOpcode::PROBE, probe);
    // One seed per packet kind and direction, then the whole conversation replayed.
    std::vector<Input> seeds;
    std::set<std::pair<bool, uint32_t>> kinds;
    for (const Record& rec : sent)
    {
        // The opcode is the first byte; NACKs differ by their code (byte 12).
        const uint8_t kind =
            rec.payload.size() > 12 && rec.payload[0] == 0xDD ? rec.payload[12] : 0;
        if (!rec.payload.empty() && kinds.insert({rec.toSender, rec.payload[0] ^ kind << 8}).second)
        {
            ByteWriter w;
            WriteRecord(w, rec);
            seeds.push_back(w.Get());
        }
    }
    ByteWriter all;
    for (const Record& rec : sent)
    {
        WriteRecord(all, rec);
    }
    seeds.push_back(all.Get());
    seeds.push_back(Input{}); // no forged packet at all: the clean transfer
    return seeds;
}

} // namespace mrcfuzz
} // namespace ns3
