/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bgp-reconvergence-model.h"

#include "ecmp-routing-helper.h"
#include "fabric-address-plan.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
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

NS_LOG_COMPONENT_DEFINE("BgpReconvergenceModel");

NS_OBJECT_ENSURE_REGISTERED(BgpReconvergenceModel);

/**
 * What devices and routing traces hold instead of the model: a plain pointer back that the
 * model clears when it goes away (NetDevice link-change callbacks cannot be removed).
 */
class BgpReconvergenceModel::CallbackSink : public SimpleRefCount<CallbackSink>
{
  public:
    /// \param model the model
    explicit CallbackSink(BgpReconvergenceModel* model)
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
    BgpReconvergenceModel* m_model; //!< the model, or nullptr once gone
};

TypeId
BgpReconvergenceModel::GetTypeId()
{
    const BgpConvergenceTiming d;
    static TypeId tid =
        TypeId("ns3::BgpReconvergenceModel")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<BgpReconvergenceModel>()
            .AddAttribute("CarrierDetectionDelay",
                          "Time from a loss of carrier to both ends taking the BGP session down "
                          "(link-state interrupt, debounce, fast external fall-over), >= 0.",
                          TimeValue(d.carrierDetectionDelay),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_carrierDetectionDelay),
                          MakeTimeChecker())
            .AddAttribute("BfdEnabled",
                          "BFD runs on every fabric link (detects blackholes too).",
                          BooleanValue(d.bfdEnabled),
                          MakeBooleanAccessor(&BgpReconvergenceModel::m_bfdEnabled),
                          MakeBooleanChecker())
            .AddAttribute("BfdInterval",
                          "BFD transmit/receive interval, > 0 (FRR bfdd default 300 ms).",
                          TimeValue(d.bfdInterval),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_bfdInterval),
                          MakeTimeChecker())
            .AddAttribute("BfdDetectMultiplier",
                          "BFD detect multiplier, 1..255: detection time = multiplier x "
                          "interval (RFC 5880).",
                          UintegerValue(d.bfdDetectMultiplier),
                          MakeUintegerAccessor(&BgpReconvergenceModel::m_bfdDetectMultiplier),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HoldTimerDetection",
                          "The BGP hold timer detects blackholes (the failure also drops the "
                          "KEEPALIVEs). Off: a data-plane blackhole keeps the session up.",
                          BooleanValue(d.holdTimerDetection),
                          MakeBooleanAccessor(&BgpReconvergenceModel::m_holdTimerDetection),
                          MakeBooleanChecker())
            .AddAttribute("HoldTime",
                          "BGP hold time: 0 (none) or 3..65535 s (RFC 4271 suggests 90 s; data "
                          "centres use 9 s, FRR's datacenter profile).",
                          TimeValue(d.holdTime),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_holdTime),
                          MakeTimeChecker())
            .AddAttribute("SessionEstablishDelay",
                          "After a repair is detected, time to re-establish the session (TCP, "
                          "OPEN, KEEPALIVE), >= 0.",
                          TimeValue(d.sessionEstablishDelay),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_sessionEstablishDelay),
                          MakeTimeChecker())
            .AddAttribute("PerHopDelay",
                          "Time for an UPDATE to reach a neighbour and be processed there, >= 0.",
                          TimeValue(d.perHopDelay),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_perHopDelay),
                          MakeTimeChecker())
            .AddAttribute("Mrai",
                          "MinRouteAdvertisementInterval added per BGP hop, >= 0 (0 in data "
                          "centres, RFC 7938; eBGP default 30 s, RFC 4271).",
                          TimeValue(d.mrai),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_mrai),
                          MakeTimeChecker())
            .AddAttribute("FibBaseTime",
                          "Fixed time of one FIB programming batch, >= 0.",
                          TimeValue(d.fibBaseTime),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_fibBaseTime),
                          MakeTimeChecker())
            .AddAttribute("FibPerRouteTime",
                          "FIB programming time per changed route, >= 0 (a public switch test: "
                          "0.65 s for 500 routes, 6.5 s for 5000).",
                          TimeValue(d.fibPerRouteTime),
                          MakeTimeAccessor(&BgpReconvergenceModel::m_fibPerRouteTime),
                          MakeTimeChecker())
            .AddTraceSource(
                "ConvergenceStart",
                "A switch starts changing routes (failure detected or UPDATE "
                "received) with no FIB work pending: node id.",
                MakeTraceSourceAccessor(&BgpReconvergenceModel::m_convergenceStartTrace),
                "ns3::BgpReconvergenceModel::SwitchTracedCallback")
            .AddTraceSource("ConvergenceEnd",
                            "A switch's FIB is programmed and nothing is pending: node id.",
                            MakeTraceSourceAccessor(&BgpReconvergenceModel::m_convergenceEndTrace),
                            "ns3::BgpReconvergenceModel::SwitchTracedCallback")
            .AddTraceSource("RoutesChanged",
                            "A FIB batch is programmed: node id, routes changed.",
                            MakeTraceSourceAccessor(&BgpReconvergenceModel::m_routesChangedTrace),
                            "ns3::BgpReconvergenceModel::RoutesChangedTracedCallback")
            .AddTraceSource("SessionChange",
                            "A BGP session goes down (failure detected) or up: link id, up.",
                            MakeTraceSourceAccessor(&BgpReconvergenceModel::m_sessionChangeTrace),
                            "ns3::BgpReconvergenceModel::SessionChangeTracedCallback");
    return tid;
}

BgpReconvergenceModel::BgpReconvergenceModel()
    : m_sink(Create<CallbackSink>(this))
{
    NS_LOG_FUNCTION(this);
}

BgpReconvergenceModel::~BgpReconvergenceModel()
{
    m_sink->Detach();
    if (m_fib)
    {
        m_fib->Detach();
    }
}

void
BgpReconvergenceModel::NotifyConstructionCompleted()
{
    Object::NotifyConstructionCompleted();
    m_timing = GetTiming();
}

void
BgpReconvergenceModel::DoDispose()
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
BgpReconvergenceModel::RefreshTiming()
{
    m_timing = GetTiming();
    if (m_fib)
    {
        m_fib->SetTiming(m_timing);
    }
}

BgpConvergenceTiming
BgpReconvergenceModel::GetTiming() const
{
    BgpConvergenceTiming t;
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
BgpReconvergenceModel::Install(Ptr<FabricTopology> topo)
{
    NS_LOG_FUNCTION(this);
    if (m_topo)
    {
        throw std::logic_error("BgpReconvergenceModel::Install: already installed on a fabric");
    }
    m_timing = GetTiming();
    auto rib = std::make_shared<BgpFabricRib>(topo);
    Ptr<BgpFibProgrammer> fib = Create<BgpFibProgrammer>(
        rib,
        topo->GetSpec().GetT0Count(),
        BgpFibProgrammer::Traces{&m_convergenceStartTrace,
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
BgpReconvergenceModel::AttachToDevices()
{
    if (!m_topo)
    {
        throw std::logic_error("BgpReconvergenceModel::AttachToDevices: Install first");
    }
    for (const FabricLink& link : m_topo->GetLinks())
    {
        if (m_rib->HasSession(link.id))
        {
            Callback<void> cb = MakeCallback(&CallbackSink::LinkChange, m_sink).Bind(link.id);
            link.lowerDevice->AddLinkChangeCallback(cb);
            link.upperDevice->AddLinkChangeCallback(cb);
            for (Ptr<NetDevice> device : {link.lowerDevice, link.upperDevice})
            {
                if (Ptr<FabricNetDevice> fabric = DynamicCast<FabricNetDevice>(device))
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
BgpReconvergenceModel::OnLinkChange(uint32_t linkId)
{
    const FabricLink& link = m_topo->GetLinks().at(linkId);
    const bool up = link.lowerDevice->IsLinkUp() && link.upperDevice->IsLinkUp();
    const LinkState& l = m_links[linkId];
    if (!up && (!l.failed || l.kind != LinkFailureKind::CARRIER_LOSS))
    {
        LinkFailed(link, LinkFailureKind::CARRIER_LOSS); // also a blackhole losing carrier
    }
    else if (up && l.failed && l.kind == LinkFailureKind::CARRIER_LOSS)
    {
        LinkRestored(link);
    }
}

bool
BgpReconvergenceModel::IsBlackholed(const FabricLink& link)
{
    for (Ptr<NetDevice> device : {link.lowerDevice, link.upperDevice})
    {
        Ptr<FabricNetDevice> fabric = DynamicCast<FabricNetDevice>(device);
        if (fabric && (fabric->IsReceiveBlackhole() || fabric->GetReceiveLossProbability() >= 1))
        {
            return true;
        }
    }
    return false;
}

void
BgpReconvergenceModel::OnFaultChange(uint32_t linkId)
{
    const FabricLink& link = m_topo->GetLinks().at(linkId);
    const LinkState& l = m_links[linkId];
    const bool blackholed = IsBlackholed(link);
    if (blackholed && !l.failed)
    {
        LinkFailed(link, LinkFailureKind::BLACKHOLE);
    }
    else if (!blackholed && l.failed && l.kind == LinkFailureKind::BLACKHOLE)
    {
        LinkRestored(link);
    }
}

uint32_t
BgpReconvergenceModel::CheckedLink(const FabricLink& link) const
{
    if (!m_topo)
    {
        throw std::logic_error("BgpReconvergenceModel: Install first");
    }
    const auto& links = m_topo->GetLinks();
    if (link.id >= links.size() || links[link.id].lower != link.lower
        || links[link.id].upper != link.upper || !m_rib->HasSession(link.id))
    {
        throw std::invalid_argument("BgpReconvergenceModel: link (id " + std::to_string(link.id)
                                    + ") must be a switch-to-switch link of the fabric (ids 0.."
                                    + std::to_string(links.size() - 1)
                                    + "; host links carry no BGP session)");
    }
    return link.id;
}

uint32_t
BgpReconvergenceModel::CheckedSwitch(Ptr<const Node> node) const
{
    if (!m_topo)
    {
        throw std::logic_error("BgpReconvergenceModel: Install first");
    }
    const auto sw = m_rib->FindSwitch(node);
    if (!sw)
    {
        throw std::invalid_argument("BgpReconvergenceModel: node (="
                                    + (node ? std::to_string(node->GetId()) : std::string("null"))
                                    + ") must be a switch of the fabric");
    }
    return *sw;
}

FailureDetector
BgpReconvergenceModel::LinkFailed(const FabricLink& link, LinkFailureKind kind)
{
    LinkState& l = m_links[CheckedLink(link)];
    RefreshTiming();
    const FailureDetector detector = m_timing.GetDetector(kind);
    if (!l.failed)
    {
        l.failed = true;
        l.kind = kind;
        ++m_failedLinks;
    }
    else if (kind == LinkFailureKind::CARRIER_LOSS)
    {
        l.kind = kind; // a blackhole that now lost carrier too
    }
    l.establish.Cancel(); // failed again before its session came back: it stays down
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " link " << link.id << " failed (" << kind
                     << "), detector " << detector);
    if (detector != FailureDetector::NONE && m_rib->IsSessionUp(link.id))
    {
        const Time delay = m_timing.GetDetectionDelay(detector);
        if (l.detection.IsExpired() || delay < Simulator::GetDelayLeft(l.detection))
        {
            l.detection.Cancel();
            l.detector = detector;
            l.detection = Simulator::Schedule(delay, &BgpReconvergenceModel::Detect, this, link.id);
        }
    }
    return detector;
}

void
BgpReconvergenceModel::LinkRestored(const FabricLink& link)
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
                                          &BgpReconvergenceModel::Establish,
                                          this,
                                          link.id);
    }
}

void
BgpReconvergenceModel::SwitchFailed(Ptr<Node> node, LinkFailureKind kind)
{
    CheckedSwitch(node);
    for (const FabricLink& link : m_topo->GetLinksOf(node))
    {
        if (m_rib->HasSession(link.id))
        {
            LinkFailed(link, kind);
        }
    }
}

void
BgpReconvergenceModel::SwitchRestored(Ptr<Node> node)
{
    CheckedSwitch(node);
    for (const FabricLink& link : m_topo->GetLinksOf(node))
    {
        if (m_rib->HasSession(link.id))
        {
            LinkRestored(link);
        }
    }
}

void
BgpReconvergenceModel::Detect(uint32_t linkId)
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
BgpReconvergenceModel::Establish(uint32_t linkId)
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
BgpReconvergenceModel::Send(uint32_t linkId, uint32_t fromEnd, const BgpPathVector::Update& update)
{
    ++m_inFlight;
    Simulator::Schedule(m_timing.GetHopDelay(),
                        &BgpReconvergenceModel::Deliver,
                        Ptr<BgpReconvergenceModel>(this),
                        linkId,
                        1 - fromEnd,
                        m_links[linkId].epoch,
                        update);
}

void
BgpReconvergenceModel::Deliver(uint32_t linkId,
                               uint32_t toEnd,
                               uint32_t epoch,
                               BgpPathVector::Update update)
{
    --m_inFlight;
    if (!m_rib || epoch != m_links[linkId].epoch)
    {
        return; // the session went down meanwhile, and its TCP connection with it
    }
    Handle(m_rib->GetSwitch(linkId, toEnd), m_rib->Receive(linkId, toEnd, update));
}

void
BgpReconvergenceModel::Handle(uint32_t sw, const std::vector<BgpPathVector::Decision>& decisions)
{
    std::vector<uint32_t> changed;
    for (const BgpPathVector::Decision& d : decisions)
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
        const BgpPathVector::Update update = m_rib->GetAdvertisements(sw, changed);
        for (const auto& [linkId, end] : m_rib->GetUpSessions(sw))
        {
            Send(linkId, end, update);
        }
    }
}

void
BgpReconvergenceModel::OnForward(uint32_t sw, uint32_t interface)
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
BgpReconvergenceModel::IsLinkFailed(const FabricLink& link) const
{
    return link.id < m_links.size() && m_links[link.id].failed;
}

bool
BgpReconvergenceModel::IsSessionUp(const FabricLink& link) const
{
    return m_rib->IsSessionUp(CheckedLink(link));
}

bool
BgpReconvergenceModel::IsConverged() const
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
BgpReconvergenceModel::GetLastConvergenceTime() const
{
    return m_fib ? m_fib->GetLastProgrammed() : Time(0);
}

uint32_t
BgpReconvergenceModel::GetAsn(Ptr<const Node> node) const
{
    return m_rib->GetAsn(CheckedSwitch(node));
}

std::vector<uint32_t>
BgpReconvergenceModel::GetRibNextHops(Ptr<const Node> node, uint32_t t0) const
{
    const uint32_t sw = CheckedSwitch(node);
    if (t0 >= m_topo->GetSpec().GetT0Count())
    {
        throw std::invalid_argument("BgpReconvergenceModel::GetRibNextHops: t0 (="
                                    + std::to_string(t0) + ") must be in 0.."
                                    + std::to_string(m_topo->GetSpec().GetT0Count() - 1));
    }
    return m_rib->GetNextHops(sw, t0);
}

uint64_t
BgpReconvergenceModel::GetBlackholedPackets() const
{
    uint64_t n = 0;
    for (const LinkState& l : m_links)
    {
        n += l.blackholed;
    }
    return n;
}

uint64_t
BgpReconvergenceModel::GetBlackholedPackets(const FabricLink& link) const
{
    return link.id < m_links.size() ? m_links[link.id].blackholed : 0;
}

uint32_t
BgpReconvergenceModel::GetUnreachableRoutes() const
{
    return m_fib ? m_fib->GetUnreachableRoutes() : 0;
}

} // namespace ns3
