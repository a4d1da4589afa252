/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COLLECTIVE_H
#define MRC_COLLECTIVE_H

#include "mrc-fabric-topology.h"
#include "mrc-line-rate-model.h"

#include "ns3/callback.h"
#include "ns3/mrc-helper.h"
#include "ns3/mrc-qp-group.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A collective communication pattern over a set of hosts (ranks), made of RDMA WRITEs.
 *
 * Setup() connects one MrcQpGroup (QpsPerPeer queue pairs, through the caller's MrcHelper, so
 * the transport is whatever that helper makes: MRC over SRv6 or ECMP, or the RoCEv2 baseline)
 * per ordered pair of ranks the pattern needs. Start() begins a run; the pattern then advances
 * only on completion events at the hosts (a WRITE acknowledged at its sender, delivered at its
 * receiver), never on a global clock. The run ends when every transfer of the run has been
 * delivered whole (P100); the Done trace and the done callback fire then, or at the first
 * fatal queue pair error (HasFailed()), so that a broken collective is reported, not hung.
 *
 * Every transfer of a run is recorded (ranks, bytes, post, acknowledgement and delivery
 * times); its completion time is delivery - post. A collective can run again (Start() forgets
 * the previous run), which is how MrcTrainingJob runs it once per step.
 *
 * Subclasses say which rank pairs they use (GetPeerPairs), what a run posts (DoStart), how
 * they react to completions (OnSendComplete, OnDelivered), how many transfers a run has
 * (GetTransferCount) and their line-rate ideal (GetIdealTime).
 *
 * Like MrcQpGroup, a collective must outlive the simulation run: its queue pairs call back
 * into it.
 *
 * Distributed runs (ns-3's MPI engine, MrcDistributed): every rank builds the same collective;
 * each posts the transfers of the ranks whose hosts it simulates, and each expects, in the
 * order GetPlannedTransfers gives, the transfers its hosts receive from hosts of other ranks
 * (MrcQpGroup::ExpectWrite), so the pattern advances on each rank from its own hosts'
 * completions. A rank knows the part of the run its hosts saw; the traces, the done callback
 * and End do not fire for the run as a whole there. MrcDistributed::GatherCollective then
 * gives rank 0 the whole run (GetRunRecord, MergeRunRecords): its transfers, duration and
 * failure, as one process would have them (but for ns-3's same-time event order).
 */
class MrcCollective : public Object
{
  public:
    /// One RDMA WRITE of a run.
    struct Transfer
    {
        uint32_t src{0};         //!< sending rank
        uint32_t dst{0};         //!< receiving rank
        uint64_t bytes{0};       //!< size
        uint32_t tag{0};         //!< subclass label (ring step, victim flag, ...)
        Time posted;             //!< posted at the sender
        Time acked;              //!< acknowledged whole at the sender (zero: not yet)
        Time delivered;          //!< arrived whole at the receiver (zero: not yet)
        Time ideal;              //!< line-rate ideal of this transfer alone on its path
        uint64_t offset{0};      //!< where it lands in the receiver's region (VerifyData)
        uint32_t seq{0};         //!< its number among its rank pair's transfers of the run
        bool isPosted{false};    //!< posted (false: known here only as expected, see below)
        bool isAcked{false};     //!< acknowledged
        bool isDelivered{false}; //!< delivered
        bool isCorrupt{false};   //!< delivered with wrong bytes (VerifyData)
    };

    /// A transfer that a run posts on a rank pair (GetPlannedTransfers).
    struct PlannedTransfer
    {
        uint64_t bytes{0}; //!< size
        uint32_t tag{0};   //!< subclass label
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcCollective();
    ~MrcCollective() override;

    /**
     * Take the ranks and connect the queue pairs the pattern needs.
     * \param topo the fabric (line rate and path lengths of the ideal)
     * \param mrc the transport helper (already installed; its policies are used)
     * \param hosts host index of each rank (rank i = hosts[i]), distinct
     * \throws std::invalid_argument if there are too few hosts for the pattern, a host repeats
     *         or is out of range
     */
    void Setup(Ptr<MrcFabricTopology> topo, MrcHelper& mrc, const std::vector<uint32_t>& hosts);

    /// Begin a run now (after Setup; not while a run is in progress, except, in a distributed
    /// run, one whose deliveries here are all done and that waits only for acknowledgements:
    /// one process would have ended it at its last delivery).
    void Start();
    /// Begin a run at the StartTime attribute (relative to now).
    void ScheduleStart();

    /// \param cb called with this collective when a run ends (done or failed)
    void SetDoneCallback(Callback<void, Ptr<MrcCollective>> cb);

    /**
     * Distributed runs only (the done callback does not fire there): \param cb called with this
     * collective and false when this rank's hosts have received every transfer of the run they
     * expect (at the last delivery, or at Start if they expect none), and with true when a
     * queue pair of this rank fails during the run (possibly after the first call). A rank's
     * shares, combined over the ranks (MrcRankBarrier), give the run's end as one process has
     * it: the last delivery anywhere, or the first failure before it.
     */
    void SetRankShareCallback(Callback<void, Ptr<MrcCollective>, bool> cb);

    /// \return a short name of the pattern
    virtual std::string GetName() const = 0;
    /// \return the line-rate ideal of one run (see MrcLineRateModel)
    virtual Time GetIdealTime() const = 0;

    /// \return number of ranks
    uint32_t GetRankCount() const;
    /// \param rank a rank \return its host
    uint32_t GetHost(uint32_t rank) const;
    /// \return the message size S
    uint64_t GetMessageSize() const;
    /// \return true while a run is in progress
    bool IsRunning() const;
    /// \return true if the last run ended (successfully or not)
    bool IsDone() const;
    /// \return true if the last run ended on a queue pair error
    bool HasFailed() const;
    /// \return the first error of the last run (empty if none)
    std::string GetFailure() const;
    /// \return when the last run started
    Time GetStartTime() const;
    /// \return when the last run ended (zero if it has not)
    Time GetEndTime() const;
    /// \return end - start of the last run (zero if it has not ended)
    Time GetDuration() const;
    /// \return the transfers of the last run
    const std::vector<Transfer>& GetTransfers() const;
    /// \return completion times (delivery - post) of the delivered transfers of the last run
    std::vector<Time> GetTransferTimes() const;
    /// \param rank a rank \return bytes delivered to it in the last run
    uint64_t GetReceivedBytes(uint32_t rank) const;
    /// \param rank a rank \return bytes it has had acknowledged in the last run
    uint64_t GetSentBytes(uint32_t rank) const;
    /**
     * With VerifyData, transfers delivered whose bytes in the receiver's memory differ from
     * what was sent.
     * \return their number in the last run (0 without VerifyData)
     */
    uint32_t GetCorruptTransfers() const;
    /// \return the line-rate model of the fabric (after Setup)
    const MrcLineRateModel& GetLineRate() const;
    /// \return the longest path (links) between the rank pairs this pattern uses
    uint32_t GetMaxLinks() const;
    /**
     * \param src a rank
     * \param dst another
     * \return links on the path between them (after Setup)
     * \throws std::out_of_range if the pattern does not connect them
     */
    uint32_t GetLinks(uint32_t src, uint32_t dst) const;
    /// \param src a rank \param dst another \return their group (nullptr if not connected)
    Ptr<MrcQpGroup> GetGroup(uint32_t src, uint32_t dst) const;

    /**
     * \return the (sending rank, receiving rank) pairs that have a queue-pair group, in
     *         ascending order (after Setup; empty before)
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetPairs() const;

    /**
     * The transfers one run posts on a rank pair, in the order it posts them: what the
     * receiving rank of a distributed run expects from another rank. Built-in patterns all say;
     * the default throws, so a pattern that does not say cannot run on several ranks.
     * \param src sending rank
     * \param dst receiving rank (a pair of GetPeerPairs)
     * \return the transfers, in posting order
     * \throws std::logic_error if the pattern does not say
     */
    virtual std::vector<PlannedTransfer> GetPlannedTransfers(uint32_t src, uint32_t dst) const;

    /**
     * This process's knowledge of the last run, as numbers that combine across ranks by
     * element-wise maximum: per planned transfer (pairs in GetPeerPairs order, then posting
     * order) post, acknowledgement and delivery times plus one (0: not seen here) and a
     * corrupt flag, then whether the run failed here and when.
     * \param until what happened later is left out (a distributed training step reads it one
     *        lookahead after the step's end, which one process would not have recorded)
     * \return the record (the same size on every rank)
     */
    std::vector<int64_t> GetRunRecord(Time until = Time::Max()) const;

    /**
     * Take the whole run from the element-wise maximum of every rank's GetRunRecord (rank 0,
     * MrcDistributed::GatherCollective): GetTransfers (ordered by post time), the counts, the
     * end and the failure then describe the whole run. Fires no trace.
     * \param merged the combined record
     * \throws std::invalid_argument if its size is not GetRunRecord's
     */
    void MergeRunRecords(const std::vector<int64_t>& merged);

    /**
     * TracedCallback signature of TransferComplete.
     * \param src sending rank
     * \param dst receiving rank
     * \param bytes size
     * \param fct completion time (delivery - post)
     */
    typedef void (*TransferTracedCallback)(uint32_t src, uint32_t dst, uint64_t bytes, Time fct);
    /**
     * TracedCallback signature of Done.
     * \param duration the run's duration
     * \param failed true if it ended on an error
     */
    typedef void (*DoneTracedCallback)(Time duration, bool failed);

  protected:
    void DoDispose() override;

    /// \return the ordered rank pairs (src, dst) the pattern writes over
    virtual std::vector<std::pair<uint32_t, uint32_t>> GetPeerPairs() const = 0;
    /// \return the number of transfers of one run
    virtual uint32_t GetTransferCount() const = 0;
    /// \return the fewest ranks the pattern accepts
    virtual uint32_t GetMinRanks() const;
    /// Called by Setup once the ranks are known, before GetPeerPairs (default: nothing).
    virtual void DoSetup();
    /// Post the first transfers of a run (Post()).
    virtual void DoStart() = 0;
    /// \param index a transfer just acknowledged at its sender
    virtual void OnSendComplete(uint32_t index);
    /// \param index a transfer just delivered at its receiver
    virtual void OnDelivered(uint32_t index);

    /**
     * Post a WRITE of the run.
     * \param src sending rank
     * \param dst receiving rank (the pair must be in GetPeerPairs)
     * \param bytes size
     * \param tag subclass label
     * \return the transfer's index in GetTransfers() (in a distributed run, the largest
     *         uint32_t when another rank simulates the sending host: that rank posts it)
     */
    uint32_t Post(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag = 0);

    uint64_t m_size;          //!< MessageSize attribute (S)
    uint32_t m_qpsPerPeer;    //!< QpsPerPeer attribute (0: the helper's default)
    Time m_startDelay;        //!< StartTime attribute
    bool m_verifyData{false}; //!< VerifyData attribute

  private:
    /// \param pair group index \param msg group message number
    void OnGroupComplete(uint32_t pair, uint32_t msg);
    /**
     * \param pair group index
     * \param msg group message number
     * \param bytes size
     * \param imm immediate
     */
    void OnGroupReceive(uint32_t pair, uint32_t msg, uint64_t bytes, std::optional<uint32_t> imm);
    /// \param reason a queue pair's fatal error
    void OnError(std::string reason);
    /// \param failed end the run, failed or not
    void End(bool failed);
    /**
     * \param index a transfer of the run
     * \return its bytes (VerifyData): a pattern of the run, its pair and its number there
     */
    std::shared_ptr<std::vector<uint8_t>> Pattern(uint32_t index) const;
    /**
     * \param pair group index
     * \param seq its number among the pair's transfers of the run
     * \param bytes size
     * \param tag subclass label
     * \return a transfer of the pair with its line-rate ideal, nothing posted or seen yet
     */
    Transfer NewTransfer(uint32_t pair, uint32_t seq, uint64_t bytes, uint32_t tag) const;
    /// \return true in a distributed run whose transfers to this rank's hosts have all arrived
    bool IsShareDelivered() const;
    /// Tell the rank share callback that this rank's part arrived, if it has (IsShareDelivered)
    void ReportShareIfDelivered();
    /// \param pair group index \return true if this process simulates its sending host
    bool IsSenderHere(uint32_t pair) const;
    /// \param pair group index \return true if this process simulates its receiving host
    bool IsReceiverHere(uint32_t pair) const;
    /**
     * \param pair group index
     * \param bytes a transfer's size
     * \return its offset in the pair's region; the region grown and cleared (VerifyData)
     */
    uint64_t Reserve(uint32_t pair, uint64_t bytes);
    /// Distributed run: expect the transfers that other ranks' hosts send to this one's.
    void ExpectRemoteTransfers();
    /// \return the planned transfers of every pair, in group order
    std::vector<std::vector<PlannedTransfer>> GetPlan() const;

    std::vector<uint32_t> m_hosts;                                //!< rank -> host
    std::vector<Ptr<MrcQpGroup>> m_groups;                        //!< per pair
    std::vector<uint32_t> m_links;                                //!< per pair: path links
    std::vector<std::shared_ptr<std::vector<uint8_t>>> m_regions; //!< per pair (VerifyData)
    std::vector<uint64_t> m_cursor;                     //!< per pair: next offset in its region
    std::vector<uint32_t> m_pairSeq;                    //!< per pair: transfers posted in the run
    std::vector<std::pair<uint32_t, uint32_t>> m_pairs; //!< per group: (src, dst)
    bool m_distributed{false};                          //!< this run is one rank's share
    uint32_t m_deliveriesHere{0};                       //!< deliveries this process sees
    uint32_t m_sendsHere{0};                          //!< distributed: transfers this process posts
    uint32_t m_acked{0};                              //!< transfers acknowledged in the run
    std::vector<std::vector<PlannedTransfer>> m_plan; //!< distributed: per group, the run
    uint32_t m_run{0};                                //!< runs started
    uint32_t m_corrupt{0};                            //!< corrupt deliveries in the run
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_pairIndex; //!< (src, dst) -> group
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_inFlight;  //!< (group, msg) -> transfer
    std::vector<Transfer> m_transfers;                             //!< the run's transfers
    std::optional<MrcLineRateModel> m_lineRate;                    //!< ideal model
    uint32_t m_maxLinks{1};                                        //!< longest path used
    uint32_t m_delivered{0};                                       //!< transfers delivered
    bool m_running{false};                                         //!< run in progress
    bool m_done{false};                                            //!< last run ended
    bool m_failed{false};                                          //!< ... on an error
    std::string m_failure;                                         //!< first error
    Time m_start;                                                  //!< run start
    Time m_end;                                                    //!< run end
    Callback<void, Ptr<MrcCollective>> m_doneCallback;             //!< done callback
    Callback<void, Ptr<MrcCollective>, bool> m_shareCallback;      //!< rank share callback
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_transferTrace; //!< TransferComplete
    TracedCallback<Time, bool> m_doneTrace;                             //!< Done
};

} // namespace ns3

#endif /* MRC_COLLECTIVE_H */
