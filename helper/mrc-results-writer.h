/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RESULTS_WRITER_H
#define MRC_RESULTS_WRITER_H

#include "mrc-scenario-result.h"

#include <boost/property_tree/ptree.hpp>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class MrcTransferMonitor;
class MrcFailureLog;
class MrcLinkMonitor;
class MrcFabricDropMonitor;

/**
 * \ingroup mrc
 * \brief Writes a scenario's results directory: CSV files with a header line (columns below)
 * and a JSON summary. Everything written is a function of the simulation only (no wall-clock
 * time, fixed precision, stable order), so the same seed and parameters give byte-identical
 * files.
 *
 * One run (WriteRun), in the directory given to the constructor:
 * - `steps.csv`: `step,phase,start_us,end_us,duration_us,ideal_us,slowdown,failed,transfers,
 *   transfer_min_us,transfer_p50_us,transfer_p99_us,transfer_max_us,job` (slowdown = duration
 *   / ideal; phase before|during|after the failures; transfer_* = completion times of the
 *   step's transfers; job "main" or another job's name);
 * - `comms.csv`: WriteCommsCsv, `step,label,kind,ranks,bytes,issued_us,start_us,end_us,
 *   duration_us,ideal_us,job`, one row per communication of each step (MrcTrainingJob::CommRecord;
 *   an imported workload's layer passes, or the default job's collectives);
 * - `flows.csv`: MrcTransferMonitor::WriteSummaryCsv, one row per queue-pair group;
 * - `goodput.csv`: `time_us,bytes,gbps`, payload placed per Interval over all flows;
 * - `failures.csv`: MrcFailureLog::WriteCsv, the failure events as they happened;
 * - `tcp-flows.csv` (only with TCP flows): WriteTcpFlowsCsv, one row per TCP flow;
 * - `pfc.csv` (only with PFC): MrcPfcPortStats::WriteCsv, one row per port and lossless priority;
 * - `summary.json`: ToPtree of the result (`step_time` of the main job; a `jobs` object with
 *   every job's step times when there are several; a `tcp` object when there are TCP flows and
 *   a `pfc` object, MrcPfcPortStats::Sum, with PFC);
 * - with WriteFabric: `links.csv`, `link-summary.csv`, `link-balance.csv`, `drops.csv` (columns
 *   in MrcLinkMonitor and MrcFabricDropMonitor).
 *
 * Several runs (WriteComparison), e.g. the same job on several fabrics:
 * - `comparison.csv`: `fabric,phase,steps,step_p50_us,step_p99_us,step_p100_us,
 *   bytes_retransmitted,longest_stall_us,failed_flows` (phase all|before|during|after; the
 *   last three columns are per run, repeated on each of its rows);
 * - `summary.json`: `{"runs": [ToPtree of each run]}`.
 *
 * JSON numbers are written as numbers, strings as strings (ptree holds both as text; a value
 * is a number when it parses entirely as one; true and false are literals).
 */
class MrcResultsWriter
{
  public:
    /**
     * \param directory where to write; created with its parents if missing
     * \throws std::runtime_error naming the directory if it cannot be created
     */
    explicit MrcResultsWriter(const std::string& directory);

    /// \return the directory
    const std::string& GetDirectory() const;

    /**
     * Create a results directory if it is missing and write a probe file into it (removed
     * again), so that a run finds out that it cannot write its results before it starts, not
     * after.
     * \param directory the directory
     * \param field what named it, for the message ("--out", "OutputDirectory")
     * \throws std::invalid_argument naming the field, the directory and the reason
     */
    static void CheckDirectory(const std::string& directory, const std::string& field);

    /**
     * Write one run's files.
     * \param r the result
     * \param monitor its flows
     * \param log its failure events
     */
    void WriteRun(const MrcScenarioResult& r,
                  const MrcTransferMonitor& monitor,
                  const MrcFailureLog& log) const;

    /**
     * Write the fabric's files: `links.csv` (MrcLinkMonitor::WriteSeriesCsv), `link-summary.csv`
     * (WriteSummaryCsv), `link-balance.csv` (WriteBalanceCsv) and `drops.csv`
     * (MrcFabricDropMonitor::WriteCsv).
     * \param links the link monitor
     * \param drops the drop monitor
     */
    void WriteFabric(const MrcLinkMonitor& links, const MrcFabricDropMonitor& drops) const;

    /**
     * Write the comparison of several runs.
     * \param runs the results
     */
    void WriteComparison(const std::vector<MrcScenarioResult>& runs) const;

    /**
     * \param r a result
     * \return its summary: names, job state, failure window, totals, and per phase the number
     *         of steps and their duration min/P50/P99/P100 (microseconds)
     */
    static boost::property_tree::ptree ToPtree(const MrcScenarioResult& r);

    /**
     * Write a ptree as JSON, numbers unquoted, keys in insertion order, two-space indent.
     * \param tree the tree (a node whose children all have empty keys is an array)
     * \param os where
     */
    static void WriteJson(const boost::property_tree::ptree& tree, std::ostream& os);

    /**
     * Write steps.csv's rows.
     * \param r a result
     * \param os where
     */
    static void WriteStepsCsv(const MrcScenarioResult& r, std::ostream& os);

    /**
     * Write comms.csv's rows (see the class).
     * \param r the run
     * \param os the stream
     */
    static void WriteCommsCsv(const MrcScenarioResult& r, std::ostream& os);

    /**
     * Write tcp-flows.csv's rows: flow,src,dst,plane,port,bytes,received,start_us,finish_us,
     * fct_us (-1: not complete).
     * \param r the result
     * \param os where
     */
    static void WriteTcpFlowsCsv(const MrcScenarioResult& r, std::ostream& os);

  private:
    /**
     * \param name file name
     * \return an open stream to it in the directory
     * \throws std::runtime_error if it cannot be opened
     */
    std::ofstream Open(const std::string& name) const;

    std::string m_directory; //!< where
};

} // namespace ns3

#endif /* MRC_RESULTS_WRITER_H */
