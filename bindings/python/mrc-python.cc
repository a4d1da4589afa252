/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the mrc module's scenario-level API (pybind11, standalone build):
 *
 *   import mrc
 *   mrc.set_default("ns3::MrcQueuePair::LossTimeoutRtts", "3")
 *   s = mrc.ClusterScenario(Fabric="roce-ecmp", QpsPerPeer=4, Planes=2)
 *   s.add_failure({"at": "400us", "kind": "link-down", "link": "p0-t0-0 p0-t1-0",
 *                  "duration": "1200us"})
 *   r = s.run()        # a dict: the summary.json of the run, plus "steps", "comms"
 *
 * Attributes take the MrcClusterScenario names and any value ns-3 can read from a string.
 * Failures take the JSON schedule fields (doc/mrc.rst, "Schedule files"). C++ errors become
 * Python exceptions with the same message (std::invalid_argument: ValueError). Each run()
 * builds, runs and destroys its own simulation, so runs repeat in one interpreter.
 */

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/mrc-module.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <cmath>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <stdexcept>

namespace py = pybind11;
using namespace ns3;

namespace
{

/**
 * \param field the attribute, for messages
 * \param value a Python value (str, int, float, bool)
 * \return the text ns-3 reads it from: a float with an integral value as an integer (1e6:
 *         "1000000", so that integer attributes take it), a bool as true or false
 * \throws std::invalid_argument naming the field for None
 */
std::string
ToAttributeText(const std::string& field, const py::handle& value)
{
    if (value.is_none())
    {
        throw std::invalid_argument(field + " (=None) needs a value");
    }
    if (py::isinstance<py::bool_>(value))
    {
        return value.cast<bool>() ? "true" : "false";
    }
    if (py::isinstance<py::float_>(value))
    {
        const double v = value.cast<double>();
        // Below 2^64 (every integer attribute's range): larger ones keep their exponent form.
        if (std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < 18446744073709551616.0)
        {
            return py::str(value.attr("__int__")()).cast<std::string>();
        }
    }
    return py::str(value).cast<std::string>();
}

/**
 * The scenario of one run, as Python sees it.
 */
class PyClusterScenario
{
  public:
    /// \param attributes MrcClusterScenario attribute name -> value
    explicit PyClusterScenario(const py::kwargs& attributes)
        : m_scenario(CreateObject<MrcClusterScenario>())
    {
        for (const auto& [name, value] : attributes)
        {
            Set(name.cast<std::string>(), value);
        }
    }

    /**
     * \param name attribute
     * \param value its value
     * \throws std::invalid_argument naming the attribute if it does not exist or the value
     *         does not parse
     */
    void Set(const std::string& name, const py::handle& value)
    {
        const std::string text = ToAttributeText("ClusterScenario: " + name, value);
        TypeId::AttributeInformation info;
        if (!MrcClusterScenario::GetTypeId().LookupAttributeByName(name, &info))
        {
            throw std::invalid_argument("ClusterScenario: no attribute " + name);
        }
        MrcValueParser::CheckAttributeText("ClusterScenario: " + name, info.checker, text);
        if (!m_scenario->SetAttributeFailSafe(name, StringValue(text)))
        {
            throw std::invalid_argument("ClusterScenario: " + name + " (=" + text
                                        + ") is not a valid value ("
                                        + info.checker->GetUnderlyingTypeInformation() + ")");
        }
    }

    /**
     * \param name attribute
     * \return its value as text
     */
    std::string Get(const std::string& name) const
    {
        StringValue v;
        if (!m_scenario->GetAttributeFailSafe(name, v))
        {
            throw std::invalid_argument("ClusterScenario: no attribute " + name);
        }
        return v.Get();
    }

    /**
     * Add failures written as the JSON schedule's events.
     * \param events one dict or a list of dicts
     */
    void AddFailures(const py::object& events)
    {
        py::list list;
        if (py::isinstance<py::dict>(events))
        {
            list.append(events);
        }
        else
        {
            list = py::list(events);
        }
        py::dict doc;
        doc["events"] = list;
        const std::string json = py::module_::import("json").attr("dumps")(doc).cast<std::string>();
        std::istringstream in(json);
        for (const MrcFailureSpec& f :
             MrcFailureScheduleParser::Parse(in, "python", MrcFailureScheduleParser::Format::JSON))
        {
            m_scenario->AddFailure(f);
        }
    }

    /**
     * Add a collective to a custom job (MrcClusterScenario::AddCollective).
     * \param typeId an MrcCollective type name
     * \param hosts its hosts (None: every host)
     * \param job "" (the main job) or another job's name
     * \param attributes its attributes
     */
    void AddCollective(const std::string& typeId,
                       const std::optional<std::vector<uint32_t>>& hosts,
                       const std::string& job,
                       const py::kwargs& attributes)
    {
        std::vector<std::pair<std::string, std::string>> attrs;
        for (const auto& [name, value] : attributes)
        {
            const std::string attribute = name.cast<std::string>();
            attrs.emplace_back(attribute, ToAttributeText(typeId + ": " + attribute, value));
        }
        m_scenario->AddCollective(typeId, hosts.value_or(std::vector<uint32_t>{}), attrs, job);
    }

    /**
     * Set another job's parameters (MrcClusterScenario::SetJob).
     * \param job its name
     * \param iterations its steps
     * \param computeTime its compute gap (an ns-3 time)
     * \param start its start (an ns-3 time)
     */
    void SetJob(const std::string& job,
                uint32_t iterations,
                const std::string& computeTime,
                const std::string& start)
    {
        m_scenario->SetJob(job,
                           iterations,
                           ParseTime("compute_time", computeTime),
                           ParseTime("start", start));
    }

    /**
     * \param field the argument's name
     * \param text an ns-3 time ("100us", "1.5ms")
     * \return the time
     * \throws std::invalid_argument naming the field if it does not parse
     */
    static Time ParseTime(const std::string& field, const std::string& text)
    {
        return MrcValueParser::ParseTime(field, text);
    }

    /**
     * Add a TCP flow (MrcClusterScenario::AddTcpFlow).
     * \param src source host
     * \param dst destination host
     * \param bytes bytes
     * \param start start time as text
     * \param plane the plane (None: by flow index)
     */
    void AddTcpFlow(uint32_t src,
                    uint32_t dst,
                    uint64_t bytes,
                    const std::string& start,
                    std::optional<uint32_t> plane)
    {
        m_scenario->AddTcpFlow(src, dst, bytes, ParseTime("add_tcp_flow: start", start), plane);
    }

    /**
     * Add a TCP permutation (MrcClusterScenario::AddTcpPermutation).
     * \param bytes bytes per flow
     * \param start start time as text
     */
    void AddTcpPermutation(uint64_t bytes, const std::string& start)
    {
        m_scenario->AddTcpPermutation(bytes, ParseTime("add_tcp_permutation: start", start));
    }

    /**
     * Set an attribute by Config path on the objects the run builds.
     * \param path the Config path
     * \param value the value
     */
    void SetConfig(const std::string& path, const py::handle& value)
    {
        m_scenario->AddConfig(path, ToAttributeText(path, value));
    }

    /// \param path a JSON or CSV schedule file
    void LoadFailures(const std::string& path)
    {
        m_scenario->LoadFailures(path);
    }

    /// \return the run's summary (summary.json) as a dict, with "steps", "comms", "tcp_flows"
    py::dict Run()
    {
        MrcScenarioResult r;
        {
            // Long runs: let Python threads (and Ctrl-C handling after the run) proceed.
            py::gil_scoped_release release;
            r = m_scenario->Run();
        }
        std::ostringstream os;
        MrcResultsWriter::WriteJson(MrcResultsWriter::ToPtree(r), os);
        py::dict out = py::module_::import("json").attr("loads")(os.str());
        py::list steps;
        for (const auto& s : r.steps)
        {
            py::dict d;
            d["step"] = s.index;
            d["job"] = s.job;
            d["phase"] = MrcScenarioResult::GetPhaseName(s.phase);
            d["start_us"] = s.start.GetNanoSeconds() / 1e3;
            d["end_us"] = s.end.GetNanoSeconds() / 1e3;
            d["duration_us"] = s.GetDuration().GetNanoSeconds() / 1e3;
            d["ideal_us"] = s.ideal.GetNanoSeconds() / 1e3;
            d["failed"] = s.failed;
            d["transfers"] = s.transfers;
            d["transfer_min_us"] = s.transferMin.GetNanoSeconds() / 1e3;
            d["transfer_p50_us"] = s.transferP50.GetNanoSeconds() / 1e3;
            d["transfer_p99_us"] = s.transferP99.GetNanoSeconds() / 1e3;
            d["transfer_max_us"] = s.transferMax.GetNanoSeconds() / 1e3;
            steps.append(d);
        }
        out["steps"] = steps;
        py::list comms;
        for (const auto& s : r.steps)
        {
            for (const auto& c : s.comms)
            {
                py::dict d;
                d["step"] = s.index;
                d["job"] = s.job;
                d["label"] = c.label;
                d["kind"] = c.kind;
                d["ranks"] = c.ranks;
                d["bytes"] = c.bytes;
                d["issued_us"] = c.issued.GetNanoSeconds() / 1e3;
                d["start_us"] = c.start.GetNanoSeconds() / 1e3;
                d["end_us"] = c.end.GetNanoSeconds() / 1e3;
                d["duration_us"] = (c.end - c.start).GetNanoSeconds() / 1e3;
                d["ideal_us"] = c.ideal.GetNanoSeconds() / 1e3;
                comms.append(d);
            }
        }
        out["comms"] = comms;
        py::list tcp;
        for (const auto& f : r.tcpFlows)
        {
            py::dict d;
            d["src"] = f.src;
            d["dst"] = f.dst;
            d["plane"] = f.plane;
            d["bytes"] = f.bytes;
            d["received"] = f.received;
            d["start_us"] = f.start.GetNanoSeconds() / 1e3;
            d["fct_us"] = f.IsComplete()
                              ? py::object(py::float_(f.GetCompletionTime().GetNanoSeconds() / 1e3))
                              : py::object(py::none());
            tcp.append(d);
        }
        out["tcp_flows"] = tcp;
        try
        {
            py::module_ np = py::module_::import("numpy");
            py::list durations;
            for (const auto& s : r.steps)
            {
                durations.append(s.GetDuration().GetNanoSeconds() / 1e3);
            }
            out["step_durations_us"] = np.attr("array")(durations);
        }
        catch (const py::error_already_set&)
        {
            // numpy is optional: "steps" carries the same numbers.
        }
        try
        {
            // With pandas (Debian's python3-pandas), the tables also as DataFrames.
            py::module_ pd = py::module_::import("pandas");
            py::dict frames;
            for (const char* table : {"steps", "comms", "tcp_flows"})
            {
                frames[table] = pd.attr("DataFrame")(out[table]);
            }
            out["frames"] = frames;
        }
        catch (const py::error_already_set&)
        {
            // pandas is optional: the lists of dicts carry the same rows.
        }
        return out;
    }

    /// \return the topology the attributes describe
    std::string Describe() const
    {
        return m_scenario->GetSpec().Describe();
    }

  private:
    Ptr<MrcClusterScenario> m_scenario; //!< the scenario
};

} // namespace

PYBIND11_MODULE(mrc, m)
{
    m.doc() = "MRC (Multipath Reliable Connection) scenarios on ns-3: build, run, measure.";

    m.def(
        "set_default",
        [](const std::string& path, const py::handle& value) {
            const std::string text = ToAttributeText(path, value);
            const size_t colons = path.rfind("::");
            TypeId tid;
            TypeId::AttributeInformation info;
            if (colons != std::string::npos
                && TypeId::LookupByNameFailSafe(path.substr(0, colons), &tid)
                && tid.LookupAttributeByName(path.substr(colons + 2), &info))
            {
                MrcValueParser::CheckAttributeText("set_default: " + path, info.checker, text);
            }
            if (!Config::SetDefaultFailSafe(path, StringValue(text)))
            {
                throw std::invalid_argument("set_default: " + path + " (=" + text
                                            + ") is not an attribute with a valid value");
            }
        },
        py::arg("path"),
        py::arg("value"),
        "Config::SetDefault by name, e.g. set_default('ns3::MrcQueuePair::LossTimeoutRtts', 3).");
    m.def(
        "set_global",
        [](const std::string& name, const py::handle& value) {
            const std::string text = ToAttributeText(name, value);
            MrcValueParser::CheckGlobalValueText(name, text);
            if (!GlobalValue::BindFailSafe(name, StringValue(text)))
            {
                throw std::invalid_argument("set_global: " + name + " (=" + text
                                            + ") is not a global value with a valid value");
            }
        },
        py::arg("name"),
        py::arg("value"),
        "GlobalValue::Bind, e.g. set_global('RngRun', 2).");
    m.def(
        "reset_defaults",
        []() {
            Config::Reset();
        },
        "Config::Reset: every attribute back to its built-in default.");

    py::class_<PyClusterScenario>(m, "ClusterScenario", R"doc(
An AI-training cluster (MrcClusterScenario): attributes as keyword arguments with their ns-3
names (Fabric, QpsPerPeer, Planes, T0Count, HostsPerT0, T1Count, FatTreeK, LinkRate,
LinkDelay, Iterations, ComputeTime, AllReduceSize, AllToAllSize, AllToAllGroup, VerifyData, StopTime,
Interval, FailureFile, OutputDirectory, FlowMonitor, MaxLinks, ShowProgress, ProgressInterval,
Seed, TcpSegmentSize, TcpMinRto, RoceLocalAckTimeout).)doc")
        .def(py::init<const py::kwargs&>())
        .def("set", &PyClusterScenario::Set, py::arg("name"), py::arg("value"))
        .def("get", &PyClusterScenario::Get, py::arg("name"))
        .def("add_failure",
             &PyClusterScenario::AddFailures,
             py::arg("events"),
             "Add a failure (or a list), written as the JSON schedule's events.")
        .def("add_collective",
             &PyClusterScenario::AddCollective,
             py::arg("type"),
             py::arg("hosts") = py::none(),
             py::arg("job") = "",
             "Replace the default job with your collectives (each step runs them all): an "
             "MrcCollective type name ('ns3::MrcIncast', 'ns3::MrcRingAllReduce', ...), its "
             "hosts (None: all) and its attributes as keyword arguments. job='name' puts it in "
             "another job of its own (its own steps and P100; set_job), sharing the fabric.")
        .def("set_job",
             &PyClusterScenario::SetJob,
             py::arg("job"),
             py::arg("iterations"),
             py::arg("compute_time") = "0s",
             py::arg("start") = "0s",
             "Set another job's steps, compute gap and start (default: the scenario's "
             "Iterations and ComputeTime, start 0). Results per job in 'jobs'; 'steps' rows "
             "carry 'job'.")
        .def("add_tcp_flow",
             &PyClusterScenario::AddTcpFlow,
             py::arg("src"),
             py::arg("dst"),
             py::arg("bytes"),
             py::arg("start") = "0s",
             py::arg("plane") = py::none(),
             "Add an ns-3 TCP bulk flow from host src to host dst, next to the job (start: an "
             "ns-3 time such as '100us'; plane None: spread by flow index). Results in "
             "'tcp' and 'tcp_flows'.")
        .def("add_tcp_permutation",
             &PyClusterScenario::AddTcpPermutation,
             py::arg("bytes"),
             py::arg("start") = "0s",
             "Add a TCP permutation: every host sends bytes to another (random derangement "
             "from the Seed).")
        .def("set_config",
             &PyClusterScenario::SetConfig,
             py::arg("path"),
             py::arg("value"),
             "Config::Set on the objects the run builds, applied before the simulation "
             "starts, e.g. set_config('/NodeList/*/$ns3::TrafficControlLayer/"
             "RootQueueDiscList/*/$ns3::MrcTrimmingQueueDisc/TrimSize', 128). A path that "
             "matches nothing, or a refused value, raises ValueError from run().")
        .def("load_failures", &PyClusterScenario::LoadFailures, py::arg("path"))
        .def("describe", &PyClusterScenario::Describe)
        .def("run",
             &PyClusterScenario::Run,
             "Build, run and destroy the simulation; return the summary dict (summary.json "
             "plus 'steps', 'comms' (every communication of every step, as comms.csv) and "
             "'tcp_flows' as lists of dicts, 'step_durations_us' as a NumPy array if numpy is "
             "present, and 'frames' (the three tables as pandas DataFrames) if pandas is). "
             "A scenario runs once.");
}
