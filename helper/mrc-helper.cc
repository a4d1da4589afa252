/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-helper.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mrc-dcqcn.h"
#include "ns3/mrc-go-back-n.h"
#include "ns3/mrc-host-pipeline.h"
#include "ns3/mrc-single-path-selection.h"
#include "ns3/mrc-wire-size.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHelper");

MrcHelper::MrcHelper(Ptr<MrcFabricTopology> topo, MrcDataPlaneHelper& dataPlane)
    : m_topo(topo)
    , m_dataPlane(dataPlane)
{
    m_rng = CreateObject<UniformRandomVariable>();
    m_rng->SetStream(1);
}

void
MrcHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpAttributes[name] =
        CheckedValue(MrcQueuePair::GetTypeId(), name, value, "queue pair attribute " + name);
}

Ptr<AttributeValue>
MrcHelper::CheckedValue(TypeId tid,
                        const std::string& name,
                        const AttributeValue& value,
                        const std::string& what)
{
    TypeId::AttributeInformation info;
    Ptr<AttributeValue> valid;
    if (!tid.LookupAttributeByName(name, &info) || !(info.flags & TypeId::ATTR_SET)
        || !info.accessor->HasSetter() || !(valid = info.checker->CreateValidValue(value)))
    {
        throw std::invalid_argument("MrcHelper: " + what
                                    + " is unknown or its value invalid (see --PrintAttributes="
                                    + tid.GetName() + ")");
    }
    return valid;
}

void
MrcHelper::GetQueuePairAttribute(const std::string& name, AttributeValue& value) const
{
    TypeId::AttributeInformation info;
    if (!MrcQueuePair::GetTypeId().LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("MrcHelper: no queue pair attribute " + name);
    }
    auto set = m_qpAttributes.find(name);
    info.checker->Copy(set != m_qpAttributes.end() ? *set->second : *info.initialValue, value);
}

void
MrcHelper::Append(AttributeList&)
{
}

void
MrcHelper::SetPolicy(const std::string& attribute,
                     TypeId base,
                     const std::string& type,
                     const AttributeList& attributes)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid) || !tid.IsChildOf(base) || !tid.HasConstructor())
    {
        throw std::invalid_argument("MrcHelper: " + attribute + " (=" + type + ") must be a "
                                    + base.GetName() + " subclass with a constructor");
    }
    // Checked without creating an instance (one would draw RNG stream numbers).
    ObjectFactory factory;
    factory.SetTypeId(tid);
    for (const auto& [name, value] : attributes)
    {
        factory.Set(
            name,
            *CheckedValue(tid, name, *value, attribute + " " + type + ": attribute " + name));
    }
    SetQueuePairAttribute(attribute, TypeIdValue(tid));
    m_policies[attribute] = factory;
}

void
MrcHelper::SetStream(int64_t stream)
{
    m_rng->SetStream(stream);
    m_nextQpStream = stream + 1;
}

void
MrcHelper::SetInitialPsn(std::optional<uint32_t> psn)
{
    m_initialPsn = psn;
}

void
MrcHelper::SetRoceV2Baseline(uint32_t qpsPerPeer)
{
    if (qpsPerPeer == 0)
    {
        throw std::invalid_argument("MrcHelper::SetRoceV2Baseline: qpsPerPeer must be >= 1");
    }
    SetQueuePairAttribute("PathSelection", TypeIdValue(MrcSinglePathSelection::GetTypeId()));
    SetQueuePairAttribute("LossRecovery", TypeIdValue(MrcGoBackN::GetTypeId()));
    SetQueuePairAttribute("CongestionControl", TypeIdValue(MrcDcqcn::GetTypeId()));
    m_qpsPerPeer = qpsPerPeer;
}

Ptr<MrcL4Protocol>
MrcHelper::GetL4(Ptr<Node> node)
{
    return node->GetObject<MrcL4Protocol>();
}

void
MrcHelper::Install()
{
    for (uint32_t h = 0; h < m_topo->GetHostCount(); ++h)
    {
        Ptr<Node> node = m_topo->GetHost(h);
        if (GetL4(node))
        {
            continue;
        }
        Ptr<MrcL4Protocol> l4 = CreateObject<MrcL4Protocol>();
        node->AggregateObject(l4);
        for (uint32_t p = 0; p < m_topo->GetSpec().planes; ++p)
        {
            DataRateValue rate;
            m_topo->GetHostDevice(h, p)->GetAttribute("DataRate", rate);
            l4->AddPort(p, m_topo->GetHostInterface(h, p), rate.Get());
        }
        MrcHostPipeline::Install(node); // unless MrcHostPipeline::Enabled is false
    }
}

Time
MrcHelper::GetBaseRtt(uint32_t a, uint32_t b) const
{
    DataRateValue rate;
    m_topo->GetHostDevice(a, 0)->GetAttribute("DataRate", rate);
    TimeValue delay;
    m_topo->GetHostDevice(a, 0)->GetChannel()->GetAttribute("Delay", delay);
    // Longest path: 5 switches across pods, 3 within a pod or a two-tier Clos.
    const uint32_t links = m_topo->GetSpec().GetTiers() == 3 ? 6 : 4;
    UintegerValue mss;
    GetQueuePairAttribute("Mss", mss);
    const uint32_t data = MrcDataWireBytes(static_cast<uint32_t>(mss.Get()));
    return (delay.Get() * 2 + rate.Get().CalculateBytesTxTime(data)
            + rate.Get().CalculateBytesTxTime(kMrcSackWireBytes))
           * int64_t(links);
}

std::vector<std::vector<uint32_t>>
MrcHelper::CandidateEvs(uint32_t src, uint32_t dst, const std::set<uint32_t>& avoid)
{
    const uint32_t planes = m_topo->GetSpec().planes;
    UintegerValue setSize;
    GetQueuePairAttribute("EvSetSize", setSize);
    const uint32_t perPlane = std::max<uint32_t>(1, setSize.Get() / planes);
    std::vector<std::vector<uint32_t>> evs(planes);
    for (uint32_t p = 0; p < planes; ++p)
    {
        if (m_dataPlane.GetDataPlane() == MrcDataPlane::SRV6)
        {
            // Active EVs plus as many backups, several per path where paths are fewer.
            evs[p] = m_dataPlane.GetSrv6Helper().GetEvs(src, dst, p, 2 * perPlane);
        }
        else
        {
            while (evs[p].size() < 2 * perPlane)
            {
                const uint32_t ev = p << 28 | m_rng->GetInteger(0, 0x0fffffff);
                if (std::find(evs[p].begin(), evs[p].end(), ev) == evs[p].end()
                    && avoid.count(ev & 0xffff) == 0)
                {
                    evs[p].push_back(ev);
                }
            }
        }
        // Random order: every sender picks its own subset, uncoordinated. Over SRv6 with fewer
        // paths than candidates (several EVs per path), shuffle within each round of the paths,
        // so that the active EVs cover the paths evenly, as distinct paths did.
        const uint32_t block = m_dataPlane.GetDataPlane() == MrcDataPlane::SRV6
                                   ? m_dataPlane.GetSrv6Helper().GetPathCount(src, dst)
                                   : evs[p].size();
        for (uint32_t start = 0; start < evs[p].size(); start += block)
        {
            const uint32_t n = std::min<uint32_t>(block, evs[p].size() - start);
            for (uint32_t i = n; i > 1; --i)
            {
                std::swap(evs[p][start + i - 1], evs[p][start + m_rng->GetInteger(0, i - 1)]);
            }
        }
        // Over SRv6 every path is a candidate: the ones other group members use go last.
        std::stable_partition(evs[p].begin(), evs[p].end(), [&avoid](uint32_t ev) {
            return avoid.count(ev & 0xffff) == 0;
        });
    }
    return evs;
}

MrcPathResolver
MrcHelper::Resolver(uint32_t src, uint32_t dst) const
{
    Ptr<MrcFabricTopology> topo = m_topo;
    if (m_dataPlane.GetDataPlane() == MrcDataPlane::SRV6)
    {
        const MrcSrv6RoutingHelper* srv6 = &m_dataPlane.GetSrv6Helper();
        return [topo, srv6, src, dst](uint32_t ev) {
            MrcSrv6Path path = srv6->GetCarriers(src, dst, ev);
            return MrcWirePath{ev,
                               path.plane,
                               path.interface,
                               topo->GetHostAddress(src, path.plane),
                               std::move(path.carriers),
                               true,
                               topo->GetHostAddress(dst, path.plane)};
        };
    }
    return [topo, src, dst](uint32_t ev) {
        const uint32_t plane = ev >> 28;
        return MrcWirePath{ev,
                           plane,
                           topo->GetHostInterface(src, plane),
                           topo->GetHostAddress(src, plane),
                           {topo->GetHostAddress(dst, plane)},
                           false,
                           topo->GetHostAddress(dst, plane)};
    };
}

std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>
MrcHelper::Connect(uint32_t a, uint32_t b)
{
    std::set<uint32_t> usedAb;
    std::set<uint32_t> usedBa;
    return ConnectPair(a, b, usedAb, usedBa);
}

Ptr<MrcQpGroup>
MrcHelper::ConnectGroup(uint32_t a, uint32_t b, std::optional<uint32_t> qps)
{
    const uint32_t n = qps.value_or(m_qpsPerPeer);
    if (n == 0)
    {
        throw std::invalid_argument("MrcHelper::ConnectGroup: qps must be >= 1");
    }
    Ptr<MrcQpGroup> group = CreateObject<MrcQpGroup>();
    std::set<uint32_t> usedAb;
    std::set<uint32_t> usedBa;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto [qa, qb] = ConnectPair(a, b, usedAb, usedBa);
        group->AddMember(qa, qb);
    }
    return group;
}

std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>
MrcHelper::ConnectPair(uint32_t a,
                       uint32_t b,
                       std::set<uint32_t>& usedAb,
                       std::set<uint32_t>& usedBa)
{
    if (a == b || a >= m_topo->GetHostCount() || b >= m_topo->GetHostCount())
    {
        throw std::invalid_argument("MrcHelper::Connect: hosts (" + std::to_string(a) + ", "
                                    + std::to_string(b) + ") must be distinct and < "
                                    + std::to_string(m_topo->GetHostCount()));
    }
    Ptr<MrcL4Protocol> la = GetL4(m_topo->GetHost(a));
    Ptr<MrcL4Protocol> lb = GetL4(m_topo->GetHost(b));
    if (!la || !lb)
    {
        throw std::logic_error("MrcHelper::Connect: call Install() first");
    }
    Ptr<MrcQueuePair> qa = la->CreateQueuePair();
    Ptr<MrcQueuePair> qb = lb->CreateQueuePair();
    // Apply the attributes set on the helper to both ends, in the TypeId's order.
    for (Ptr<MrcQueuePair> qp : {qa, qb})
    {
        const TypeId tid = MrcQueuePair::GetTypeId();
        for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            auto set = m_qpAttributes.find(tid.GetAttribute(i).name);
            if (set != m_qpAttributes.end())
            {
                qp->SetAttribute(set->first, *set->second);
            }
        }
        for (const auto& [attribute, factory] : m_policies)
        {
            qp->SetPolicyFactory(factory);
        }
    }
    // Fixed streams: the same run gives the same draws whatever ran before in the process.
    qa->AssignStreams(m_nextQpStream++);
    qb->AssignStreams(m_nextQpStream++);
    const Time rtt = GetBaseRtt(a, b);
    const uint32_t psnA = m_initialPsn ? *m_initialPsn : m_rng->GetInteger(0, 0xffffff);
    const uint32_t psnB = m_initialPsn ? *m_initialPsn : m_rng->GetInteger(0, 0xffffff);
    qa->Connect(qb->GetQpn(), CandidateEvs(a, b, usedAb), Resolver(a, b), rtt, psnA, psnB);
    qb->Connect(qa->GetQpn(), CandidateEvs(b, a, usedBa), Resolver(b, a), rtt, psnB, psnA);
    for (auto [qp, used] : {std::make_pair(qa, &usedAb), std::make_pair(qb, &usedBa)})
    {
        for (uint32_t p = 0; p < qp->GetPathSet().GetPlaneCount(); ++p)
        {
            for (uint32_t ev : qp->GetPathSet().GetActive(p))
            {
                used->insert(ev & 0xffff);
            }
        }
    }
    NS_LOG_INFO("QP " << qa->GetQpn() << "@host " << a << " <-> QP " << qb->GetQpn() << "@host "
                      << b << ", base RTT " << rtt.As(Time::US));
    return {qa, qb};
}

} // namespace ns3
