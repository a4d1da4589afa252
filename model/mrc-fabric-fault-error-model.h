/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_FAULT_ERROR_MODEL_H
#define MRC_FABRIC_FAULT_ERROR_MODEL_H

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup mrc
 * Why a fabric link lost a packet (MrcFabricNetDevice, MrcFabricFaultErrorModel, MrcFailureHelper).
 */
enum class MrcFabricLossCause : uint8_t
{
    LINK_DOWN = 0,   //!< sent into a link without carrier (or queued in its device when it fell)
    IN_FLIGHT = 1,   //!< on the wire when the link went down
    BLACKHOLE = 2,   //!< silently dropped by a black-holed link or switch (carrier up)
    RANDOM_LOSS = 3, //!< gray failure: random loss with a probability
};

/// Number of MrcFabricLossCause values.
constexpr uint32_t kMrcFabricLossCauses = 4;

/**
 * \param os stream
 * \param cause a cause
 * \return the stream ("link-down", "in-flight", "blackhole", "random-loss")
 */
std::ostream& operator<<(std::ostream& os, MrcFabricLossCause cause);

/**
 * \ingroup mrc
 * \brief The receive side of a fabric link's failures, as an ns-3 ErrorModel: the
 * ReceiveErrorModel of an MrcFabricNetDevice.
 *
 * IsCorrupt() (called by PointToPointNetDevice::Receive for every arriving frame) drops, in this
 * order of precedence:
 *  - while the carrier is down (NotifyCarrier), every arrival; after it is back, every arrival
 *    whose first bit left the sender at or before the moment the carrier fell (a packet on the
 *    wire when the link went down is lost even if the link is back when it arrives). The
 *    transmission start is computed from the arrival time, the channel delay and the frame's
 *    serialization time at the sender's rate when the carrier fell;
 *  - everything while Blackhole is true;
 *  - each frame with probability LossProbability (gray failure), drawn from a
 *    UniformRandomVariable created only when a probability above 0 is set or AssignStreams is
 *    called, so that fabrics without gray failures draw nothing from ns-3's RNG;
 *  - whatever the inner error model (SetInner: a model the device had before, such as a
 *    RateErrorModel) drops; those drops are the inner model's and are not counted here.
 * Disable() turns this model's own causes off; the inner model is still consulted.
 */
class MrcFabricFaultErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFabricFaultErrorModel();
    ~MrcFabricFaultErrorModel() override;

    /**
     * TracedCallback signature of the Drop trace.
     * \param packet the frame (with its PPP header)
     * \param cause why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, MrcFabricLossCause cause);

    /**
     * \param blackhole drop every arriving frame (true) or stop doing so (false)
     */
    void SetBlackhole(bool blackhole);
    /// \return whether every arriving frame is dropped
    bool IsBlackhole() const;

    /**
     * \param probability the probability of losing each arriving frame, in [0, 1]
     * \throws std::invalid_argument outside [0, 1]
     */
    void SetLossProbability(double probability);
    /// \return the loss probability
    double GetLossProbability() const;

    /**
     * \param inner an error model consulted after this one's causes (may be null)
     */
    void SetInner(Ptr<ErrorModel> inner);
    /// \return the inner error model (may be null)
    Ptr<ErrorModel> GetInner() const;

    /**
     * The device's carrier changed.
     * \param up new state
     * \param delay the channel's propagation delay
     * \param senderRate the data rate of the device at the other end (the sender of what
     *        arrives here)
     */
    void NotifyCarrier(bool up, Time delay, DataRate senderRate);

    /**
     * \param stream first stream index to use
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param cause a cause
     * \return frames this model dropped for it
     */
    uint64_t GetDropped(MrcFabricLossCause cause) const;

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    /**
     * Count and trace a drop.
     * \param p the frame
     * \param cause why
     * \return true
     */
    bool Drop(Ptr<const Packet> p, MrcFabricLossCause cause);

    /// \return the random variable of gray loss (created on first use)
    Ptr<UniformRandomVariable> GetUniform();

    bool m_carrier{true};                                              //!< carrier up
    bool m_everDown{false};                                            //!< carrier ever fell
    Time m_downAt;                                                     //!< last carrier loss
    Time m_delay;                                                      //!< channel delay
    DataRate m_senderRate;                                             //!< sender rate then
    bool m_blackhole{false};                                           //!< drop everything
    double m_lossProbability{0};                                       //!< gray loss
    Ptr<UniformRandomVariable> m_uniform;                              //!< gray loss draws
    Ptr<ErrorModel> m_inner;                                           //!< chained model
    std::array<uint64_t, kMrcFabricLossCauses> m_dropped{};            //!< drops by cause
    TracedCallback<Ptr<const Packet>, MrcFabricLossCause> m_dropTrace; //!< Drop trace
};

} // namespace ns3

#endif /* MRC_FABRIC_FAULT_ERROR_MODEL_H */
