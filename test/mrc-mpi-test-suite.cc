/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Distributed runs on ns-3's MPI engine (only in an ns-3 tree configured with --enable-mpi,
 * where ns-3 defines NS3_MPI; elsewhere this file compiles to nothing): the same MRC
 * permutation on one process, on one MPI rank and on two ranks (see the test case for what
 * "the same" can mean), and no frame of a node's copy on another rank crossing a rank border.
 *
 * The example is run as ns-3's own mpi suite runs its examples: through `./ns3 run` with an
 * mpiexec command template, from the top of the ns-3 tree (test.py's working directory).
 */

#ifdef NS3_MPI

#    include "ns3/test.h"

#    include <algorithm>
#    include <cctype>
#    include <cstdio>
#    include <cstdlib>
#    include <filesystem>
#    include <fstream>
#    include <functional>
#    include <map>
#    include <sstream>
#    include <string>
#    include <utility>
#    include <vector>

using namespace ns3;

namespace
{

/// What a run's RESULT lines say.
struct Outcome
{
    std::string text;             //!< the RESULT lines
    std::map<uint32_t, long> fct; //!< flow -> completion time (ns; -1: not done)
    uint64_t hops{0};             //!< packet-hops
    uint64_t borderFrames{0};     //!< frames stopped at rank borders
    uint64_t pauseFrames{0};      //!< PAUSE frames delivered
    uint64_t drops{0};            //!< packets dropped
};

/**
 * \ingroup mrc-test
 * A test case that runs the module's examples on one process or on MPI ranks.
 */
class MpiExampleTestCase : public TestCase
{
  public:
    /// \param name the test case's name
    explicit MpiExampleTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * \param text RESULT lines \param prefix the start of one of them
     * \return the numbers in that line, in order (none if it is missing)
     */
    static std::vector<double> Numbers(const std::string& text, const std::string& prefix)
    {
        std::vector<double> numbers;
        const size_t at = text.find(prefix);
        if (at == std::string::npos)
        {
            return numbers;
        }
        std::istringstream line(
            text.substr(at + prefix.size(), text.find('\n', at) - at - prefix.size()));
        for (std::string word; line >> word;)
        {
            char* end = nullptr;
            const double v = std::strtod(word.c_str(), &end);
            if (end != word.c_str())
            {
                numbers.push_back(v);
            }
        }
        return numbers;
    }

    /**
     * Run an example and keep its RESULT lines.
     * \param example the example's name
     * \param ranks 0: no mpiexec, no --mpi; otherwise mpiexec -n ranks ... --mpi
     * \param args its other arguments
     * \param results keep only the RESULT lines of its standard output (the example must
     * print one), or everything
     * \return the RESULT lines, or everything it printed (standard output, then standard error)
     */
    std::string RunExample(const std::string& example,
                           int ranks,
                           const std::string& args,
                           bool results = true)
    {
        std::string file = example + "-" + std::to_string(ranks) + args;
        std::replace_if(
            file.begin(),
            file.end(),
            [](char c) {
                return !std::isalnum(static_cast<unsigned char>(c));
            },
            '-');
        if (file.size() > 120)
        {
            // A file name is at most 255 bytes, and args may hold paths: keep the name short,
            // and distinct through a hash of the whole.
            std::ostringstream shortName;
            shortName << file.substr(0, 100) << "-" << std::hex << std::hash<std::string>{}(file);
            file = shortName.str();
        }
        const std::string out = CreateTempDirFilename(file + ".txt");
        std::ostringstream template_;
        if (ranks > 0)
        {
            // OpenMPI refuses to start as root without these (CI runs as root).
            template_ << "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n "
                      << ranks << " %s --mpi";
        }
        else
        {
            template_ << "%s";
        }
        template_ << " " << args;
        // Standard error goes to a file of its own: mpiexec forwards a rank's two streams
        // separately, so a line on one could land inside a line of the other (rank 0's wall
        // time once cut its "received bytes per rank" line in two under test.py's load).
        std::ostringstream command;
        command << "python3 ./ns3 run " << example << " --no-build --command-template=\""
                << template_.str() << "\" 2> " << out << ".stderr "
                << (results ? "| grep '^RESULT' " : "") << "> " << out;
        const int status = std::system(command.str().c_str());
        NS_TEST_EXPECT_MSG_EQ(status, 0, "command failed: " << command.str());
        std::string text;
        for (const std::string& file : {out, out + ".stderr"})
        {
            std::ifstream in(file);
            for (std::string line; std::getline(in, line);)
            {
                if (file == out || !results)
                {
                    text += line + "\n";
                }
            }
        }
        return text;
    }
};

/**
 * \ingroup mrc-test
 * mrc-distributed-permutation on one process, one MPI rank and two ranks.
 *
 * One packet per flow and 100 kB per flow: the three runs print exactly the same. Events of the
 * same nanosecond (two frames reaching a switch at once) run in the order they were scheduled,
 * and a frame from another rank is scheduled when its MPI message is read, not when it was
 * sent; the example turns on MrcFabricChannel's OrderArrivals, which delivers a time step's
 * frames by interface on one process and on every rank alike. Without it (ns-3's order) two
 * ranks completed every flow within 5 % of one process's time and 1 % of its packet-hops, and
 * so does this test with --ns3::MrcFabricChannel::OrderArrivals=false.
 *
 * RoCEv2 over PFC and DCQCN, 1 MB per flow (ECMP collisions make ports pause): on two ranks
 * every flow completes, nothing is dropped, and the output is one process's, the PAUSE frames
 * delivered included (counted where they arrive, so PAUSE frames between ranks count; ordered
 * with the frames of their step; with ns-3's order they were within 20 %, packet-hops 2 %).
 */
class DistributedPermutationTestCase : public MpiExampleTestCase
{
  public:
    DistributedPermutationTestCase()
        : MpiExampleTestCase("k=4 permutation on one process, one MPI rank and two ranks")
    {
    }

  private:
    /**
     * Run the example and read its RESULT lines.
     * \param ranks 0: no mpiexec, no --mpi; otherwise mpiexec -n ranks ... --mpi
     * \param bytes bytes per flow
     * \param fabric --fabric
     * \param more further arguments
     * \return what it printed
     */
    Outcome Run(int ranks,
                uint64_t bytes,
                const std::string& fabric = "mrc-srv6",
                const std::string& more = "")
    {
        const std::string text = RunExample("mrc-distributed-permutation",
                                            ranks,
                                            "--k=4 --bytes=" + std::to_string(bytes)
                                                + " --fabric=" + fabric + " " + more);
        Outcome o;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
        {
            o.text += line + "\n";
            uint32_t flow = 0;
            uint32_t dst = 0;
            long ns = 0;
            unsigned long long n = 0;
            if (std::sscanf(line.c_str(), "RESULT flow %u -> %u: %ld ns", &flow, &dst, &ns) == 3)
            {
                o.fct[flow] = ns;
            }
            else if (std::sscanf(line.c_str(), "RESULT flow %u -> %u: not done", &flow, &dst) == 2)
            {
                o.fct[flow] = -1;
            }
            else if (unsigned long long d = 0;
                     std::sscanf(line.c_str(), "RESULT packet-hops %llu, drops %llu", &n, &d) == 2)
            {
                o.hops = n;
                o.drops = d;
            }
            else if (std::sscanf(line.c_str(), "RESULT PAUSE frames %llu", &n) == 1)
            {
                o.pauseFrames = n;
            }
            else if (line.find("stopped at rank borders") != std::string::npos)
            {
                o.borderFrames = std::stoull(line.substr(line.rfind(' ') + 1));
            }
        }
        return o;
    }

    void DoRun() override
    {
        const Outcome small = Run(0, 4000);
        NS_TEST_ASSERT_MSG_NE(small.text.find("RESULT done 16/16"),
                              std::string::npos,
                              "every flow completes:\n"
                                  << small.text);
        NS_TEST_EXPECT_MSG_EQ(Run(1, 4000).text, small.text, "one rank, one packet per flow");
        NS_TEST_EXPECT_MSG_EQ(Run(2, 4000).text, small.text, "two ranks, one packet per flow");

        const Outcome alone = Run(0, 100000);
        NS_TEST_ASSERT_MSG_EQ(alone.fct.size(), 16u, "16 flows:\n" << alone.text);
        NS_TEST_ASSERT_MSG_GT(alone.hops, 3000u, "about 25 packets per flow, 3 to 5 hops each");
        NS_TEST_EXPECT_MSG_EQ(Run(1, 100000).text, alone.text, "one rank, 100 kB per flow");
        const Outcome two = Run(2, 100000);
        NS_TEST_ASSERT_MSG_EQ(two.fct.size(), 16u, "16 flows on two ranks:\n" << two.text);
        NS_TEST_EXPECT_MSG_EQ(two.borderFrames, 0u, "no frame from another rank's copy");
        for (const auto& [flow, ns] : alone.fct)
        {
            NS_TEST_ASSERT_MSG_GT(ns, 0, "flow " << flow << " done on one process");
        }
        NS_TEST_EXPECT_MSG_EQ(two.text, alone.text, "two ranks, 100 kB per flow: the same");
        // ns-3's own same-time order: close, not the same.
        const std::string plain = "--ns3::MrcFabricChannel::OrderArrivals=false";
        const Outcome unordered = Run(0, 100000, "mrc-srv6", plain);
        const Outcome unorderedTwo = Run(2, 100000, "mrc-srv6", plain);
        NS_TEST_ASSERT_MSG_EQ(unorderedTwo.fct.size(), 16u, "16 flows, unordered, two ranks");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(unorderedTwo.hops),
                                  double(unordered.hops),
                                  0.01 * unordered.hops,
                                  "packet-hops on two ranks, unordered");
        for (const auto& [flow, ns] : unordered.fct)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(double(unorderedTwo.fct.at(flow)),
                                      double(ns),
                                      0.05 * ns,
                                      "flow " << flow << " on two ranks, unordered");
        }
        // RoCEv2 over PFC, 1 MB per flow: ECMP collisions pause ports, T1-T2 links cross ranks.
        const Outcome pfc = Run(0, 1000000, "roce-pfc");
        NS_TEST_ASSERT_MSG_NE(pfc.text.find("RESULT done 16/16"),
                              std::string::npos,
                              "every RoCEv2 flow completes:\n"
                                  << pfc.text);
        NS_TEST_ASSERT_MSG_GT(pfc.pauseFrames, 50u, "PFC pauses on one process");
        const Outcome pfcTwo = Run(2, 1000000, "roce-pfc");
        NS_TEST_ASSERT_MSG_NE(pfcTwo.text.find("RESULT done 16/16"),
                              std::string::npos,
                              "every RoCEv2 flow completes on two ranks:\n"
                                  << pfcTwo.text);
        NS_TEST_EXPECT_MSG_EQ(pfcTwo.drops, 0u, "lossless on two ranks");
        NS_TEST_EXPECT_MSG_EQ(pfcTwo.borderFrames, 0u, "no frame from another rank's copy");
        NS_TEST_EXPECT_MSG_EQ(pfcTwo.text, pfc.text, "RoCEv2 over PFC: two ranks, the same");
    }
};

/**
 * \ingroup mrc-test
 * mrc-distributed-collective: a ring all-reduce and an all-to-all of 16 ranks with real bytes
 * (VerifyData), on one process, one MPI rank and two ranks.
 *
 * On one rank the output is exactly one process's (the distributed code path with every host
 * local, and GatherCollective's merge). On two ranks each rank posts its hosts' transfers and
 * expects those from the other rank's hosts (the ring's steps cross the rank border twice per
 * step, the all-to-all's half of its transfers cross it): every transfer is delivered, with
 * the right bytes, the bytes each rank received are exactly one process's, and so are the
 * duration, the slowest transfer and the packet-hops (OrderArrivals, as explained in
 * DistributedPermutationTestCase; without it they were within 5 %, 5 % and 2 %).
 */
class DistributedCollectiveTestCase : public MpiExampleTestCase
{
  public:
    DistributedCollectiveTestCase()
        : MpiExampleTestCase("k=4 ring all-reduce and all-to-all on one process and MPI ranks")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string collective : {"ring", "alltoall"})
        {
            // Real bytes: 1 KiB packets, since ns-3 carries at most 2000 B per message between
            // ranks.
            const std::string args = "--k=4 --size=400000 --verify --ns3::MrcQueuePair::Mss=1024 "
                                     "--collective="
                                     + collective;
            const std::string alone = RunExample("mrc-distributed-collective", 0, args);
            const auto delivered = Numbers(alone, "RESULT transfers delivered");
            const bool all =
                delivered.size() >= 2 && delivered[0] > 0 && delivered[0] == delivered[1];
            NS_TEST_ASSERT_MSG_EQ(all,
                                  true,
                                  collective << ": every transfer delivered:\n"
                                             << alone);
            NS_TEST_EXPECT_MSG_EQ(RunExample("mrc-distributed-collective", 1, args),
                                  alone,
                                  collective << " on one rank");
            const std::string two = RunExample("mrc-distributed-collective", 2, args);
            const auto deliveredTwo = Numbers(two, "RESULT transfers delivered");
            const bool allTwo = deliveredTwo.size() >= 2 && deliveredTwo[0] == delivered[0];
            NS_TEST_ASSERT_MSG_EQ(allTwo,
                                  true,
                                  collective << ": every transfer on two ranks:\n"
                                             << two);
            NS_TEST_EXPECT_MSG_NE(two.find("done 1, failed 0"),
                                  std::string::npos,
                                  collective << " ends, not failed, on two ranks:\n"
                                             << two);
            NS_TEST_EXPECT_MSG_NE(two.find("RESULT corrupt transfers 0"),
                                  std::string::npos,
                                  collective << ": the right bytes on two ranks");
            const bool sameBytes = Numbers(two, "RESULT received bytes per rank:")
                                   == Numbers(alone, "RESULT received bytes per rank:");
            NS_TEST_EXPECT_MSG_EQ(sameBytes, true, collective << ": bytes per rank on two ranks");
            for (const std::string prefix :
                 {"RESULT duration", "RESULT slowest transfer", "RESULT packet-hops"})
            {
                const auto ones = Numbers(alone, prefix);
                NS_TEST_ASSERT_MSG_EQ((!ones.empty() && ones[0] > 0),
                                      true,
                                      collective << ": " << prefix << " printed");
                const bool same = Numbers(two, prefix) == ones;
                NS_TEST_EXPECT_MSG_EQ(same,
                                      true,
                                      collective << ": " << prefix << " on two ranks:\n"
                                                 << two << "\none process:\n"
                                                 << alone);
            }
        }
    }
};

/**
 * \ingroup mrc-test
 * mrc-distributed-collective with examples/failure-schedule-fat-tree-k4.json: an all-to-all
 * of 16 ranks while two links that cross the ranks' border fail (one down, one losing 5 % of
 * its frames) and one inside a rank goes down. Every rank schedules every event; each link's
 * state acts on the ranks that simulate its ends. On two ranks as in one process: every
 * transfer arrives, the six failure events (three starts, three ends) are applied, and the
 * output is one process's exactly: the packets the failures destroyed (counted where they die,
 * summed over the ranks), the duration, everything (OrderArrivals; with ns-3's order they were
 * within 25 % and 10 %, the losses and their retransmissions being where same-time order can
 * differ most).
 */
class DistributedFailuresTestCase : public MpiExampleTestCase
{
  public:
    DistributedFailuresTestCase()
        : MpiExampleTestCase("k=4 all-to-all with failing links on one process and two ranks")
    {
    }

  private:
    void DoRun() override
    {
        const std::string args = "--k=4 --size=2000000 --collective=alltoall --failures="
                                 + std::string(NS_TEST_SOURCEDIR)
                                 + "/../examples/failure-schedule-fat-tree-k4.json";
        const std::string alone = RunExample("mrc-distributed-collective", 0, args);
        const std::string two = RunExample("mrc-distributed-collective", 2, args);
        for (const auto& [name, text] :
             {std::make_pair("one process", alone), std::make_pair("two ranks", two)})
        {
            const auto delivered = Numbers(text, "RESULT transfers delivered");
            const bool all = delivered.size() >= 2 && delivered[0] == 240 && delivered[1] == 240;
            NS_TEST_EXPECT_MSG_EQ(all, true, name << ": all 240 transfers:\n" << text);
            const auto events = Numbers(text, "RESULT failure events");
            const bool applied = events.size() >= 2 && events[0] == 6 && events[1] > 0;
            NS_TEST_EXPECT_MSG_EQ(applied, true, name << ": 6 events, packets lost:\n" << text);
        }
        NS_TEST_EXPECT_MSG_EQ(two, alone, "two ranks print what one process prints");
    }
};

/**
 * \ingroup mrc-test
 * mrc-distributed-collective --steps=3: a training job of three steps, each 5 us of
 * computation and then a ring all-reduce of 16 ranks, on one process, one MPI rank and two
 * ranks. One rank prints exactly one process's steps. On two ranks, each rank learns that a
 * step's ring ended everywhere one lookahead late (MrcRankBarrier), yet every step starts
 * exactly when the previous one ended (a rank starting the next step when it learns of the end
 * would start every step one lookahead, 1 us, late), every step has all its 480 transfers
 * (MrcDistributed::GatherJob), none fails, and the steps are one process's exactly
 * (OrderArrivals; with ns-3's order each step's end was within 5 %).
 */
class DistributedTrainingJobTestCase : public MpiExampleTestCase
{
  public:
    DistributedTrainingJobTestCase()
        : MpiExampleTestCase("k=4 training job of three ring steps on one process and MPI ranks")
    {
    }

  private:
    /// \param text RESULT lines \return per step: start, end, failed, transfers, slowest
    static std::vector<std::vector<double>> Steps(const std::string& text)
    {
        std::vector<std::vector<double>> steps;
        for (uint32_t i = 0;; ++i)
        {
            auto n = Numbers(text, "RESULT step " + std::to_string(i) + " ");
            if (n.empty())
            {
                return steps;
            }
            steps.push_back(n);
        }
    }

    void DoRun() override
    {
        const std::string args = "--k=4 --size=200000 --collective=ring --steps=3 --compute=5us";
        const std::string alone = RunExample("mrc-distributed-collective", 0, args);
        const auto one = Steps(alone);
        NS_TEST_ASSERT_MSG_EQ(one.size(), 3u, "three steps on one process:\n" << alone);
        NS_TEST_EXPECT_MSG_EQ(RunExample("mrc-distributed-collective", 1, args),
                              alone,
                              "one rank prints one process's steps");
        const std::string text = RunExample("mrc-distributed-collective", 2, args);
        const auto two = Steps(text);
        NS_TEST_ASSERT_MSG_EQ(two.size(), 3u, "three steps on two ranks:\n" << text);
        for (uint32_t i = 0; i < 3; ++i)
        {
            const bool shape = one[i].size() == 5 && two[i].size() == 5;
            NS_TEST_ASSERT_MSG_EQ(shape, true, "step " << i << " line:\n" << text);
            NS_TEST_EXPECT_MSG_EQ(two[i][2], 0, "step " << i << " did not fail on two ranks");
            NS_TEST_EXPECT_MSG_EQ(one[i][3], 480, "step " << i << ": 16 x 30 ring transfers");
            NS_TEST_EXPECT_MSG_EQ(two[i][3], 480, "step " << i << ": all of them on two ranks");
            const double previousEnd = i == 0 ? 0.0 : two[i - 1][1];
            NS_TEST_EXPECT_MSG_EQ(two[i][0],
                                  previousEnd,
                                  "step " << i << " starts when the previous one ended");
        }
        NS_TEST_EXPECT_MSG_EQ(text, alone, "two ranks print one process's steps");
    }
};

/**
 * \ingroup mrc-test
 * The flagship's scenario (MrcClusterScenario through mrc-ai-cluster --quick --fabrics=mrc,
 * six steps, the built-in failures) on one process, one MPI rank and two ranks, compared
 * through the results directories rank 0 writes.
 *
 * One rank writes exactly one process's steps, transfers, flows (the transfer monitor's stalls
 * replayed from the ranks' events), goodput, links, drops and failures. Two ranks: the same
 * failures, six steps none failed with all their transfers, every flow posting and delivering
 * the same bytes, the bytes sent on the watched links (each direction seen on one rank, summed
 * at rank 0) within 2 %, and each step's duration within 5 % of one process's before and after
 * the failures, 20 % during them. The steps under failures depend most on the order of
 * same-time events (which packets a link takes down with it, which EVs are retired): one
 * process's own step under the failures ranges over 773-808 us with --RngRun 1-3, and two
 * ranks gave 901, 734 and 791 us for the same runs (step 0: 389 against 389 us).
 *
 * Then a TCP permutation beside the job (RunTcp): each flow's ends run on their hosts' ranks.
 */
class DistributedScenarioTestCase : public MpiExampleTestCase
{
  public:
    DistributedScenarioTestCase()
        : MpiExampleTestCase("the flagship quick scenario on one process and MPI ranks")
    {
    }

  private:
    /// A CSV file: its header's columns and its rows.
    struct Csv
    {
        std::vector<std::string> columns;           //!< the header
        std::vector<std::vector<std::string>> rows; //!< the rows
        std::string text;                           //!< the whole file

        /// \param name a column \return its values, one per row (none if it is missing)
        std::vector<std::string> Column(const std::string& name) const
        {
            std::vector<std::string> values;
            const auto at = std::find(columns.begin(), columns.end(), name);
            if (at == columns.end())
            {
                return values;
            }
            const size_t k = at - columns.begin();
            for (const auto& row : rows)
            {
                values.push_back(k < row.size() ? row[k] : "");
            }
            return values;
        }
    };

    /// \param path a CSV file without quoted fields \return it
    static Csv Read(const std::string& path)
    {
        Csv csv;
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);)
        {
            csv.text += line + "\n";
            std::vector<std::string> fields;
            std::stringstream s(line);
            for (std::string f; std::getline(s, f, ',');)
            {
                fields.push_back(f);
            }
            if (csv.columns.empty())
            {
                csv.columns = fields;
            }
            else
            {
                csv.rows.push_back(fields);
            }
        }
        return csv;
    }

    /**
     * \param ranks 0: one process; otherwise MPI ranks
     * \param name the run's name in the temporary directory
     * \param args the run's arguments besides --quick, --fabrics=mrc and --out
     * \return the results directory of the MRC run
     */
    std::string Run(int ranks, const std::string& name, const std::string& args)
    {
        return RunPrinting(ranks, name, args).first;
    }

    /**
     * \param ranks 0: one process; otherwise MPI ranks
     * \param name the run's name in the temporary directory
     * \param args the run's arguments besides --quick, --fabrics=mrc and --out
     * \return the results directory of the MRC run and what the example printed
     */
    std::pair<std::string, std::string> RunPrinting(int ranks,
                                                    const std::string& name,
                                                    const std::string& args)
    {
        const std::string out = CreateTempDirFilename(name + "-" + std::to_string(ranks));
        const std::string text = RunExample("mrc-ai-cluster",
                                            ranks,
                                            "--quick --fabrics=mrc " + args + " --out=" + out,
                                            false);
        return {out + "/mrc/", text};
    }

    /**
     * A program (the pipeline-parallel sample workload: 2 steps of 604 comms on 4 lanes, with
     * streams running comms back to back): on one rank steps.csv and comms.csv are one
     * process's; on two ranks every comm runs, in the same order, with the same transfers
     * (1392 a step, gathered from the ranks' records), each step within 1 % of one
     * process's (observed 0.05 %), and the run reports the collective runs that started late
     * (a comm due the instant another ended is learnt a lookahead, 1 us, later), each by at most
     * that lookahead.
     */
    void RunProgram()
    {
        const std::string args = "--workload=" + std::string(NS_TEST_SOURCEDIR)
                                 + "/../examples/workload-pp-sample.txt --noFailures "
                                   "--ns3::MrcClusterScenario::Iterations=2";
        const auto [alone, aloneText] = RunPrinting(0, "program", args);
        const std::string one = Run(1, "program", args);
        const auto [two, twoText] = RunPrinting(2, "program", args);
        const Csv comms = Read(alone + "comms.csv");
        NS_TEST_ASSERT_MSG_GT(comms.rows.size(), 1000u, "a program's comms:\n" << comms.text);
        NS_TEST_EXPECT_MSG_EQ(aloneText.find("started late"),
                              std::string::npos,
                              "nothing late in one process:\n"
                                  << aloneText);
        NS_TEST_EXPECT_MSG_EQ(Read(one + "comms.csv").text, comms.text, "comms on one rank");
        const Csv steps = Read(alone + "steps.csv");
        NS_TEST_EXPECT_MSG_EQ(Read(one + "steps.csv").text, steps.text, "steps on one rank");
        const Csv commsTwo = Read(two + "comms.csv");
        const bool sameComms = commsTwo.Column("label") == comms.Column("label")
                               && commsTwo.Column("step") == comms.Column("step");
        NS_TEST_EXPECT_MSG_EQ(sameComms, true, "the same comms on two ranks");
        const auto ends = commsTwo.Column("end_us");
        const bool allEnded = std::all_of(ends.begin(), ends.end(), [](const std::string& e) {
            return !e.empty() && std::stod(e) > 0;
        });
        NS_TEST_EXPECT_MSG_EQ(allEnded, true, "every comm ended on two ranks");
        const Csv stepsTwo = Read(two + "steps.csv");
        const auto duration = steps.Column("duration_us");
        const auto durationTwo = stepsTwo.Column("duration_us");
        NS_TEST_ASSERT_MSG_EQ((duration.size() == 2 && durationTwo.size() == 2),
                              true,
                              "two steps in both runs");
        // Every comm's transfers, merged at rank 0 from the ranks' records of each run.
        NS_TEST_EXPECT_MSG_EQ((stepsTwo.Column("transfers") == steps.Column("transfers")),
                              true,
                              "the same transfers per step on two ranks:\n"
                                  << stepsTwo.text);
        for (size_t i = 0; i < 2; ++i)
        {
            const double d = std::stod(duration[i]);
            NS_TEST_EXPECT_MSG_EQ_TOL(std::stod(durationTwo[i]),
                                      d,
                                      0.01 * d,
                                      "program step " << i << " on two ranks");
        }
        const std::string mark = "started late";
        const size_t at = twoText.find(mark);
        NS_TEST_ASSERT_MSG_NE(at, std::string::npos, "the late starts reported:\n" << twoText);
        const std::string most = "at most ";
        const size_t longest = twoText.find(most, at);
        NS_TEST_ASSERT_MSG_NE(longest, std::string::npos, "the longest delay reported");
        const long longestNs = std::stol(twoText.substr(longest + most.size()));
        NS_TEST_EXPECT_MSG_GT(longestNs, 0, "a late start takes time");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(longestNs, 1000, "at most the lookahead (1000 ns)");
    }

    /**
     * A TCP permutation of 1 MB per host beside two healthy steps: on one rank tcp-flows.csv
     * and steps.csv are one process's; on two ranks every flow completes and each completion
     * time stays within 10 % of one process's (observed: 4.2 % at most).
     */
    void RunTcp()
    {
        const std::string args =
            "--tcp=1000000 --noFailures --ns3::MrcClusterScenario::Iterations=2";
        const std::string alone = Run(0, "scenario-tcp", args);
        const std::string one = Run(1, "scenario-tcp", args);
        const std::string two = Run(2, "scenario-tcp", args);
        const Csv tcp = Read(alone + "tcp-flows.csv");
        NS_TEST_ASSERT_MSG_EQ(tcp.rows.size(), 16u, "16 TCP flows:\n" << tcp.text);
        NS_TEST_EXPECT_MSG_EQ(Read(one + "tcp-flows.csv").text, tcp.text, "TCP on one rank");
        NS_TEST_EXPECT_MSG_EQ(Read(one + "steps.csv").text,
                              Read(alone + "steps.csv").text,
                              "steps beside TCP on one rank");
        const Csv tcpTwo = Read(two + "tcp-flows.csv");
        const auto received = tcpTwo.Column("received");
        const auto finish = tcp.Column("finish_us");
        const auto finishTwo = tcpTwo.Column("finish_us");
        NS_TEST_ASSERT_MSG_EQ((received.size() == 16 && finishTwo.size() == 16),
                              true,
                              "16 TCP flows on two ranks:\n"
                                  << tcpTwo.text);
        for (size_t i = 0; i < 16; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(received[i], "1000000", "TCP flow " << i << " complete");
            const double fct = std::stod(finish[i]);
            NS_TEST_EXPECT_MSG_EQ_TOL(std::stod(finishTwo[i]),
                                      fct,
                                      0.1 * fct,
                                      "TCP flow " << i << "'s completion on two ranks");
        }
    }

    void DoRun() override
    {
        // OrderArrivals: a node's events of one time step run in one order however the ranks
        // are cut, so two ranks write what one process writes (without it the flagship's
        // failures amplify the order of simultaneous events: steps within 5 %, link bytes
        // within 3 %).
        const std::string args =
            "--ns3::MrcClusterScenario::Iterations=6 --ns3::MrcFabricChannel::OrderArrivals=true";
        const std::string alone = Run(0, "scenario", args);
        const std::string one = Run(1, "scenario", args);
        const std::string two = Run(2, "scenario", args);
        const Csv steps = Read(alone + "steps.csv");
        NS_TEST_ASSERT_MSG_EQ(steps.rows.size(), 6u, "six steps in one process:\n" << steps.text);
        for (const std::string file : {"steps.csv",
                                       "comms.csv",
                                       "flows.csv",
                                       "goodput.csv",
                                       "links.csv",
                                       "link-summary.csv",
                                       "link-balance.csv",
                                       "drops.csv",
                                       "failures.csv"})
        {
            const Csv a = Read(alone + file);
            NS_TEST_EXPECT_MSG_EQ(a.rows.empty(), false, file << " written");
            NS_TEST_EXPECT_MSG_EQ(Read(one + file).text, a.text, file << " on one rank");
            NS_TEST_EXPECT_MSG_EQ(Read(two + file).text, a.text, file << " on two ranks");
        }
        // What the identical files must say (so two ranks say it too).
        const auto failedSteps = steps.Column("failed");
        NS_TEST_EXPECT_MSG_EQ(failedSteps.size(), 6u, "steps.csv has a failed column");
        for (const std::string& failed : failedSteps)
        {
            NS_TEST_EXPECT_MSG_EQ(failed, "0", "no step failed:\n" << steps.text);
        }
        const Csv flows = Read(alone + "flows.csv");
        NS_TEST_EXPECT_MSG_EQ((flows.Column("bytes_posted") == flows.Column("bytes_delivered")),
                              true,
                              "every flow delivers the bytes it posted");
        RunTcp();
        RunProgram();
    }
};

/**
 * \ingroup mrc-test
 * mrc-benchmark --mpi --htsim: the MRC permutation on two ranks, then rank 0 alone runs the
 * htsim binary (a stand-in here) once, and the ratios line gives the largest rank's memory
 * and the ranks' memory added up.
 */
class DistributedBenchmarkHtsimTestCase : public MpiExampleTestCase
{
  public:
    DistributedBenchmarkHtsimTestCase()
        : MpiExampleTestCase("mrc-benchmark --mpi --htsim: one htsim run, on rank 0")
    {
    }

  private:
    void DoRun() override
    {
        // A stand-in for htsim_uec: one finished flow, the packet counts, and long enough a
        // life for its memory to be sampled.
        const std::string standIn = CreateTempDirFilename("htsim-stand-in.sh");
        {
            std::ofstream script(standIn);
            script << "#!/bin/sh\n"
                      "echo 'Flow Uec_0_1 flowId 1 uecSrc 0 finished at 20.0 total bytes 1'\n"
                      "echo 'New: 5 Rtx: 0 RTS: 0'\n"
                      "sleep 0.3\n";
        }
        std::filesystem::permissions(standIn,
                                     std::filesystem::perms::owner_exec,
                                     std::filesystem::perm_options::add);
        const std::string text =
            RunExample("mrc-benchmark",
                       2,
                       "--k=4 --bytes=100000 --transport=mrc --htsim=" + standIn,
                       false);
        size_t mrcRows = 0;
        size_t htsimRows = 0;
        size_t ratioLines = 0;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
        {
            std::istringstream words(line);
            std::string k;
            std::string tp;
            std::string hosts;
            std::string done;
            words >> k >> tp >> hosts >> done;
            mrcRows += k == "4" && tp == "mrc" && done == "16/16";
            htsimRows += k == "4" && tp == "htsim" && done == "1/16";
            ratioLines += line.find("k=4: MRC / htsim wall") != std::string::npos
                          && line.find("all 2 ranks' added up") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(mrcRows, 1, "one MRC row, every flow done:\n" << text);
        NS_TEST_EXPECT_MSG_EQ(htsimRows, 1, "one htsim row (rank 0's run only):\n" << text);
        NS_TEST_EXPECT_MSG_EQ(ratioLines, 1, "one ratios line with both memories:\n" << text);
    }
};

/**
 * \ingroup mrc-test
 * Distributed runs (MPI builds only).
 */
class MrcMpiTestSuite : public TestSuite
{
  public:
    MrcMpiTestSuite()
        : TestSuite("mrc-mpi", Type::SYSTEM)
    {
        AddTestCase(new DistributedPermutationTestCase);
        AddTestCase(new DistributedCollectiveTestCase);
        AddTestCase(new DistributedFailuresTestCase);
        AddTestCase(new DistributedTrainingJobTestCase);
        AddTestCase(new DistributedScenarioTestCase);
        AddTestCase(new DistributedBenchmarkHtsimTestCase);
    }
};

/// The suite's single instance.
static MrcMpiTestSuite g_mrcMpiTestSuite;

} // namespace

#endif /* NS3_MPI */
