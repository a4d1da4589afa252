/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QP_STATS_H
#define MRC_QP_STATS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Counters of one queue pair (both directions), read with MrcQueuePair::GetStats().
 */
struct MrcQpStats
{
    // Sender
    uint64_t dataPacketsSent{0};      //!< new data packets
    uint64_t retransmissions{0};      //!< retransmitted packets
    uint64_t rtxTrimmed{0};           //!< retransmissions after NACK TRIMMED
    uint64_t rtxTrimmedLastHop{0};    //!< retransmissions after NACK TRIMMED_LASTHOP
    uint64_t rtxTimeout{0};           //!< retransmissions after the loss timer
    uint64_t rtxSack{0};              //!< retransmissions after the SACK loss rule
    uint64_t rtxPathOrder{0};         //!< retransmissions after a later packet on the EV arrived
    uint64_t rtxPlaneOrder{0};        //!< retransmissions after a later packet on the plane arrived
    uint64_t rtxTailReorder{0};       //!< retransmissions by the tail reorder timer (RACK)
    uint64_t rtxTailProbe{0};         //!< retransmissions after a tail-loss probe's answer
    uint64_t rtxRetiredEv{0};         //!< retransmissions of a retired EV's packets in flight
    uint64_t tailProbesSent{0};       //!< tail-loss probes (acknowledgement requests)
    uint64_t tailProbesTrimmed{0};    //!< receiver: trimmed tail-loss probes (not answered)
    uint64_t lossesOnLiveEv{0};       //!< of which on an EV that had delivered a later packet
    uint64_t lossesOnDeliveringEv{0}; //!< inferred QP-wide on an EV still delivering: EV kept
    uint64_t lossesLocatedLater{0};   //!< of which located later (EV order, path silence): retired
    uint64_t rtxNoBitmap{0};          //!< retransmissions after NACK NO_BITMAP / PSN_OOR_WINDOW
    uint64_t bytesRetransmitted{0};   //!< payload bytes retransmitted
    uint64_t rewindsNack{0};          //!< go-back-N: rewinds after a NACK
    uint64_t rewindsTimeout{0};       //!< go-back-N: rewinds after the retransmission timeout
    uint64_t sacksReceived{0};        //!< SACKs
    uint64_t nacksReceived{0};        //!< NACKs
    uint64_t cnpsReceived{0};         //!< CNPs (RoCEv2 congestion notifications)
    uint64_t probesSent{0};           //!< probes (restoration and reverse-path liveness)
    uint64_t restoreProbesSent{0};    //!< of them, restoration probes (padded to the MSS)
    // Receiver
    uint64_t dataPacketsReceived{0};  //!< new data packets placed
    uint64_t duplicatesReceived{0};   //!< duplicate data packets
    uint64_t trimmedReceived{0};      //!< trimmed data packets
    uint64_t malformedReceived{0};    //!< malformed packets dropped
    uint64_t outOfWindowReceived{0};  //!< PSNs beyond the window (NACK PSN_OOR_WINDOW)
    uint64_t noBitmapReceived{0};     //!< PSNs beyond the receive bitmap (NACK NO_BITMAP)
    uint64_t outOfSequenceDropped{0}; //!< go-back-N: PSNs ahead of the expected one, dropped
    uint64_t sacksSent{0};            //!< SACKs sent
    uint64_t nacksSent{0};            //!< NACKs sent
    uint64_t cnpsSent{0};             //!< CNPs sent (for CE-marked data)

    /**
     * Add another queue pair's counters (totals of a group of queue pairs).
     * \param o the other counters
     * \return this
     */
    MrcQpStats& operator+=(const MrcQpStats& o)
    {
        dataPacketsSent += o.dataPacketsSent;
        retransmissions += o.retransmissions;
        rtxTrimmed += o.rtxTrimmed;
        rtxTrimmedLastHop += o.rtxTrimmedLastHop;
        rtxTimeout += o.rtxTimeout;
        rtxSack += o.rtxSack;
        rtxPathOrder += o.rtxPathOrder;
        rtxPlaneOrder += o.rtxPlaneOrder;
        rtxTailReorder += o.rtxTailReorder;
        rtxTailProbe += o.rtxTailProbe;
        rtxRetiredEv += o.rtxRetiredEv;
        tailProbesSent += o.tailProbesSent;
        tailProbesTrimmed += o.tailProbesTrimmed;
        lossesOnLiveEv += o.lossesOnLiveEv;
        lossesOnDeliveringEv += o.lossesOnDeliveringEv;
        lossesLocatedLater += o.lossesLocatedLater;
        rtxNoBitmap += o.rtxNoBitmap;
        bytesRetransmitted += o.bytesRetransmitted;
        rewindsNack += o.rewindsNack;
        rewindsTimeout += o.rewindsTimeout;
        sacksReceived += o.sacksReceived;
        nacksReceived += o.nacksReceived;
        cnpsReceived += o.cnpsReceived;
        probesSent += o.probesSent;
        restoreProbesSent += o.restoreProbesSent;
        dataPacketsReceived += o.dataPacketsReceived;
        duplicatesReceived += o.duplicatesReceived;
        trimmedReceived += o.trimmedReceived;
        malformedReceived += o.malformedReceived;
        outOfWindowReceived += o.outOfWindowReceived;
        noBitmapReceived += o.noBitmapReceived;
        outOfSequenceDropped += o.outOfSequenceDropped;
        sacksSent += o.sacksSent;
        nacksSent += o.nacksSent;
        cnpsSent += o.cnpsSent;
        return *this;
    }
};

} // namespace ns3

#endif /* MRC_QP_STATS_H */
