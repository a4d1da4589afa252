/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-reconvergence-model.h"

#include "mrc-fabric-address-plan.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/mrc-ecmp-routing-helper.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/names.h"
#include "ns3/net-device.h"
#include "ns3/simple-ref-count.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcBgpReconvergenceModel");

NS_OBJECT_ENSURE_REGISTERED(MrcBgpReconvergenceModel);

/**
 * What devices and routing traces hold instead of the model: a plain pointer back that the
 * model clears when it goes away (NetDevice link-change callbacks cannot be removed).
 */
class MrcBgpReconvergenceModel::CallbackSink : public SimpleRefCount<CallbackSink>
{
  public:
    /// \param model the model
    explicit CallbackSink(MrcBgpReconvergenceModel* model)
        : m_model(model)
    {
    }

    /// The model is gone.
    void Detach()
    {
        m_model = nullptr;
    }

    /// \param linkId link whose carrier changed
    void LinkChange(uint32_t linkId)
    {
        if (m_model)
        {
            m_model->OnLinkChange(linkId);
        }
    }

    /**
     * \param linkId link whose receive-side fault changed
     * \param blackhole (unused: the model reads both ends)
     * \param lossProbability (unused)
     */
    void FaultChange(uint32_t linkId, bool blackhole, double lossProbability)
    {
        if (m_model)
        {
            m_model->OnFaultChange(linkId);
        }
    }

    /**
     * \param sw switch index
     * \param packet packet
     * \param header header
     * \param interface outgoing interface
     * \param hash flow hash
     */
    void Forward(uint32_t sw,
                 Ptr<const Packet> packet,
                 const Ipv6Header& header,
                 uint32_t interface,
                 uint32_t hash)
    {
        if (m_model)
        {
            m_model->OnForward(sw, interface);
        }
    }

  private:
    MrcBgpReconvergenceModel* m_model; //!< the model, or nullptr once gone
};

TypeId
MrcBgpReconvergenceModel::GetTypeId()
{
    const MrcBgpConvergenceTiming d;
    static TypeId tid =
        TypeId("ns3::MrcBgpReconvergenceModel")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcBgpReconvergenceModel>()
            .AddAttribute("CarrierDetectionDelay",
                          "Time from a loss of carrier to both ends taking the BGP session down "
                          "(link-state interrupt, debounce, fast external fall-over), >= 0.",
                          TimeValue(d.carrierDetectionDelay),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_carrierDetectionDelay),
                          MakeTimeChecker())
            .AddAttribute("BfdEnabled",
                          "BFD runs on every fabric link (detects blackholes too).",
                          BooleanValue(d.bfdEnabled),
                          MakeBooleanAccessor(&MrcBgpReconvergenceModel::m_bfdEnabled),
                          MakeBooleanChecker())
            .AddAttribute("BfdInterval",
                          "BFD transmit/receive interval, > 0 (FRR bfdd default 300 ms).",
                          TimeValue(d.bfdInterval),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_bfdInterval),
                          MakeTimeChecker())
            .AddAttribute("BfdDetectMultiplier",
                          "BFD detect multiplier, 1..255: detection time = multiplier x "
                          "interval (RFC 5880).",
                          UintegerValue(d.bfdDetectMultiplier),
                          MakeUintegerAccessor(&MrcBgpReconvergenceModel::m_bfdDetectMultiplier),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HoldTimerDetection",
                          "The BGP hold timer detects blackholes (the failure also drops the "
                          "KEEPALIVEs). Off: a data-plane blackhole keeps the session up.",
                          BooleanValue(d.holdTimerDetection),
                          MakeBooleanAccessor(&MrcBgpReconvergenceModel::m_holdTimerDetection),
                          MakeBooleanChecker())
            .AddAttribute("HoldTime",
                          "BGP hold time: 0 (none) or 3..65535 s (RFC 4271 suggests 90 s; data "
                          "centres use 9 s, FRR's datacenter profile).",
                          TimeValue(d.holdTime),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_holdTime),
                          MakeTimeChecker())
            .AddAttribute("SessionEstablishDelay",
                          "After a repair is detected, time to re-establish the session (TCP, "
                          "OPEN, KEEPALIVE), >= 0.",
                          TimeValue(d.sessionEstablishDelay),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_sessionEstablishDelay),
                          MakeTimeChecker())
            .AddAttribute("PerHopDelay",
                          "Time for an UPDATE to reach a neighbour and be processed there, >= 0.",
                          TimeValue(d.perHopDelay),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_perHopDelay),
                          MakeTimeChecker())
            .AddAttribute("Mrai",
                          "MinRouteAdvertisementInterval added per BGP hop, >= 0 (0 in data "
                          "centres, RFC 7938; eBGP default 30 s, RFC 4271).",
                          TimeValue(d.mrai),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_mrai),
                          MakeTimeChecker())
            .AddAttribute("FibBaseTime",
                          "Fixed time of one FIB programming batch, >= 0.",
                          TimeValue(d.fibBaseTime),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_fibBaseTime),
                          MakeTimeChecker())
            .AddAttribute("FibPerRouteTime",
                          "FIB programming time per changed route, >= 0 (a public switch test: "
                          "0.65 s for 500 routes, 6.5 s for 5000).",
                          TimeValue(d.fibPerRouteTime),
                          MakeTimeAccessor(&MrcBgpReconvergenceModel::m_fibPerRouteTime),
                          MakeTimeChecker())
            .AddTraceSource(
                "ConvergenceStart",
                "A switch starts changing routes (failure detected or UPDATE "
                "received) with no FIB work pending: node id.",
                MakeTraceSourceAccessor(&MrcBgpReconvergenceModel::m_convergenceStartTrace),
                "ns3::MrcBgpReconvergenceModel::SwitchTracedCallback")
            .AddTraceSource(
                "ConvergenceEnd",
                "A switch's FIB is programmed and nothing is pending: node id.",
                MakeTraceSourceAccessor(&MrcBgpReconvergenceModel::m_convergenceEndTrace),
                "ns3::MrcBgpReconvergenceModel::SwitchTracedCallback")
            .AddTraceSource(
                "RoutesChanged",
                "A FIB batch is programmed: node id, routes changed.",
                MakeTraceSourceAccessor(&MrcBgpReconvergenceModel::m_routesChangedTrace),
                "ns3::MrcBgpReconvergenceModel::RoutesChangedTracedCallback")
            .AddTraceSource(
                "SessionChange",
                "A BGP session goes down (failure detected) or up: link id, up.",
                MakeTraceSourceAccessor(&MrcBgpReconvergenceModel::m_sessionChangeTrace),
                "ns3::MrcBgpReconvergenceModel::SessionChangeTracedCallback");
    return tid;
}

MrcBgpReconvergenceModel::MrcBgpReconvergenceModel()
    : m_sink(Create<CallbackSink>(this))
{
    NS_LOG_FUNCTION(this);
}

MrcBgpReconvergenceModel::~MrcBgpReconvergenceModel()
{
    m_sink->Detach();
    if (m_fib)
    {
        m_fib->Detach();
    }
}

void
MrcBgpReconvergenceModel::NotifyConstructionCompleted()
{
    Object::NotifyConstructionCompleted();
    m_timing = GetTiming();
}

void
MrcBgpReconvergenceModel::DoDispose()
{
    m_sink->Detach();
    for (LinkState& l : m_links)
    {
        l.detection.Cancel();
        l.establish.Cancel();
    }
    if (m_fib)
    {
        m_fib->Detach();
    }
    m_fib = nullptr;
    m_rib.reset();
    m_topo = nullptr;
    Object::DoDispose();
}

void
MrcBgpReconvergenceModel::RefreshTiming()
{
    m_timing = GetTiming();
    if (m_fib)
    {
        m_fib->SetTiming(m_timing);
    }
}

MrcBgpConvergenceTiming
MrcBgpReconvergenceModel::GetTiming() const
{
    MrcBgpConvergenceTiming t;
    t.carrierDetectionDelay = m_carrierDetectionDelay;
    t.bfdEnabled = m_bfdEnabled;
    t.bfdInterval = m_bfdInterval;
    t.bfdDetectMultiplier = m_bfdDetectMultiplier;
    t.holdTimerDetection = m_holdTimerDetection;
    t.holdTime = m_holdTime;
    t.sessionEstablishDelay = m_sessionEstablishDelay;
    t.perHopDelay = m_perHopDelay;
    t.mrai = m_mrai;
    t.fibBaseTime = m_fibBaseTime;
    t.fibPerRouteTime = m_fibPerRouteTime;
    t.Validate();
    return t;
}

void
MrcBgpReconvergenceModel::Install(Ptr<MrcFabricTopology> topo)
{
    NS_LOG_FUNCTION(this);
    if (m_topo)
    {
        throw std::logic_error("MrcBgpReconvergenceModel::Install: already installed on a fabric");
    }
    m_timing = GetTiming();
    auto rib = std::make_shared<MrcBgpFabricRib>(topo);
    Ptr<MrcBgpFibProgrammer> fib = Create<MrcBgpFibProgrammer>(
        rib,
        topo->GetSpec().GetT0Count(),
        MrcBgpFibProgrammer::Traces{&m_convergenceStartTrace,
                                    &m_convergenceEndTrace,
                                    &m_routesChangedTrace}); // checks the installed tables
    fib->SetTiming(m_timing);
    m_topo = topo;
    m_rib = rib;
    m_fib = fib;
    m_links.assign(topo->GetLinks().size(), LinkState());
    for (uint32_t sw = 0; sw < m_rib->GetNSwitches(); ++sw)
    {
        m_fib->GetRouting(sw)->TraceConnectWithoutContext(
            "Forward",
            MakeCallback(&CallbackSink::Forward, m_sink).Bind(sw));
    }
    NS_LOG_INFO("BGP model on " << m_rib->GetNSwitches() << " switches");
}

void
MrcBgpReconvergenceModel::AttachToDevices()
{
    if (!m_topo)
    {
        throw std::logic_error("MrcBgpReconvergenceModel::AttachToDevices: Install first");
    }
    for (const MrcFabricLink& link : m_topo->GetLinks())
    {
        if (m_rib->HasSession(link.id))
        {
            Callback<void> cb = MakeCallback(&CallbackSink::LinkChange, m_sink).Bind(link.id);
            link.lowerDevice->AddLinkChangeCallback(cb);
            link.upperDevice->AddLinkChangeCallback(cb);
            for (Ptr<NetDevice> device : {link.lowerDevice, link.upperDevice})
            {
                if (Ptr<MrcFabricNetDevice> fabric = DynamicCast<MrcFabricNetDevice>(device))
                {
                    fabric->TraceConnectWithoutContext(
                        "ReceiveFaultChange",
                        MakeCallback(&CallbackSink::FaultChange, m_sink).Bind(link.id));
                }
            }
        }
    }
}

void
MrcBgpReconvergenceModel::OnLinkChange(uint32_t linkId)
{
    const MrcFabricLink& link = m_topo->GetLinks().at(linkId);
    const bool up = link.lowerDevice->IsLinkUp() && link.upperDevice->IsLinkUp();
    const LinkState& l = m_links[linkId];
    if (!up && (!l.failed || l.kind != MrcLinkFailureKind::CARRIER_LOSS))
    {
        LinkFailed(link, MrcLinkFailureKind::CARRIER_LOSS); // also a blackhole losing carrier
    }
    else if (up && l.failed && l.kind == MrcLinkFailureKind::CARRIER_LOSS)
    {
        LinkRestored(link);
    }
}

bool
MrcBgpReconvergenceModel::IsBlackholed(const MrcFabricLink& link)
{
    for (Ptr<NetDevice> device : {link.lowerDevice, link.upperDevice})
    {
        Ptr<MrcFabricNetDevice> fabric = DynamicCast<MrcFabricNetDevice>(device);
        if (fabric && (fabric->IsReceiveBlackhole() || fabric->GetReceiveLossProbability() >= 1))
        {
            return true;
        }
    }
    return false;
}

void
MrcBgpReconvergenceModel::OnFaultChange(uint32_t linkId)
{
    const MrcFabricLink& link = m_topo->GetLinks().at(linkId);
    const LinkState& l = m_links[linkId];
    const bool blackholed = IsBlackholed(link);
    if (blackholed && !l.failed)
    {
        LinkFailed(link, MrcLinkFailureKind::BLACKHOLE);
    }
    else if (!blackholed && l.failed && l.kind == MrcLinkFailureKind::BLACKHOLE)
    {
        LinkRestored(link);
    }
}

uint32_t
MrcBgpReconvergenceModel::CheckedLink(const MrcFabricLink& link) const
{
    if (!m_topo)
    {
        throw std::logic_error("MrcBgpReconvergenceModel: Install first");
    }
    const auto& links = m_topo->GetLinks();
    if (link.id >= links.size() || links[link.id].lower != link.lower
        || links[link.id].upper != link.upper || !m_rib->HasSession(link.id))
    {
        throw std::invalid_argument("MrcBgpReconvergenceModel: link (id " + std::to_string(link.id)
                                    + ") must be a switch-to-switch link of the fabric (ids 0.."
                                    + std::to_string(links.size() - 1)
                                    + "; host links carry no BGP session)");
    }
    return link.id;
}

uint32_t
MrcBgpReconvergenceModel::CheckedSwitch(Ptr<const Node> node) const
{
    if (!m_topo)
    {
        throw std::logic_error("MrcBgpReconvergenceModel: Install first");
    }
    const auto sw = m_rib->FindSwitch(node);
    if (!sw)
    {
        throw std::invalid_argument("MrcBgpReconvergenceModel: node (="
                                    + (node ? std::to_string(node->GetId()) : std::string("null"))
                                    + ") must be a switch of the fabric");
    }
    return *sw;
}

MrcFailureDetector
MrcBgpReconvergenceModel::LinkFailed(const MrcFabricLink& link, MrcLinkFailureKind kind)
{
    LinkState& l = m_links[CheckedLink(link)];
    RefreshTiming();
    const MrcFailureDetector detector = m_timing.GetDetector(kind);
    if (!l.failed)
    {
        l.failed = true;
        l.kind = kind;
        ++m_failedLinks;
    }
    else if (kind == MrcLinkFailureKind::CARRIER_LOSS)
    {
        l.kind = kind; // a blackhole that now lost carrier too
    }
    l.establish.Cancel(); // failed again before its session came back: it stays down
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " link " << link.id << " failed (" << kind
                     << "), detector " << detector);
    if (detector != MrcFailureDetector::NONE && m_rib->IsSessionUp(link.id))
    {
        const Time delay = m_timing.GetDetectionDelay(detector);
        if (l.detection.IsExpired() || delay < Simulator::GetDelayLeft(l.detection))
        {
            l.detection.Cancel();
            l.detector = detector;
            l.detection =
                Simulator::Schedule(delay, &MrcBgpReconvergenceModel::Detect, this, link.id);
        }
    }
    return detector;
}

void
MrcBgpReconvergenceModel::LinkRestored(const MrcFabricLink& link)
{
    LinkState& l = m_links[CheckedLink(link)];
    RefreshTiming();
    if (!l.failed)
    {
        return;
    }
    l.failed = false;
    --m_failedLinks;
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " link " << link.id << " restored");
    if (!l.detection.IsExpired())
    {
        l.detection.Cancel(); // repaired before anyone noticed
    }
    else if (!m_rib->IsSessionUp(link.id))
    {
        l.establish = Simulator::Schedule(m_timing.GetRestoreDelay(l.detector),
                                          &MrcBgpReconvergenceModel::Establish,
                                          this,
                                          link.id);
    }
}

void
MrcBgpReconvergenceModel::SwitchFailed(Ptr<Node> node, MrcLinkFailureKind kind)
{
    CheckedSwitch(node);
    for (const MrcFabricLink& link : m_topo->GetLinksOf(node))
    {
        if (m_rib->HasSession(link.id))
        {
            LinkFailed(link, kind);
        }
    }
}

void
MrcBgpReconvergenceModel::SwitchRestored(Ptr<Node> node)
{
    CheckedSwitch(node);
    for (const MrcFabricLink& link : m_topo->GetLinksOf(node))
    {
        if (m_rib->HasSession(link.id))
        {
            LinkRestored(link);
        }
    }
}

void
MrcBgpReconvergenceModel::Detect(uint32_t linkId)
{
    LinkState& l = m_links[linkId];
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " session on link " << linkId << " down ("
                     << l.detector << ")");
    ++l.epoch;
    m_sessionChangeTrace(linkId, false);
    const auto decisions = m_rib->SessionDown(linkId);
    for (uint32_t end = 0; end < 2; ++end)
    {
        Handle(m_rib->GetSwitch(linkId, end), decisions[end]);
    }
}

void
MrcBgpReconvergenceModel::Establish(uint32_t linkId)
{
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " session on link " << linkId << " up");
    ++m_links[linkId].epoch;
    m_rib->SessionUp(linkId);
    m_sessionChangeTrace(linkId, true);
    for (uint32_t end = 0; end < 2; ++end)
    {
        Send(linkId, end, m_rib->GetAllAdvertisements(m_rib->GetSwitch(linkId, end)));
    }
}

void
MrcBgpReconvergenceModel::Send(uint32_t linkId,
                               uint32_t fromEnd,
                               const MrcBgpPathVector::Update& update)
{
    ++m_inFlight;
    Simulator::Schedule(m_timing.GetHopDelay(),
                        &MrcBgpReconvergenceModel::Deliver,
                        Ptr<MrcBgpReconvergenceModel>(this),
                        linkId,
                        1 - fromEnd,
                        m_links[linkId].epoch,
                        update);
}

void
MrcBgpReconvergenceModel::Deliver(uint32_t linkId,
                                  uint32_t toEnd,
                                  uint32_t epoch,
                                  MrcBgpPathVector::Update update)
{
    --m_inFlight;
    if (!m_rib || epoch != m_links[linkId].epoch)
    {
        return; // the session went down meanwhile, and its TCP connection with it
    }
    Handle(m_rib->GetSwitch(linkId, toEnd), m_rib->Receive(linkId, toEnd, update));
}

void
MrcBgpReconvergenceModel::Handle(uint32_t sw,
                                 const std::vector<MrcBgpPathVector::Decision>& decisions)
{
    std::vector<uint32_t> changed;
    for (const MrcBgpPathVector::Decision& d : decisions)
    {
        if (d.nextHopsChanged)
        {
            m_fib->Changed(sw, d.prefix);
        }
        if (d.advertisementChanged)
        {
            changed.push_back(d.prefix);
        }
    }
    if (!changed.empty())
    {
        const MrcBgpPathVector::Update update = m_rib->GetAdvertisements(sw, changed);
        for (const auto& [linkId, end] : m_rib->GetUpSessions(sw))
        {
            Send(linkId, end, update);
        }
    }
}

void
MrcBgpReconvergenceModel::OnForward(uint32_t sw, uint32_t interface)
{
    if (m_failedLinks == 0)
    {
        return;
    }
    const auto link = m_rib->FindLink(sw, interface);
    if (link && m_links[*link].failed)
    {
        ++m_links[*link].blackholed;
    }
}

bool
MrcBgpReconvergenceModel::IsLinkFailed(const MrcFabricLink& link) const
{
    return link.id < m_links.size() && m_links[link.id].failed;
}

bool
MrcBgpReconvergenceModel::IsSessionUp(const MrcFabricLink& link) const
{
    return m_rib->IsSessionUp(CheckedLink(link));
}

bool
MrcBgpReconvergenceModel::IsConverged() const
{
    if (m_inFlight > 0)
    {
        return false;
    }
    for (const LinkState& l : m_links)
    {
        if (!l.detection.IsExpired() || !l.establish.IsExpired())
        {
            return false;
        }
    }
    return !m_fib || m_fib->IsIdle();
}

Time
MrcBgpReconvergenceModel::GetLastConvergenceTime() const
{
    return m_fib ? m_fib->GetLastProgrammed() : Time(0);
}

uint32_t
MrcBgpReconvergenceModel::GetAsn(Ptr<const Node> node) const
{
    return m_rib->GetAsn(CheckedSwitch(node));
}

std::vector<uint32_t>
MrcBgpReconvergenceModel::GetRibNextHops(Ptr<const Node> node, uint32_t t0) const
{
    const uint32_t sw = CheckedSwitch(node);
    if (t0 >= m_topo->GetSpec().GetT0Count())
    {
        throw std::invalid_argument("MrcBgpReconvergenceModel::GetRibNextHops: t0 (="
                                    + std::to_string(t0) + ") must be in 0.."
                                    + std::to_string(m_topo->GetSpec().GetT0Count() - 1));
    }
    return m_rib->GetNextHops(sw, t0);
}

uint64_t
MrcBgpReconvergenceModel::GetBlackholedPackets() const
{
    uint64_t n = 0;
    for (const LinkState& l : m_links)
    {
        n += l.blackholed;
    }
    return n;
}

uint64_t
MrcBgpReconvergenceModel::GetBlackholedPackets(const MrcFabricLink& link) const
{
    return link.id < m_links.size() ? m_links[link.id].blackholed : 0;
}

uint32_t
MrcBgpReconvergenceModel::GetUnreachableRoutes() const
{
    return m_fib ? m_fib->GetUnreachableRoutes() : 0;
}

} // namespace ns3
