/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-csv-field.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-scenario-result.h"

#include <boost/property_tree/json_parser.hpp>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

TEST(MrcResultsWriter, JsonKeepsNumbersAndBooleansUnquotedAndStringsEscaped)
{
    boost::property_tree::ptree t;
    t.put("name", "RoCEv2 \"x4\"");
    t.put("count", 12);
    t.put("time_us", "-1");
    t.put("ratio", "0.500");
    t.put("done", "true");
    t.put("label", "007"); // not a JSON number (leading zero): stays a string
    t.put("nan", "nan");
    boost::property_tree::ptree list;
    for (int i : {1, 2})
    {
        boost::property_tree::ptree v;
        v.put("", i);
        list.push_back({"", v});
    }
    t.add_child("list", list);
    std::ostringstream os;
    MrcResultsWriter::WriteJson(t, os);
    EXPECT_EQ(os.str(),
              "{\n"
              "  \"name\": \"RoCEv2 \\\"x4\\\"\",\n"
              "  \"count\": 12,\n"
              "  \"time_us\": -1,\n"
              "  \"ratio\": 0.500,\n"
              "  \"done\": true,\n"
              "  \"label\": \"007\",\n"
              "  \"nan\": \"nan\",\n"
              "  \"list\": [\n"
              "    1,\n"
              "    2\n"
              "  ]\n"
              "}");
    // And it is JSON: property_tree's own parser reads it back.
    std::istringstream in(os.str());
    boost::property_tree::ptree back;
    EXPECT_NO_THROW(boost::property_tree::read_json(in, back));
    EXPECT_EQ(back.get<std::string>("name"), "RoCEv2 \"x4\"");
    EXPECT_EQ(back.get<int>("count"), 12);
}

TEST(MrcScenarioResult, StepsAreClassifiedAgainstTheFailureWindow)
{
    MrcScenarioResult r;
    // No failure: everything is "before".
    EXPECT_EQ(r.Classify(MicroSeconds(5), MicroSeconds(9)), MrcScenarioPhase::BEFORE);
    r.failureStart = MicroSeconds(100);
    r.failureEnd = MicroSeconds(200);
    EXPECT_EQ(r.Classify(MicroSeconds(0), MicroSeconds(100)), MrcScenarioPhase::BEFORE);
    EXPECT_EQ(r.Classify(MicroSeconds(0), MicroSeconds(101)), MrcScenarioPhase::DURING);
    EXPECT_EQ(r.Classify(MicroSeconds(150), MicroSeconds(160)), MrcScenarioPhase::DURING);
    EXPECT_EQ(r.Classify(MicroSeconds(199), MicroSeconds(300)), MrcScenarioPhase::DURING);
    EXPECT_EQ(r.Classify(MicroSeconds(200), MicroSeconds(300)), MrcScenarioPhase::AFTER);
    EXPECT_EQ(r.Classify(MicroSeconds(50), MicroSeconds(300)), MrcScenarioPhase::DURING);

    for (int64_t d : {10, 30, 20})
    {
        MrcScenarioResult::Step s;
        s.start = MicroSeconds(300);
        s.end = s.start + MicroSeconds(d);
        s.phase = MrcScenarioPhase::AFTER;
        r.steps.push_back(s);
    }
    r.steps[0].phase = MrcScenarioPhase::BEFORE;
    EXPECT_EQ(r.GetStepStats(MrcScenarioPhase::AFTER).GetCount(), 2u);
    EXPECT_EQ(r.GetStepStats(MrcScenarioPhase::AFTER).GetMax(), MicroSeconds(30));
    EXPECT_EQ(r.GetStepStats(MrcScenarioPhase::DURING).GetCount(), 0u);
    EXPECT_EQ(r.GetStepStats().GetMedian(), MicroSeconds(20));
    EXPECT_EQ(MrcScenarioResult::GetPhaseName(MrcScenarioPhase::DURING), "during");
}

TEST(MrcResultsWriter, StepsCsvHasTheDocumentedColumns)
{
    MrcScenarioResult r;
    MrcScenarioResult::Step s;
    s.index = 3;
    s.start = MicroSeconds(100);
    s.end = MicroSeconds(250);
    s.ideal = MicroSeconds(100);
    s.phase = MrcScenarioPhase::DURING;
    s.transfers = 4;
    s.transferMax = MicroSeconds(90);
    r.steps.push_back(s);
    std::ostringstream os;
    MrcResultsWriter::WriteStepsCsv(r, os);
    EXPECT_EQ(
        os.str(),
        "step,phase,start_us,end_us,duration_us,ideal_us,slowdown,failed,transfers,"
        "transfer_min_us,transfer_p50_us,transfer_p99_us,transfer_max_us,job\n"
        "3,during,100.000,250.000,150.000,100.000,1.5000,0,4,0.000,0.000,0.000,90.000,main\n");
}

// Issue 20, item 7: an unwritable results directory was found only after the whole run.
TEST(MrcResultsWriter, CheckDirectoryCreatesAndProbesBeforeARun)
{
    namespace fs = std::filesystem;
    const fs::path base = fs::path(testing::TempDir()) / "mrc-results-probe";
    fs::remove_all(base);
    // Created if missing, writable, and the probe file is gone again.
    const fs::path fresh = base / "a" / "b";
    EXPECT_NO_THROW(MrcResultsWriter::CheckDirectory(fresh.string(), "--out"));
    EXPECT_TRUE(fs::is_directory(fresh));
    EXPECT_TRUE(fs::is_empty(fresh));
    // A path under a regular file cannot be a directory: the message names the option.
    const fs::path file = base / "file";
    std::ofstream(file) << "x";
    try
    {
        MrcResultsWriter::CheckDirectory((file / "out").string(), "--out");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("--out (=\"" + (file / "out").string()
                                                  + "\") cannot hold the results: cannot create "
                                                    "the directory",
                                              0),
                  0u)
            << e.what();
    }
    EXPECT_THROW(MrcResultsWriter::CheckDirectory(file.string(), "OutputDirectory"),
                 std::invalid_argument);
    fs::remove_all(base);
}

TEST(MrcCsvField, QuotesOnlyWhatNeedsIt)
{
    EXPECT_EQ(MrcCsvField("p0-t1-3"), "p0-t1-3");
    EXPECT_EQ(MrcCsvField(""), "");
    EXPECT_EQ(MrcCsvField("a,b"), "\"a,b\"");
    EXPECT_EQ(MrcCsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(MrcCsvField("two\nlines"), "\"two\nlines\"");
}
