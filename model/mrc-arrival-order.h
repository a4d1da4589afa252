/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ARRIVAL_ORDER_H
#define MRC_ARRIVAL_ORDER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class Node;
class Packet;
class PointToPointNetDevice;

/**
 * \ingroup mrc
 * \brief Delivers the frames that reach a node in one time step in the order of the receiving
 * interfaces, whatever order their events were created in.
 *
 * ns-3 runs the events of one time step in the order they were scheduled. A frame's arrival is
 * scheduled when its sender starts it on the wire on one process, and when its MPI message is
 * read on a distributed run (a barrier later), so two frames reaching a switch in the same
 * nanosecond can be taken in either order, and the queues, marks and trims that follow differ.
 * With MrcFabricChannel's OrderArrivals, a frame is instead handed to Stage one time step
 * (TimeStep (1), the simulator's resolution) before it arrives; the first Stage of a step
 * schedules Deliver for the step, which passes that step's frames to their devices' Receive by
 * interface index. Deliver's event is created one step before the arrivals, by the node
 * itself, on one process and on every rank alike; it runs after the node's events scheduled
 * earlier (timers, the end of a transmission) and before what the frames cause, so a node's
 * events of a time step run in the same order on one process and on any number of ranks.
 * PAUSE frames, which a channel hands to an MrcPfcPort rather than to the device, are staged
 * the same way as calls (StageCall). Not ordered: events another node's code schedules on this
 * node directly. Two arrivals at one interface in one step (a zero serialisation time) keep
 * their staging order.
 *
 * One instance per node, aggregated on first use (Get).
 */
class MrcArrivalOrder : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcArrivalOrder();
    ~MrcArrivalOrder() override;

    /**
     * \param node a node
     * \return its MrcArrivalOrder, aggregated to it if it had none
     */
    static Ptr<MrcArrivalOrder> Get(Ptr<Node> node);

    /// \return how long before its arrival a frame is staged: one time step
    static Time Lead();

    /**
     * Stage a frame that arrives at device one Lead from now (call it in the node's context).
     * \param device the receiving device, on this node
     * \param p the frame
     */
    void Stage(Ptr<PointToPointNetDevice> device, Ptr<Packet> p);

    /**
     * Stage a call that delivers something arriving at interface ifIndex one Lead from now, in
     * that interface's place among the step's arrivals (e.g. a PAUSE frame for its MrcPfcPort).
     * \param ifIndex the receiving interface, on this node
     * \param deliver what to call when it arrives
     */
    void StageCall(uint32_t ifIndex, std::function<void()> deliver);

    /// \return frames and calls staged so far
    uint64_t GetStagedFrames() const;

  protected:
    void DoDispose() override;

  private:
    /// A staged frame.
    struct Frame
    {
        int64_t step{0};                   //!< its arrival, in time steps
        uint32_t ifIndex{0};               //!< the receiving interface
        Ptr<PointToPointNetDevice> device; //!< the receiving device (null: a call)
        Ptr<Packet> packet;                //!< the frame
        std::function<void()> call;        //!< a staged call (StageCall)
    };

    /// Keep a frame or call for the step one Lead from now; schedule that step's Deliver.
    /// \param frame what arrives
    void Keep(Frame frame);

    /// Hand the frames arriving now to their devices, by interface index.
    void Deliver();

    std::vector<Frame> m_frames; //!< staged, not yet delivered (one or two steps)
    std::vector<Frame> m_now;    //!< Deliver's batch (kept for its capacity)
    int64_t m_scheduledStep{-1}; //!< the last step a Deliver was scheduled for
    uint64_t m_staged{0};        //!< frames staged
};

} // namespace ns3

#endif /* MRC_ARRIVAL_ORDER_H */
