/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-result-codec.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace ns3
{
namespace
{

/// Appends fields to a byte string.
class Writer
{
  public:
    /// \param v an integer, bool, enum or double \return this writer
    template<class T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>, int> = 0>
    Writer& operator&(T& v)
    {
        bytes.append(reinterpret_cast<const char*>(&v), sizeof(T));
        return *this;
    }

    /// \param s a string \return this writer
    Writer& operator&(std::string& s)
    {
        uint64_t n = s.size();
        *this& n;
        bytes += s;
        return *this;
    }

    /// \param t a time \return this writer
    Writer& operator&(Time& t)
    {
        int64_t step = t.GetTimeStep();
        return *this & step;
    }

    /// \param v a vector of visitable values \return this writer
    template<class T>
    Writer& operator&(std::vector<T>& v);

    std::string bytes; //!< what was written
};

/// Reads fields back from a byte string.
class Reader
{
  public:
    /// \param b the bytes
    explicit Reader(const std::string& b)
        : bytes(b)
    {
    }

    /// \param v an integer, bool, enum or double \return this reader
    template<class T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>, int> = 0>
    Reader& operator&(T& v)
    {
        std::memcpy(&v, Take(sizeof(T)), sizeof(T));
        return *this;
    }

    /// \param s a string \return this reader
    Reader& operator&(std::string& s)
    {
        uint64_t n = 0;
        *this& n;
        const char* p = Take(n);
        s.assign(p, n);
        return *this;
    }

    /// \param t a time \return this reader
    Reader& operator&(Time& t)
    {
        int64_t step = 0;
        *this& step;
        t = Time(step);
        return *this;
    }

    /// \param v a vector of visitable values \return this reader
    template<class T>
    Reader& operator&(std::vector<T>& v);

    /// \param n bytes \return where they start \throws std::invalid_argument if fewer are left
    const char* Take(uint64_t n)
    {
        if (n > bytes.size() - at)
        {
            throw std::invalid_argument("MrcScenarioResultCodec: truncated result ("
                                        + std::to_string(bytes.size()) + " bytes)");
        }
        const char* p = bytes.data() + at;
        at += n;
        return p;
    }

    const std::string& bytes; //!< what is read
    size_t at{0};             //!< next byte
};

// Every field of every part of a result, in one order for both directions.

template<class A>
void
Visit(A& a, MrcTrainingJob::CommRecord& c)
{
    a& c.label& c.kind& c.bytes& c.ranks& c.issued& c.start& c.end& c.ideal;
}

template<class A>
void
Visit(A& a, MrcScenarioResult::Step& s)
{
    a& s.job& s.index& s.start& s.end& s.ideal& s.failed& s.phase& s.transfers& s.transferMin& s
        .transferP50& s.transferP99& s.transferMax& s.comms;
}

template<class A>
void
Visit(A& a, MrcScenarioResult::Job& j)
{
    a& j.name& j.iterations& j.done& j.failed& j.lateness.starts& j.lateness.total& j.lateness
        .longest;
}

template<class A>
void
Visit(A& a, MrcTcpBulkWorkload::Flow& f)
{
    a& f.src& f.dst& f.plane& f.bytes& f.start& f.port& f.received& f.finish;
}

template<class A>
void
Visit(A& a, MrcPfcPortStats::Row& r)
{
    a& r.node& r.peer& r.tier& r.plane& r.priority& r.pausesSent& r.xonsSent& r.pausesReceived& r
        .pausedTime& r.maxIngressBytes& r.overflows& r.watchdogTriggers;
}

template<class A>
void
Visit(A& a, MrcScenarioResult& r)
{
    a& r.key& r.name& r.seed& r.run& r.steps& r.jobs& r.iterations& r.jobDone& r.jobFailed& r.end& r
        .failureStart& r.failureEnd& r.bytesPosted& r.bytesDelivered& r.bytesRetransmitted& r
        .retransmissions& r.rtxTrimmed& r.rtxTimeout& r.rewinds& r.trimmedReceived& r
        .evRetirements& r.longestStall& r.longestStallFlow& r.stalledTime& r.flows& r.failedFlows& r
        .corruptTransfers& r.faultDrops& r.queueDrops& r.trims& r.linkTraversals& r.ecnMarks& r
        .routingDrops& r.uplinkBalance& r.routingConverged& r.events& r.tcpFlows& r.pfcPorts;
}

template<class T>
Writer&
Writer::operator&(std::vector<T>& v)
{
    uint64_t n = v.size();
    *this& n;
    for (T& item : v)
    {
        Visit(*this, item);
    }
    return *this;
}

template<class T>
Reader&
Reader::operator&(std::vector<T>& v)
{
    uint64_t n = 0;
    *this& n;
    v.clear();
    for (uint64_t i = 0; i < n; ++i)
    {
        if (at >= bytes.size())
        {
            Take(1); // throws: more items announced than bytes left
        }
        Visit(*this, v.emplace_back());
    }
    return *this;
}

} // namespace

std::string
MrcScenarioResultCodec::Encode(const MrcScenarioResult& r)
{
    MrcScenarioResult copy = r; // Visit takes its fields by reference
    Writer w;
    Visit(w, copy);
    return std::move(w.bytes);
}

MrcScenarioResult
MrcScenarioResultCodec::Decode(const std::string& bytes)
{
    MrcScenarioResult r;
    Reader reader(bytes);
    Visit(reader, r);
    if (reader.at != bytes.size())
    {
        throw std::invalid_argument("MrcScenarioResultCodec: "
                                    + std::to_string(bytes.size() - reader.at)
                                    + " bytes left after the result");
    }
    return r;
}

} // namespace ns3
