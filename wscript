# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build description for waf-era ns-3 (<= 3.35). Lists the same files as CMakeLists.txt
# (utils/check-file-lists.py, run by CTest, keeps the two in step).


def build(bld):
    module = bld.create_ns3_module(
        'mrc', ['internet', 'point-to-point', 'traffic-control', 'applications'])
    module.source = [
        'model/ecmp-flow-key.cc',
        'model/ecmp-route-table.cc',
        'model/ipv6-fabric-routing.cc',
        'model/ipv6-ecmp-routing.cc',
        'model/segment-routing-header.cc',
        'model/usid-carrier.cc',
        'model/ipv6-srv6-routing.cc',
        'model/ipv6-srv6-host-routing.cc',
        'model/ipv6-host-list-routing.cc',
        'model/red-ecn-marker.cc',
        'model/packet-trimmer.cc',
        'model/trimming-data-queue.cc',
        'model/trimming-queue-disc.cc',
        'model/mrc-path-set.cc',
        'model/mrc-congestion-ops.cc',
        'model/mrc-nscc.cc',
        'helper/clos-spec.cc',
        'helper/fabric-address-plan.cc',
        'helper/fabric-topology.cc',
        'helper/clos-topology-helper.cc',
        'helper/fabric-shortest-paths.cc',
        'helper/ecmp-routing-helper.cc',
        'helper/usid-plan.cc',
        'helper/srv6-routing-helper.cc',
        'helper/data-plane-helper.cc',
        'helper/completion-stats.cc',
        'helper/permutation-helper.cc',
        'helper/value-parser.cc',
    ]

    module_test = bld.create_ns3_module_test_library('mrc')
    module_test.source = [
        'test/mrc-topology-test-suite.cc',
        'test/mrc-ecmp-test-suite.cc',
        'test/mrc-trimming-test-suite.cc',
        'test/mrc-srv6-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'mrc'
    headers.source = [
        'model/ecmp-flow-key.h',
        'model/ecmp-route-table.h',
        'model/ipv6-route-input-compat.h',
        'model/ipv6-fabric-routing.h',
        'model/ipv6-ecmp-routing.h',
        'model/segment-routing-header.h',
        'model/usid-carrier.h',
        'model/ipv6-srv6-routing.h',
        'model/ipv6-srv6-host-routing.h',
        'model/ipv6-host-list-routing.h',
        'model/mrc-dscp.h',
        'model/red-ecn-marker.h',
        'model/packet-trimmer.h',
        'model/trimming-data-queue.h',
        'model/trimming-queue-disc.h',
        'model/mrc-path-set.h',
        'model/mrc-congestion-ops.h',
        'model/mrc-nscc.h',
        'helper/clos-spec.h',
        'helper/fabric-address-plan.h',
        'helper/fabric-link.h',
        'helper/fabric-topology.h',
        'helper/clos-topology-helper.h',
        'helper/fabric-shortest-paths.h',
        'helper/ecmp-routing-helper.h',
        'helper/usid-plan.h',
        'helper/srv6-routing-helper.h',
        'helper/data-plane-helper.h',
        'helper/completion-stats.h',
        'helper/permutation-helper.h',
        'helper/value-parser.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
