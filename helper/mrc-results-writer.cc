/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-results-writer.h"

#include "ns3/mrc-csv-field.h"
#include "ns3/mrc-fabric-drop-monitor.h"
#include "ns3/mrc-failure-log.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-transfer-monitor.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \param s a ptree value
 * \return whether it is a JSON number as a whole
 */
bool
IsNumber(const std::string& s)
{
    if (s.empty() || s == "-" || s.find_first_of("xXpP") != std::string::npos)
    {
        return false;
    }
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    const bool leadingZero = s.size() > 1 && s[0] == '0' && s[1] != '.';
    return end == s.c_str() + s.size() && !leadingZero
           && s.find_first_of("nNiI") == std::string::npos;
}

/**
 * \param s a string
 * \return it quoted and escaped for JSON
 */
std::string
Quote(const std::string& s)
{
    std::ostringstream os;
    os << '"';
    for (char c : s)
    {
        switch (c)
        {
            case '"':
                os << "\\\"";
                break;
            case '\\':
                os << "\\\\";
                break;
            case '\n':
                os << "\\n";
                break;
            case '\t':
                os << "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                {
                    os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c)
                       << std::dec << std::setfill(' ');
                }
                else
                {
                    os << c;
                }
        }
    }
    os << '"';
    return os.str();
}

/**
 * Write one node.
 * \param t the node
 * \param os where
 * \param indent its indentation
 */
void
WriteNode(const boost::property_tree::ptree& t, std::ostream& os, int indent)
{
    if (t.empty())
    {
        const std::string& v = t.data();
        os << ((IsNumber(v) || v == "true" || v == "false") ? v : Quote(v));
        return;
    }
    bool array = true;
    for (const auto& [key, child] : t)
    {
        array = array && key.empty();
    }
    const std::string pad(indent + 2, ' ');
    os << (array ? "[\n" : "{\n");
    size_t i = 0;
    for (const auto& [key, child] : t)
    {
        os << pad;
        if (!array)
        {
            os << Quote(key) << ": ";
        }
        WriteNode(child, os, indent + 2);
        os << (++i < t.size() ? ",\n" : "\n");
    }
    os << std::string(indent, ' ') << (array ? "]" : "}");
}

/**
 * \param phase a phase name or "all"
 * \param st step durations
 * \return a ptree of count, min, P50, P99, P100 (us)
 */
boost::property_tree::ptree
StatsTree(const MrcCompletionStats& st)
{
    boost::property_tree::ptree t;
    t.put("steps", st.GetCount());
    t.put("min_us", MrcMicros(st.GetMin()));
    t.put("p50_us", MrcMicros(st.GetMedian()));
    t.put("p99_us", MrcMicros(st.GetPercentile(99)));
    t.put("p100_us", MrcMicros(st.GetMax()));
    return t;
}

} // namespace

MrcResultsWriter::MrcResultsWriter(const std::string& directory)
    : m_directory(directory)
{
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !std::filesystem::is_directory(directory))
    {
        throw std::runtime_error("MrcResultsWriter: cannot create the results directory '"
                                 + directory + "'" + (ec ? ": " + ec.message() : ""));
    }
}

void
MrcResultsWriter::CheckDirectory(const std::string& directory, const std::string& field)
{
    const std::string what = field + " (=\"" + directory + "\") cannot hold the results: ";
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !std::filesystem::is_directory(directory))
    {
        throw std::invalid_argument(what + "cannot create the directory"
                                    + (ec ? " (" + ec.message() + ")" : std::string()));
    }
    const std::filesystem::path probe = std::filesystem::path(directory) / ".mrc-write-probe";
    bool written = false;
    {
        std::ofstream os(probe);
        os << "probe\n";
        os.close();
        written = !os.fail();
    }
    std::filesystem::remove(probe, ec);
    if (!written)
    {
        throw std::invalid_argument(what + "cannot write a file in it");
    }
}

const std::string&
MrcResultsWriter::GetDirectory() const
{
    return m_directory;
}

std::ofstream
MrcResultsWriter::Open(const std::string& name) const
{
    const std::string path = (std::filesystem::path(m_directory) / name).string();
    std::ofstream os(path);
    if (!os)
    {
        throw std::runtime_error("MrcResultsWriter: cannot write '" + path + "'");
    }
    return os;
}

void
MrcResultsWriter::WriteStepsCsv(const MrcScenarioResult& r, std::ostream& os)
{
    os << "step,phase,start_us,end_us,duration_us,ideal_us,slowdown,failed,transfers,"
          "transfer_min_us,transfer_p50_us,transfer_p99_us,transfer_max_us,job\n";
    for (const auto& s : r.steps)
    {
        const double slowdown =
            s.ideal.IsStrictlyPositive() ? s.GetDuration().GetSeconds() / s.ideal.GetSeconds() : 0;
        os << s.index << "," << MrcScenarioResult::GetPhaseName(s.phase) << ","
           << MrcMicros(s.start) << "," << MrcMicros(s.end) << "," << MrcMicros(s.GetDuration())
           << "," << MrcMicros(s.ideal) << "," << std::fixed << std::setprecision(4) << slowdown
           << "," << (s.failed ? 1 : 0) << "," << s.transfers << "," << MrcMicros(s.transferMin)
           << "," << MrcMicros(s.transferP50) << "," << MrcMicros(s.transferP99) << ","
           << MrcMicros(s.transferMax) << "," << MrcCsvField(s.job) << "\n";
    }
}

void
MrcResultsWriter::WriteCommsCsv(const MrcScenarioResult& r, std::ostream& os)
{
    os << "step,label,kind,ranks,bytes,issued_us,start_us,end_us,duration_us,ideal_us,job\n";
    for (const auto& s : r.steps)
    {
        for (const auto& c : s.comms)
        {
            os << s.index << "," << MrcCsvField(c.label) << "," << c.kind << "," << c.ranks << ","
               << c.bytes << "," << MrcMicros(c.issued) << "," << MrcMicros(c.start) << ","
               << MrcMicros(c.end) << "," << MrcMicros(c.end - c.start) << "," << MrcMicros(c.ideal)
               << "," << MrcCsvField(s.job) << "\n";
        }
    }
}

void
MrcResultsWriter::WriteRun(const MrcScenarioResult& r,
                           const MrcTransferMonitor& monitor,
                           const MrcFailureLog& log) const
{
    {
        std::ofstream os = Open("steps.csv");
        WriteStepsCsv(r, os);
    }
    {
        std::ofstream os = Open("comms.csv");
        WriteCommsCsv(r, os);
    }
    {
        std::ofstream os = Open("flows.csv");
        monitor.WriteSummaryCsv(os, r.end);
    }
    {
        std::ofstream os = Open("goodput.csv");
        os << "time_us,bytes,gbps\n";
        const std::vector<uint64_t> total = monitor.GetTotalSeries();
        const Time interval = monitor.GetInterval();
        for (size_t i = 0; i < total.size(); ++i)
        {
            os << MrcMicros(interval * int64_t(i)) << "," << total[i] << "," << std::fixed
               << std::setprecision(3) << total[i] * 8e-9 / interval.GetSeconds() << "\n";
        }
    }
    {
        std::ofstream os = Open("failures.csv");
        log.WriteCsv(os);
    }
    if (!r.tcpFlows.empty())
    {
        std::ofstream os = Open("tcp-flows.csv");
        WriteTcpFlowsCsv(r, os);
    }
    if (!r.pfcPorts.empty())
    {
        std::ofstream os = Open("pfc.csv");
        MrcPfcPortStats::WriteCsv(r.pfcPorts, os);
    }
    std::ofstream os = Open("summary.json");
    WriteJson(ToPtree(r), os);
    os << "\n";
}

void
MrcResultsWriter::WriteTcpFlowsCsv(const MrcScenarioResult& r, std::ostream& os)
{
    os << "flow,src,dst,plane,port,bytes,received,start_us,finish_us,fct_us\n";
    for (size_t i = 0; i < r.tcpFlows.size(); ++i)
    {
        const MrcTcpBulkWorkload::Flow& f = r.tcpFlows[i];
        os << i << "," << f.src << "," << f.dst << "," << f.plane << "," << f.port << "," << f.bytes
           << "," << f.received << "," << MrcMicros(f.start) << ","
           << (f.IsComplete() ? MrcMicros(f.finish) : "-1") << ","
           << (f.IsComplete() ? MrcMicros(f.GetCompletionTime()) : "-1") << "\n";
    }
}

void
MrcResultsWriter::WriteFabric(const MrcLinkMonitor& links, const MrcFabricDropMonitor& drops) const
{
    {
        std::ofstream os = Open("links.csv");
        links.WriteSeriesCsv(os);
    }
    {
        std::ofstream os = Open("link-summary.csv");
        links.WriteSummaryCsv(os);
    }
    {
        std::ofstream os = Open("link-balance.csv");
        links.WriteBalanceCsv(os);
    }
    std::ofstream os = Open("drops.csv");
    drops.WriteCsv(os);
}

void
MrcResultsWriter::WriteComparison(const std::vector<MrcScenarioResult>& runs) const
{
    {
        std::ofstream os = Open("comparison.csv");
        os << "fabric,phase,steps,step_p50_us,step_p99_us,step_p100_us,bytes_retransmitted,"
              "longest_stall_us,failed_flows\n";
        for (const auto& r : runs)
        {
            std::vector<std::pair<std::string, MrcCompletionStats>> rows{{"all", r.GetStepStats()}};
            for (auto p :
                 {MrcScenarioPhase::BEFORE, MrcScenarioPhase::DURING, MrcScenarioPhase::AFTER})
            {
                rows.emplace_back(MrcScenarioResult::GetPhaseName(p), r.GetStepStats(p));
            }
            for (const auto& [phase, st] : rows)
            {
                os << r.key << "," << phase << "," << st.GetCount() << ","
                   << MrcMicros(st.GetMedian()) << "," << MrcMicros(st.GetPercentile(99)) << ","
                   << MrcMicros(st.GetMax()) << "," << r.bytesRetransmitted << ","
                   << MrcMicros(r.longestStall) << "," << r.failedFlows << "\n";
            }
        }
    }
    boost::property_tree::ptree tree;
    boost::property_tree::ptree list;
    for (const auto& r : runs)
    {
        list.push_back({"", ToPtree(r)});
    }
    tree.add_child("runs", list);
    std::ofstream os = Open("summary.json");
    WriteJson(tree, os);
    os << "\n";
}

boost::property_tree::ptree
MrcResultsWriter::ToPtree(const MrcScenarioResult& r)
{
    boost::property_tree::ptree t;
    t.put("key", r.key);
    t.put("fabric", r.name);
    t.put("seed", r.seed);
    t.put("run", r.run);
    t.put("iterations", r.iterations);
    t.put("steps_completed", r.GetStepStats().GetCount());
    t.put("job_done", r.jobDone ? "true" : "false");
    t.put("job_failed", r.jobFailed ? "true" : "false");
    t.put("end_us", MrcMicros(r.end));
    t.put("failure_start_us",
          r.failureStart.IsStrictlyNegative() ? "-1" : MrcMicros(r.failureStart));
    t.put("failure_end_us", r.failureEnd.IsStrictlyNegative() ? "-1" : MrcMicros(r.failureEnd));
    boost::property_tree::ptree phases;
    phases.add_child("all", StatsTree(r.GetStepStats()));
    for (auto p : {MrcScenarioPhase::BEFORE, MrcScenarioPhase::DURING, MrcScenarioPhase::AFTER})
    {
        phases.add_child(MrcScenarioResult::GetPhaseName(p), StatsTree(r.GetStepStats(p)));
    }
    t.add_child("step_time", phases);
    if (r.jobs.size() > 1)
    {
        // Every job, the main one included, with its own step times (P100 per job).
        boost::property_tree::ptree jobs;
        for (const auto& j : r.jobs)
        {
            boost::property_tree::ptree job;
            job.put("iterations", j.iterations);
            job.put("steps_completed", r.GetJobStepStats(j.name).GetCount());
            job.put("done", j.done ? "true" : "false");
            job.put("failed", j.failed ? "true" : "false");
            boost::property_tree::ptree times;
            times.add_child("all", StatsTree(r.GetJobStepStats(j.name)));
            for (auto p :
                 {MrcScenarioPhase::BEFORE, MrcScenarioPhase::DURING, MrcScenarioPhase::AFTER})
            {
                times.add_child(MrcScenarioResult::GetPhaseName(p),
                                StatsTree(r.GetJobStepStats(j.name, p)));
            }
            job.add_child("step_time", times);
            jobs.add_child(j.name, job);
        }
        t.add_child("jobs", jobs);
    }
    t.put("flows", r.flows);
    t.put("failed_flows", r.failedFlows);
    t.put("corrupt_transfers", r.corruptTransfers);
    t.put("bytes_posted", r.bytesPosted);
    t.put("bytes_delivered", r.bytesDelivered);
    t.put("bytes_retransmitted", r.bytesRetransmitted);
    t.put("retransmissions", r.retransmissions);
    t.put("rtx_trimmed", r.rtxTrimmed);
    t.put("rtx_timeout", r.rtxTimeout);
    t.put("rewinds", r.rewinds);
    t.put("trimmed_received", r.trimmedReceived);
    t.put("ev_retirements", r.evRetirements);
    t.put("longest_stall_us", MrcMicros(r.longestStall));
    t.put("longest_stall_flow", r.longestStallFlow);
    t.put("stalled_us", MrcMicros(r.stalledTime));
    t.put("fault_drops", r.faultDrops);
    t.put("queue_drops", r.queueDrops);
    t.put("trims", r.trims);
    t.put("link_traversals", r.linkTraversals);
    t.put("ecn_marks", r.ecnMarks);
    t.put("routing_drops", r.routingDrops);
    {
        std::ostringstream b;
        b << std::fixed << std::setprecision(4) << r.uplinkBalance;
        t.put("uplink_balance", b.str());
    }
    t.put("routing_converged_us",
          r.routingConverged.IsStrictlyPositive() ? MrcMicros(r.routingConverged) : "-1");
    t.put("events", r.events);
    if (!r.pfcPorts.empty())
    {
        const MrcPfcPortStats::Totals p = MrcPfcPortStats::Sum(r.pfcPorts);
        boost::property_tree::ptree pfc;
        pfc.put("ports", p.ports);
        pfc.put("pauses_sent", p.pausesSent);
        pfc.put("xons_sent", p.xonsSent);
        pfc.put("paused_us", MrcMicros(p.pausedTime));
        pfc.put("max_paused_us", MrcMicros(p.maxPausedTime));
        pfc.put("max_paused_port", p.maxPausedPort);
        pfc.put("headroom_overflows", p.overflows);
        pfc.put("watchdog_triggers", p.watchdogTriggers);
        t.add_child("pfc", pfc);
    }
    if (!r.tcpFlows.empty())
    {
        const MrcCompletionStats st = r.GetTcpStats();
        uint64_t bytes = 0;
        uint64_t received = 0;
        for (const auto& f : r.tcpFlows)
        {
            bytes += f.bytes;
            received += f.received;
        }
        boost::property_tree::ptree tcp;
        tcp.put("flows", r.tcpFlows.size());
        tcp.put("completed", st.GetCount());
        tcp.put("bytes", bytes);
        tcp.put("bytes_received", received);
        tcp.put("fct_min_us", MrcMicros(st.GetMin()));
        tcp.put("fct_p50_us", MrcMicros(st.GetMedian()));
        tcp.put("fct_p99_us", MrcMicros(st.GetPercentile(99)));
        tcp.put("fct_max_us", MrcMicros(st.GetMax()));
        t.add_child("tcp", tcp);
    }
    return t;
}

void
MrcResultsWriter::WriteJson(const boost::property_tree::ptree& tree, std::ostream& os)
{
    WriteNode(tree, os, 0);
}

} // namespace ns3
