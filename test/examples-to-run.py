#! /usr/bin/env python3

# A list of C++ examples to run in order to ensure that they remain buildable and runnable over
# time. Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# ns-3's test.py reads this file in a source tree; the standalone build registers the same
# entries with CTest. Keep them small: they are tests, not benchmarks.
cpp_examples = [
    ("mrc-fat-tree-ecmp --k=4 --bytes=200000 --transport=both", "True", "False"),
    ("mrc-fat-tree-ecmp --topology=clos --planes=2 --t0=4 --hostsPerT0=4 --t1=2 --bytes=100000", "True", "False"),
    ("mrc-benchmark --k=4 --bytes=100000", "True", "False"),
    ("mrc-benchmark --k=4 --bytes=100000 --transport=stock", "True", "False"),
    ("mrc-benchmark --k=4 --bytes=100000 --transport=mrc,udp --repeat=2", "True", "False"),
    ("mrc-distributed-permutation --k=4 --bytes=100000", "True", "False"),
    ("mrc-distributed-collective --k=4 --size=400000 --verify", "True", "False"),
    ("mrc-distributed-collective --k=4 --size=200000 --steps=2 --compute=5us", "True", "False"),
    ("mrc-incast-trimming --senders=8 --packets=20", "True", "False"),
    ("mrc-srv6-paths", "True", "False"),
    ("mrc-transfer --bytes=500000 --loss=0.01", "True", "False"),
    ("mrc-transfer --bytes=500000 --dataPlane=ecmp", "True", "False"),
    ("mrc-transfer --bytes=500000 --loss=0.01 --flowmon", "True", "False"),
    ("mrc-transfer --bytes=500000 --transport=roce --qps=4 --dataPlane=ecmp --loss=0.005", "True", "False"),
    ("mrc-srv6-paths --topology=fattree --k=4 --planes=1 --usidsPerCarrier=3", "True", "False"),
    ("mrc-incast-trimming --senders=8 --packets=20 --trimming=false", "True", "False"),
    ("mrc-failure-injection --bytes=1000000", "True", "False"),
    ("mrc-failure-injection --transport=mrc --bytes=1000000", "True", "False"),
    ("mrc-bgp-reconvergence --k=4 --stop=150", "True", "False"),
    ("mrc-failover --stop=600 --failAt=100 --repairAt=400 --interval=100 --ns3::MrcBgpReconvergenceModel::CarrierDetectionDelay=20us", "True", "False"),
    ("mrc-failover --fabric=roce --qps=4 --kind=blackhole --stop=400 --failAt=100 --repairAt=300 --interval=100", "True", "False"),
    ("mrc-collective --collective=ring --hosts=4 --size=400000 --iterations=2 --verify", "True", "False"),
    ("mrc-collective --collective=ring --hosts=4 --size=400000 --iterations=1 --verify --ns3::MrcRingCollective::ChunkSize=65536 --ns3::MrcRingCollective::SliceSize=32768", "True", "False"),
    ("mrc-collective --collective=alltoall --hosts=6 --size=300000 --iterations=1 --dataPlane=ecmp --ns3::MrcAllToAll::Concurrency=2", "True", "False"),
    ("mrc-collective --collective=incast --hosts=5 --size=100000 --victim=200000 --transport=roce --qps=2 --dataPlane=ecmp --iterations=1", "True", "False"),
    ("mrc-collective --collective=incast --hosts=8 --size=500000 --victim=500000 --t0s=4 --planes=1 --rate=400Gbps --transport=roce-pfc --dataPlane=ecmp --iterations=1 --verify", "True", "False"),
    ("mrc-collective --collective=incast --hosts=4 --size=200000 --victim=200000 --t0s=2 --hostsPerT0=8 --planes=1 --rate=400Gbps --transport=roce-pfc --dataPlane=ecmp --iterations=1 --verify", "True", "False"),
    ("mrc-bgp-reconvergence --k=4 --kind=blackhole --ns3::MrcBgpReconvergenceModel::BfdEnabled=true --ns3::MrcBgpReconvergenceModel::BfdInterval=50ms --repairAt=400 --stop=700 --interval=5000", "True", "False"),
    ("mrc-ai-cluster --quick --fabrics=mrc,roce --ns3::MrcClusterScenario::Iterations=4 --out=none", "True", "False"),
    ("mrc-ai-cluster --quick --fabrics=mrc --tcp=500000 --noFailures --ns3::MrcClusterScenario::Iterations=2 --out=none", "True", "False"),
    # Loss and path-health harness (mrc-loss-collective, mrc-path-health): quick versions.
    ("mrc-loss-collective --hosts=4 --hostsPerT0=2 --size=400000 --loss=0.01 --iterations=2", "True", "False"),
    ("mrc-loss-collective --collective=alltoall --fabric=roce --qps=4 --hosts=6 --size=600000 --loss=0.001", "True", "False"),
    ("mrc-loss-collective --hosts=8 --size=800000 --fabric=roce-pfc --links", "True", "False"),
    ("mrc-path-health --experiment=gray --planes=4 --stop=200", "True", "False"),
    ("mrc-path-health --experiment=links --t0=2 --hostsPerT0=2 --t1=2 --count=2 --step=100 --perFlow", "True", "False"),
    ("mrc-path-health --experiment=flap --t0=2 --hostsPerT0=2 --t1=2 --stop=400 --period=50 --traceFlow=0 --traceQueues=100000", "True", "False"),
    ("mrc-path-health --experiment=steer --stop=200", "True", "False"),
    # A user-written path selection (the doc's "Writing your own policy"), and MRC's.
    ("mrc-custom-policy", "True", "False"),
    ("mrc-custom-policy --policy=ns3::MrcSprayPathSelection", "True", "False"),
]

# A list of Python examples to run in order to ensure that they remain runnable over time.
python_examples = []
