# SPDX-License-Identifier: GPL-2.0-only
"""Python bindings (bindings/python): build a small scenario, run it, check the results."""

import os
import tempfile
import unittest

import mrc

# 16 hosts on 2 planes (4 T0 x 4 hosts, 4 T1), 1 MB ring all-reduce + 128 kB all-to-all in
# groups of 4, as the mrc-cluster C++ suite.
SMALL = dict(Planes=2, T0Count=4, HostsPerT0=4, T1Count=4, AllReduceSize=1000000,
             AllToAllSize=128000, AllToAllGroup=4, ComputeTime="20us", ShowProgress=False)

LINK_DOWN = {"at": "400us", "kind": "link-down", "link": "p0-t0-0 p0-t1-0",
             "duration": "800us"}


def run(fabric, iterations, failures=None, **extra):
    s = mrc.ClusterScenario(Fabric=fabric, Iterations=iterations, **SMALL, **extra)
    if failures:
        s.add_failure(failures)
    return s.run()


class HealthyRun(unittest.TestCase):
    def test_every_byte_once_and_steps_near_ideal(self):
        r = run("mrc-srv6", 2, VerifyData=True)
        self.assertTrue(r["job_done"])
        self.assertEqual(r["steps_completed"], 2)
        self.assertEqual(r["corrupt_transfers"], 0)
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        # 2 steps x 16 ranks x (30 ring chunks of 62.5 kB + 3 all-to-all chunks of 32 kB)
        self.assertEqual(r["bytes_posted"], 2 * 16 * (30 * 62500 + 3 * 32000))
        self.assertEqual(r["retransmissions"], 0)
        self.assertEqual(len(r["steps"]), 2)
        for step in r["steps"]:
            self.assertEqual(step["phase"], "before")
            self.assertGreater(step["duration_us"], step["ideal_us"])
            self.assertLess(step["duration_us"], 1.9 * step["ideal_us"])
        if "step_durations_us" in r:  # numpy present
            self.assertEqual(list(r["step_durations_us"]), [s["duration_us"] for s in r["steps"]])


class ImportedWorkload(unittest.TestCase):
    SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                          "workload-moe-sample.txt")

    def test_sample_workload_comms_per_pass_and_group(self):
        s = mrc.ClusterScenario(WorkloadFile=self.SAMPLE, GpusPerServer=2, Iterations=1,
                                VerifyData=True, **SMALL)
        r = s.run()
        self.assertTrue(r["job_done"])
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        self.assertEqual(len(r["comms"]), 140)  # as mrc-imported-workload counts them
        kinds = {}
        for c in r["comms"]:
            kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
            self.assertGreaterEqual(c["end_us"], c["start_us"])
        self.assertEqual(kinds, {"analytic": 96, "all-to-all": 32, "all-gather": 6,
                                 "reduce-scatter": 6})
        rs = [c for c in r["comms"] if c["label"] == "L1:grad_param_comm/wg dp0"]
        self.assertEqual((rs[0]["ranks"], rs[0]["bytes"]), (8, 4194304))
        if "frames" in r:  # pandas present
            df = r["frames"]["comms"]
            self.assertEqual(len(df), 140)
            self.assertEqual(int((df["kind"] == "all-to-all").sum()), 32)
            self.assertEqual(len(r["frames"]["steps"]), 1)

    def test_malformed_workload_is_a_value_error_naming_the_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus: 16\n1\n"
                    "x -1 1 ALLGATHER 12 1 NONE 0 1 NONE 0\n")
        try:
            with self.assertRaisesRegex(ValueError, r":3: layer .*must have 12 fields"):
                mrc.ClusterScenario(WorkloadFile=f.name, **SMALL).run()
        finally:
            os.unlink(f.name)


class LosslessRoce(unittest.TestCase):
    def test_roce_pfc_on_one_plane_is_lossless_and_reports_pfc(self):
        mrc.set_default("ns3::MrcPfcPort::XoffThreshold", 16384)
        mrc.set_default("ns3::MrcPfcPort::XonThreshold", 8192)
        try:
            r = run("roce-pfc", 1, SinglePlane=True, VerifyData=True)
        finally:
            mrc.set_default("ns3::MrcPfcPort::XoffThreshold", 65536)
            mrc.set_default("ns3::MrcPfcPort::XonThreshold", 49152)
        self.assertEqual(r["key"], "roce-pfc-1p")
        self.assertTrue(r["job_done"])
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        self.assertEqual(r["corrupt_transfers"], 0)
        self.assertEqual(r["queue_drops"], 0)
        # One plane of 16 host links and 16 T0-T1 links, PFC at both ends.
        self.assertEqual(r["pfc"]["ports"], 64)
        self.assertGreater(r["pfc"]["pauses_sent"], 0)
        self.assertEqual(r["pfc"]["headroom_overflows"], 0)
        self.assertNotIn("pfc", run("roce-ecmp", 1))


class LinkDelay(unittest.TestCase):
    def test_longer_links_lengthen_the_ideal_and_the_steps(self):
        near = run("mrc-srv6", 1)["steps"][0]
        far = run("mrc-srv6", 1, LinkDelay="5us")["steps"][0]
        # The ring's 30 dependent transfers each cross 4 links: 4 us more per link adds about
        # 30 x 4 x 4 = 480 us to the ideal, and the acknowledgements add as much again.
        self.assertGreater(far["ideal_us"] - near["ideal_us"], 400)
        self.assertGreater(far["duration_us"] - near["duration_us"], 400)
        with self.assertRaisesRegex(ValueError, "LinkDelay must be >= 0"):
            mrc.ClusterScenario(LinkDelay="-1us").run()


class FatTree(unittest.TestCase):
    def test_three_tier_fat_tree_delivers_every_byte(self):
        s = mrc.ClusterScenario(FatTreeK=4, Planes=1, AllReduceSize=160000, AllToAllSize=64000,
                                AllToAllGroup=4, ComputeTime="10us", Iterations=1,
                                VerifyData=True, ShowProgress=False)
        self.assertIn("3-tier", s.describe())
        r = s.run()
        self.assertTrue(r["job_done"])
        self.assertEqual(r["corrupt_transfers"], 0)
        # 16 hosts: ring 2 x 15 chunks of 10 kB, all-to-all 3 x 16 kB, per rank
        self.assertEqual(r["bytes_posted"], 16 * (30 * 10000 + 3 * 16000))
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        with self.assertRaisesRegex(ValueError, r"FatTreeK \(=6\)|FatTreeK \(=5\)"):
            mrc.ClusterScenario(FatTreeK=5).run()


class CustomJob(unittest.TestCase):
    def test_incast_with_a_victim_as_the_job(self):
        s = mrc.ClusterScenario(**SMALL, Iterations=1, VerifyData=True)
        # 4 senders under different T0s into host 0, and a victim pair 5 -> 9.
        s.add_collective("ns3::MrcIncast", hosts=[0, 4, 8, 12, 1, 5, 9], MessageSize=200000,
                         VictimSize=400000)
        r = s.run()
        self.assertTrue(r["job_done"])
        self.assertEqual(r["corrupt_transfers"], 0)
        # ranks 1..4 send S to rank 0 (the last two ranks are the victim pair)
        self.assertEqual(r["bytes_posted"], 4 * 200000 + 400000)
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        self.assertEqual(r["steps"][0]["transfers"], 5)  # 4 into rank 0, and the victim

    def test_bad_collective_is_a_value_error(self):
        s = mrc.ClusterScenario(**SMALL)
        with self.assertRaisesRegex(ValueError, "ns3::MrcNope is not an MrcCollective"):
            s.add_collective("ns3::MrcNope")
        with self.assertRaisesRegex(ValueError, "has no attribute Size"):
            s.add_collective("ns3::MrcIncast", Size=5)


class FailureRun(unittest.TestCase):
    def test_mrc_step_shorter_than_ecmp_bgp_under_a_link_failure(self):
        m = run("mrc-srv6", 4, LINK_DOWN)
        # RoCEv2's lost windows wait for the Local ACK Timeout (1.07 s): room for it.
        e = run("roce-ecmp", 4, LINK_DOWN, StopTime="5s")
        for r in (m, e):
            self.assertTrue(r["job_done"], r["fabric"])
            self.assertEqual(r["failed_flows"], 0, r["fabric"])
            self.assertEqual(r["bytes_delivered"], r["bytes_posted"], r["fabric"])
            self.assertEqual(r["failure_start_us"], 400.0)
            self.assertEqual(r["failure_end_us"], 1200.0)
        self.assertLess(m["step_time"]["during"]["p100_us"], e["step_time"]["during"]["p100_us"])
        self.assertLess(m["longest_stall_us"], 200)
        self.assertGreater(e["longest_stall_us"], 1100)


TRIMMING_QUEUES = ("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/"
                   "$ns3::MrcTrimmingQueueDisc/")


class Workloads(unittest.TestCase):
    def test_tcp_permutation_next_to_the_mrc_job(self):
        s = mrc.ClusterScenario(**SMALL, Iterations=2, VerifyData=True)
        s.add_tcp_permutation(2000000, start="50us")
        r = s.run()
        self.assertTrue(r["job_done"])
        self.assertEqual(r["corrupt_transfers"], 0)
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])
        self.assertEqual(r["tcp"]["flows"], 16)
        self.assertEqual(r["tcp"]["completed"], 16)
        self.assertEqual(r["tcp"]["bytes_received"], 16 * 2000000)
        self.assertEqual(sorted(f["dst"] for f in r["tcp_flows"]), list(range(16)))
        for f in r["tcp_flows"]:
            self.assertNotEqual(f["src"], f["dst"])
            self.assertEqual(f["start_us"], 50.0)
            self.assertGreater(f["fct_us"], 160)  # 2 MB at 100 Gb/s
            self.assertLessEqual(f["start_us"] + f["fct_us"], r["end_us"])

    def tcp_incast(self, trimmable=None):
        s = mrc.ClusterScenario(**dict(SMALL, AllReduceSize=0, AllToAllSize=0))
        for h in range(1, 9):
            s.add_tcp_flow(h, 0, 1000000, plane=0)
        if trimmable:
            s.set_config(TRIMMING_QUEUES + "TrimmableDscps", trimmable)
        r = s.run()
        self.assertEqual(r["steps_completed"], 0)
        self.assertEqual(r["tcp"]["completed"], 8)
        self.assertEqual(r["tcp"]["bytes_received"], 8000000)
        return r

    def test_set_config_reaches_the_switches(self):
        # TCP (DSCP 0) is dropped by trimming switches unless every DSCP is made trimmable.
        default = self.tcp_incast()
        self.assertEqual(default["trims"], 0)
        self.assertGreater(default["queue_drops"], 0)
        everything = self.tcp_incast("*")
        self.assertGreater(everything["trims"], 0)
        self.assertEqual(everything["queue_drops"], 0)

    def test_bad_config_path_and_tcp_flow_are_value_errors(self):
        s = mrc.ClusterScenario(**SMALL, Iterations=1)
        s.set_config("/NodeList/*/DeviceList/*/DataRate", "50Gbps")
        with self.assertRaisesRegex(ValueError, "LoopbackNetDevice.*no attribute DataRate"):
            s.run()
        s = mrc.ClusterScenario(**SMALL, Iterations=1)
        s.set_config("/NodeList/999/DeviceList/*/Mtu", 1500)
        with self.assertRaisesRegex(ValueError, "matches no object"):
            s.run()
        with self.assertRaisesRegex(ValueError, r'start \(="soon"\) must be'):
            s.add_tcp_flow(0, 1, 1000, start="soon")
        with self.assertRaisesRegex(ValueError, r"src and dst \(=2\) must differ"):
            s.add_tcp_flow(2, 2, 1000)
        # The runs that raised left no simulation behind.
        r = run("mrc-srv6", 1, VerifyData=True)
        self.assertTrue(r["job_done"])
        self.assertEqual(r["bytes_delivered"], r["bytes_posted"])


class Repeatability(unittest.TestCase):
    def test_two_runs_in_one_interpreter_are_identical(self):
        a = run("roce-ecmp", 2, LINK_DOWN, QpsPerPeer=2)
        b = run("roce-ecmp", 2, LINK_DOWN, QpsPerPeer=2)
        a.pop("step_durations_us", None)
        b.pop("step_durations_us", None)
        fa, fb = a.pop("frames", None), b.pop("frames", None)
        self.assertEqual(a, b)
        if fa is not None:  # pandas present: the DataFrames are the same rows
            for table in ("steps", "comms", "tcp_flows"):
                self.assertTrue(fa[table].equals(fb[table]), table)

    def test_results_directory(self):
        with tempfile.TemporaryDirectory() as d:
            run("mrc-srv6", 1, OutputDirectory=d)
            for f in ("steps.csv", "flows.csv", "links.csv", "drops.csv", "summary.json"):
                self.assertTrue(os.path.getsize(os.path.join(d, f)) > 0, f)


class Errors(unittest.TestCase):
    def test_bad_attribute_value_is_a_value_error_naming_it(self):
        with self.assertRaisesRegex(ValueError, r"Fabric \(=infiniband\)"):
            mrc.ClusterScenario(Fabric="infiniband")
        with self.assertRaisesRegex(ValueError, "no attribute Planez"):
            mrc.ClusterScenario(Planez=2)
        with self.assertRaisesRegex(ValueError, r"AllToAllGroup \(=7\)"):
            mrc.ClusterScenario(AllToAllGroup=7).run()

    def test_malformed_times_and_sizes_are_value_errors_not_aborts(self):
        # ns-3 reads a malformed Time or QueueSize by aborting the process.
        with self.assertRaisesRegex(ValueError, r'ComputeTime \(="soon"\) must be a time'):
            mrc.ClusterScenario(ComputeTime="soon")
        with self.assertRaisesRegex(ValueError, r'LossTimeout \(="1 fortnight"\)'):
            mrc.set_default("ns3::MrcQueuePair::LossTimeout", "1 fortnight")
        with self.assertRaisesRegex(ValueError, r'StartTime \(="later"\)'):
            mrc.ClusterScenario(**SMALL).add_collective("ns3::MrcIncast", StartTime="later")
        s = mrc.ClusterScenario(**SMALL, Iterations=1)
        s.set_config(TRIMMING_QUEUES + "DataMaxSize", "lots")
        with self.assertRaisesRegex(ValueError, r'DataMaxSize \(="lots"\) must be a queue size'):
            s.run()

    def test_bad_failure_names_the_field(self):
        s = mrc.ClusterScenario(**SMALL)
        with self.assertRaisesRegex(ValueError, "kind"):
            s.add_failure({"at": "1us", "kind": "meteor", "link": "p0-t0-0 p0-t1-0"})

    def test_unknown_default_is_a_value_error(self):
        with self.assertRaises(ValueError):
            mrc.set_default("ns3::MrcQueuePair::NoSuchThing", 1)
        self.addCleanup(mrc.reset_defaults)  # not to change the other tests' runs
        mrc.set_default("ns3::MrcQueuePair::LossTimeoutRtts", 8)

    def test_run_twice_is_an_error(self):
        s = mrc.ClusterScenario(**SMALL, Iterations=1)
        s.run()
        with self.assertRaises(RuntimeError):
            s.run()


if __name__ == "__main__":
    unittest.main()
