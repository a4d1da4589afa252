#!/usr/bin/env bash
# One entry point for users and CI on Debian 12 (the README's two commands call it).
#
#   utils/mrc.sh main        install what is missing, build the library and mrc-ai-cluster, run the main job
#   utils/mrc.sh test        install what is missing, build, run every test (CTest)
#   utils/mrc.sh build       install what is missing and build only
#   utils/mrc.sh benchmark   build an optimised copy (no asserts) and run the benchmark
#   utils/mrc.sh benchmark-static
#                            the benchmark as one static, link-time-optimised program, built in
#                            a copy of Debian's ns-3.37 source (utils/check-in-tree.sh
#                            --static-benchmark; about 10 min the first time), the fastest
#                            build on one core and the one behind doc/mrc-validation.rst's k=16
#                            figures
#   utils/mrc.sh benchmark-pgo
#                            the same program built profile-guided (check-in-tree.sh
#                            --static-benchmark --pgo: trained on the k = 8 permutation; about
#                            25 min on 2 cores, again after each change of the module), in its
#                            own copy of the source; faster still, results identical
#   utils/mrc.sh validate    build the optimised copy, run every experiment behind the tables of
#                            doc/mrc-validation.rst into build/validation/<experiment>/ and
#                            regenerate doc/validation/*.rst from them (10-25 min on 2 cores);
#                            --quick: reduced sizes, results in build/validation-quick/ and
#                            tables in build/validation-quick/doc/ (doc/ untouched, about 2 min)
#   utils/mrc.sh deps        install the Debian packages only
#
# Idempotent: packages already present are not reinstalled, the build is incremental.
# Environment: MRC_BUILD_DIR (default: build/ in the repository), MRC_JOBS (default: nproc),
# MRC_CMAKE_OPTIONS (extra cmake -D options; a change reconfigures the build), GLIBC_TUNABLES
# (default: glibc.malloc.hugetlb=1, glibc's allocator on transparent huge pages, with which
# large simulations mostly ran faster and give the same results; set it, even empty, to
# choose otherwise).
set -euo pipefail

export GLIBC_TUNABLES=${GLIBC_TUNABLES-glibc.malloc.hugetlb=1}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MRC_BUILD_DIR:-$here/build}
jobs=${MRC_JOBS:-$(nproc)}

# Debian packages the standalone build and its tests need (tshark: the Wireshark dissector
# test). ns3 and the -dev packages after libns3-dev work
# around Debian's ns-3 CMake export (see doc/mrc.rst, "Building").
packages=(g++ cmake make libns3-dev ns3 libgsl-dev libxml2-dev libsqlite3-dev libpython3-dev
          libboost-dev libgtest-dev python3 pybind11-dev python3-docutils
          tshark)

deps() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "mrc: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# Configure when there is no build yet or when the options differ from the last configure's
# (a stamp in the build directory); cmake's output is shown only when it fails.
configure() {
    local dir=$1
    shift
    # shellcheck disable=SC2206 # MRC_CMAKE_OPTIONS is a list of words on purpose
    local options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3
                   ${MRC_CMAKE_OPTIONS:-} "$@")
    local stamp="$dir/mrc-configure-options"
    if [ ! -f "$dir/CMakeCache.txt" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${options[*]}" ]; then
        mkdir -p "$dir"
        if ! cmake -S "$here" -B "$dir" "${options[@]}" >"$dir/mrc-configure.log" 2>&1; then
            cat "$dir/mrc-configure.log" >&2
            echo "mrc: cmake configure failed (log: $dir/mrc-configure.log)" >&2
            exit 1
        fi
        echo "${options[*]}" >"$stamp"
    fi
}

# compile DIR [target...]: build the targets in the configured build directory DIR (all when
# none is given).
compile() {
    local dir=$1
    shift
    local targets=()
    for t in "$@"; do targets+=(--target "$t"); done
    cmake --build "$dir" -j "$jobs" "${targets[@]}"
}

# build [target...]: install what is missing, configure if needed, build the targets (all
# when none is given).
build() {
    deps
    configure "$build"
    compile "$build" "$@"
}

# release target...: the optimised copy in $build-release (Release, no asserts, no logging, no
# tests) that benchmark and validate run; install what is missing, configure, build the targets.
release() {
    deps
    configure "$build-release" -DCMAKE_BUILD_TYPE=Release -DMRC_ASSERTS=OFF -DMRC_LOGGING=OFF \
        -DMRC_ENABLE_TESTS=OFF
    compile "$build-release" "$@"
}

# validate [--quick]: run every experiment behind the tables of doc/mrc-validation.rst, each in
# its own directory $out/<experiment>/ (command, stdout.txt, stderr.txt, status, wall_s, and
# whatever the program writes there), $jobs at a time, then render the tables
# (utils/mrc-validation-tables.py) into doc/validation/ (--quick: reduced sizes, results in
# $build/validation-quick/, tables in $build/validation-quick/doc/).
# shellcheck disable=SC2046 # q's output is split into words on purpose (none, one or several)
validate() {
    local quick=0
    case "${1:-}" in
        "") ;;
        --quick) quick=1 ;;
        *)
            echo "mrc: validate takes --quick or nothing (got '$1')" >&2
            exit 2
            ;;
    esac
    release mrc-ai-cluster mrc-collective mrc-failover mrc-incast-trimming mrc-loss-collective \
        mrc-path-health mrc-transfer
    local bin="$build-release/bin" out="$build/validation" tables="$here/doc/validation"
    if [ "$quick" -eq 1 ]; then
        out="$build/validation-quick"
        tables="$out/doc"
    fi
    rm -rf "$out"
    mkdir -p "$out"
    {
        echo "commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "modified $(git -C "$here" status --porcelain --untracked-files=no -- . ':!doc' \
            ':!*.md' 2>/dev/null | wc -l)"
        echo "quick $quick"
        echo "started $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } >"$out/run-info.txt"
    local t0=$SECONDS

    # x NAME PROGRAM ARG...: run build-release/bin/PROGRAM in $out/NAME, in the background once
    # fewer than $jobs runs are going.
    x() {
        local name=$1 program=$2
        shift 2
        local dir="$out/$name"
        mkdir -p "$dir"
        echo "$program $*" >"$dir/command"
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        (
            cd "$dir"
            local start=$SECONDS status=0
            "$bin/$program" "$@" >stdout.txt 2>stderr.txt || status=$?
            echo "$status" >status
            echo $((SECONDS - start)) >wall_s
            echo "mrc: validate: $name: exit $status, $((SECONDS - start)) s" >&2
        ) &
    }
    # q FULL QUICK: the full run's value, or the quick run's.
    q() { if [ "$quick" -eq 1 ]; then echo "$2"; else echo "$1"; fi; }

    # Longest first. The ring at the scale of the paper's Fig. 16 (64 ranks; issue-15 table and
    # published behaviour): 64 MiB per rank, loss 1, 0.1 and 0 % (quick: 2 MiB).
    local size64 loss
    size64=$(q 67108864 2097152)
    for loss in 0.01 0.001 0; do
        x "loss-sweep-64/ring-$size64-$loss" mrc-loss-collective --collective=ring --fabric=mrc \
            --qps=1 --hosts=64 --size="$size64" --loss=$loss --verify=false
    done
    # The same ring pipelined as NCCL runs it (SliceSize): four slices per chunk, loss 1 and 0 %.
    for loss in 0.01 0; do
        x "loss-sweep-64-sliced/ring-$size64-$loss" mrc-loss-collective --collective=ring \
            --fabric=mrc --qps=1 --hosts=64 --size="$size64" --loss=$loss --verify=false \
            --ns3::MrcRingCollective::SliceSize=$((size64 / 256))
    done
    # Slow flaps (issue-15 table): every 4 ms and every 1 ms, three and six
    # periods (quick: two periods of 400 us).
    x path-health/flap-4ms mrc-path-health --experiment=flap \
        $(q "--period=4000 --stop=12100" "--period=400 --stop=900")
    x path-health/flap-1ms mrc-path-health --experiment=flap \
        $(q "--period=1000 --stop=6100" "--period=400 --stop=900")
    # Loss sweep (issue-15 table; mrc-loss-sweep.py --sizes 16M,64M
    # --configs mrc runs the same points): ring and all-to-all, MRC 1 QP, 16 ranks.
    local size loss c n
    for size in $(q "67108864 16777216" "262144 2097152"); do
        for c in ring alltoall; do
            for loss in 0.01 0.001 0; do
                x "loss-sweep/$c-$size-$loss" mrc-loss-collective --collective=$c --fabric=mrc \
                    --qps=1 --size="$size" --loss=$loss --verify=$([ "$size" -le 4194304 ] &&
                    echo true || echo false)
            done
        done
    done
    # Flagship comparison (utils/mrc.sh main), and its --quick (issue-15 table); --quick here:
    # 6 steps instead of 12 (the failures end in the fourth).
    local six=--ns3::MrcClusterScenario::Iterations=6
    x flagship mrc-ai-cluster $(q "" "--quick $six") --out=results
    x flagship-quick mrc-ai-cluster --quick $(q "" $six) --out=results
    # Flagship --quick with the RoCEv2 fabrics on one 200G plane, lossy and lossless (issue 16).
    x flagship-single-plane mrc-ai-cluster --quick $(q "" $six) \
        --fabrics=mrc,roce,roce-pfc,roce-pfc-xN --roceSinglePlane --out=results
    # Ring all-reduce, 16 ranks, one 400G plane for RoCEv2 (issue 16).
    local ring=(--collective=ring --hosts=16 --size="$(q 16000000 1000000)"
                --iterations="$(q 2 1)")
    local paper=(--ns3::MrcDcqcn::G=0.00390625 --ns3::MrcDcqcn::AlphaTimer=55us
                 --ns3::MrcDcqcn::RateDecreaseInterval=0s --ns3::MrcDcqcn::IncreaseTimer=55us
                 --ns3::MrcDcqcn::ByteCounter=10000000 --ns3::MrcDcqcn::FastRecoverySteps=5
                 --ns3::MrcDcqcn::RateAi=40Mbps --ns3::MrcDcqcn::RateHai=400Mbps
                 --ns3::MrcDcqcn::MinRate=100Mbps --ns3::MrcDcqcn::ClampTargetRate=true
                 --ns3::MrcDcqcn::CnpInterval=50us)
    x ring-400g/mrc-1 mrc-loss-collective "${ring[@]}" --fabric=mrc
    for n in 1 4 8 16; do
        x "ring-400g/pfc-$n" mrc-loss-collective "${ring[@]}" --fabric=roce-pfc --qps=$n
        x "ring-400g/pfc-paper-$n" mrc-loss-collective "${ring[@]}" --fabric=roce-pfc --qps=$n \
            "${paper[@]}"
    done
    # ECN off: EcnEnabled=false on the PFC queue discs.
    for n in 1 8; do
        x "ring-400g/pfc-noecn-$n" mrc-loss-collective "${ring[@]}" --fabric=roce-pfc --qps=$n \
            --ns3::MrcPfcQueueDisc::EcnEnabled=false
    done
    x ring-400g/roce-1 mrc-loss-collective "${ring[@]}" --fabric=roce --qps=1
    # The same ring pipelined as NCCL runs it (slices of 256 KiB: bandwidth-bound), 1 QP over
    # ECMP placements (seeds), with the T0-T1 links' balance (--links: the most ring flows ECMP
    # put on one link); DCQCN, DCQCN with the paper's 55 us increase timer, and ECN off; MRC
    # and 16 QPs once for scale.
    local sliced=(--collective=ring --hosts=16 --size="$(q 16000000 4000000)" --iterations=1
                  --ns3::MrcRingCollective::SliceSize=262144 --links)
    x ring-400g-seeds/mrc mrc-loss-collective "${sliced[@]}" --fabric=mrc
    x ring-400g-seeds/pfc16 mrc-loss-collective "${sliced[@]}" --fabric=roce-pfc --qps=16
    for seed in $(q "1 2 3 4 5 6 7 8" "1 2 3"); do
        x "ring-400g-seeds/pfc-seed$seed" mrc-loss-collective "${sliced[@]}" --fabric=roce-pfc \
            --seed="$seed"
        x "ring-400g-seeds/pfc-noecn-seed$seed" mrc-loss-collective "${sliced[@]}" \
            --fabric=roce-pfc --seed="$seed" --ns3::MrcPfcQueueDisc::EcnEnabled=false
        x "ring-400g-seeds/pfc-t55-seed$seed" mrc-loss-collective "${sliced[@]}" \
            --fabric=roce-pfc --seed="$seed" --ns3::MrcDcqcn::IncreaseTimer=55us
    done
    # 7-to-1 incast plus a victim (issue 16): MRC on 4 x 100G, RoCEv2 on one 400G plane.
    local mb
    mb=$(q 4000000 1000000)
    local incast=(--collective=incast --hosts=8 --size="$mb" --victim="$mb" --t0s=4
                  --iterations=1)
    local one=(--planes=1 --rate=400Gbps --dataPlane=ecmp)
    x incast-victim/alone mrc-collective --collective=bulk --hosts=2 --size="$mb" --t0s=4 \
        --iterations=1 --planes=4
    x incast-victim/mrc mrc-collective "${incast[@]}" --planes=4
    x incast-victim/pfc-nodcqcn mrc-collective "${incast[@]}" "${one[@]}" --transport=roce-pfc \
        --dcqcn=false
    for n in 1 8; do
        x "incast-victim/pfc-$n" mrc-collective "${incast[@]}" "${one[@]}" --transport=roce-pfc \
            --qps=$n
        x "incast-victim/pfc-dynamic-$n" mrc-collective "${incast[@]}" "${one[@]}" \
            --transport=roce-pfc --qps=$n --ns3::MrcPfcPort::ThresholdMode=dynamic
        x "incast-victim/pfc-paper-$n" mrc-collective "${incast[@]}" "${one[@]}" \
            --transport=roce-pfc --qps=$n "${paper[@]}"
    done
    x incast-victim/roce-1 mrc-collective "${incast[@]}" "${one[@]}" --transport=roce
    # The same with 20 MB per flow (quick: 4 MB), past the incast's first RTTs.
    local long
    long=$(q 20000000 4000000)
    local incast_long=(--collective=incast --hosts=8 --size="$long" --victim="$long" --t0s=4
                       --iterations=1)
    x incast-victim-long/alone mrc-collective --collective=bulk --hosts=2 --size="$long" \
        --t0s=4 --iterations=1 --planes=4
    x incast-victim-long/mrc mrc-collective "${incast_long[@]}" --planes=4
    x incast-victim-long/pfc-nodcqcn mrc-collective "${incast_long[@]}" "${one[@]}" \
        --transport=roce-pfc --dcqcn=false
    for n in 1 8; do
        x "incast-victim-long/pfc-$n" mrc-collective "${incast_long[@]}" "${one[@]}" \
            --transport=roce-pfc --qps=$n
    done
    # The same over eight ECMP placements (--seed; quick: two): which T1s the incast flows
    # and the victim hash to decides whether PFC reaches the victim at all. In DIR, with
    # EXTRA topology options: incast-victim-seeds/ on the racks above (4 T1s per plane),
    # incast-victim-wide/ on racks of 16 hosts with 16 T1s per plane (full bisection), where
    # ECMP spreads the incast flows over more T1s.
    victim_seeds() {
        local dir=$1 seed n
        shift
        for seed in $(q "1 2 3 4 5 6 7 8" "1 2"); do
            x "$dir/mrc-seed$seed" mrc-collective "${incast_long[@]}" "$@" --planes=4 \
                --seed="$seed"
            x "$dir/pfc-nodcqcn-seed$seed" mrc-collective "${incast_long[@]}" "$@" "${one[@]}" \
                --transport=roce-pfc --dcqcn=false --seed="$seed"
            for n in 1 8; do
                x "$dir/pfc-$n-seed$seed" mrc-collective "${incast_long[@]}" "$@" "${one[@]}" \
                    --transport=roce-pfc --qps=$n --seed="$seed"
            done
        done
    }
    victim_seeds incast-victim-seeds
    victim_seeds incast-victim-wide --hostsPerT0=16
    # Path health (issue-15 table): gray path, ECN steering, links down (seeds 1-5), flaps.
    x path-health/gray mrc-path-health --experiment=gray $(q "" --stop=250)
    x path-health/steer mrc-path-health --experiment=steer $(q "" --stop=250)
    x path-health/steer-skip16 mrc-path-health --experiment=steer $(q "" --stop=250) \
        --ns3::MrcQueuePair::AlwaysSkipFactor=16
    for n in $(q "1 2 3 4 5" "1 2"); do
        x "path-health/links-seed$n" mrc-path-health --experiment=links --seed="$n" \
            $(q "" "--count=2 --step=150")
        # The same at the module's EvSetSize default (16 EVs per path on 4 T1s).
        x "path-health/links128-seed$n" mrc-path-health --experiment=links --seed="$n" \
            --evs=128 $(q "" "--count=2 --step=150")
    done
    x path-health/flap mrc-path-health --experiment=flap $(q "" --stop=400)
    # One link failure, MRC against RoCEv2/ECMP+BGP.
    x failover mrc-failover --interval=500 --csv=failover \
        $(q "" "--failAt=500 --repairAt=1500 --stop=2500")
    # One transfer under random loss: 64 MB over 2 x 100G (issue-15 table), 4 MB over ECMP
    # (published-behaviour table).
    for loss in 0 0.001 0.01; do
        x "transfer-64mb/loss-$loss" mrc-transfer --planes=2 --bytes="$(q 64000000 4000000)" \
            --loss=$loss
        x "transfer-4mb/loss-$loss" mrc-transfer --dataPlane=ecmp \
            --bytes="$(q 4000000 400000)" --loss=$loss
    done
    # Ring all-reduce, 8 ranks: one MRC QP against 16 RoCEv2 QPs (published-behaviour table).
    x collective-ring/mrc-1 mrc-collective --collective=ring --hosts=8 \
        --size="$(q 8000000 1000000)" --iterations=1
    x collective-ring/roce-16 mrc-collective --collective=ring --hosts=8 \
        --size="$(q 8000000 1000000)" --iterations=1 --transport=roce --qps=16 --dataPlane=ecmp
    # Incast with and without trimming (UDP).
    for n in 8 32 64; do
        for c in true false; do
            x "incast-trimming/$n-$c" mrc-incast-trimming --senders=$n --trimming=$c \
                $(q "" --packets=20)
        done
    done
    wait
    echo "finished $(date -u +%Y-%m-%dT%H:%M:%SZ), $((SECONDS - t0)) s" >>"$out/run-info.txt"
    local failed
    failed=$(grep -lvx 0 "$out"/*/status "$out"/*/*/status 2>/dev/null || true)
    if [ -n "$failed" ]; then
        echo "mrc: validate: runs that failed (see stderr.txt beside each):" >&2
        echo "${failed//\/status/}" >&2
    fi
    /usr/bin/python3 "$here/utils/mrc-validation-tables.py" --results "$out" --out "$tables"
}

case "${1:-}" in
    deps) deps ;;
    build) build ;;
    main)
        # Only what the main job needs: the library and mrc-ai-cluster (no tests).
        build mrc-ai-cluster
        shift
        # The flagship comparison: one training job and one failure schedule on a 128-host,
        # 4-plane cluster over MRC/SRv6, RoCEv2/ECMP+BGP and RoCEv2 with 4 QPs per peer.
        # Results in ./mrc-ai-cluster-results (doc/mrc.rst, "Flagship comparison").
        exec "$build/bin/mrc-ai-cluster" "$@"
        ;;
    test)
        build
        cd "$build"
        exec ctest --output-on-failure -j "$jobs"
        ;;
    benchmark)
        shift
        release mrc-benchmark
        exec "$build-release/bin/mrc-benchmark" "$@"
        ;;
    benchmark-static | benchmark-pgo)
        cmd=$1
        shift
        build_args=(--static-benchmark --jobs "$jobs")
        [ "$cmd" = benchmark-pgo ] && build_args+=(--pgo)
        # The build's progress goes to stderr; its last line, printed only on success, names
        # the program.
        program=""
        while IFS= read -r line; do
            echo "$line" >&2
            case $line in " benchmark: "*) program=${line# benchmark: } ;; esac
        done < <("$here/utils/check-in-tree.sh" "${build_args[@]}" 2>&1)
        [ -n "$program" ] && [ -x "$program" ] \
            || { echo "mrc: $cmd: the build failed (see above)" >&2; exit 1; }
        exec "$program" "$@"
        ;;
    validate)
        shift
        validate "$@"
        ;;
    *)
        sed -n '2,/^set -e/{/^#/p}' "$0" >&2
        exit 2
        ;;
esac
