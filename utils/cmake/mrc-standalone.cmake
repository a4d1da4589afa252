# Standalone build of the mrc module against an installed ns-3 (Debian 12: libns3-dev 3.37).
#
# Defines small look-alikes of ns-3's build_lib() and build_lib_example() so that the module's
# CMakeLists.txt and examples/CMakeLists.txt serve both the standalone and the in-tree build.
# Everything is registered with CTest:
#   - every ns-3 TestSuite of the module (one CTest test per suite, discovered after the build),
#   - every example listed in test/examples-to-run.py (run with the arguments written there),
#   - every GoogleTest case.

if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()
if(NOT CMAKE_CXX_STANDARD)
  set(CMAKE_CXX_STANDARD 17)
endif()
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

option(MRC_ASSERTS "Compile the module's NS_ASSERTs in (tests want them, benchmarks do not)" ON)
option(MRC_LOGGING "Compile the module's NS_LOG statements in" ON)
option(MRC_ENABLE_EXAMPLES "Build the examples" ON)
option(MRC_ENABLE_TESTS "Build the ns-3 TestSuites and GoogleTest tests" ON)
option(MRC_ENABLE_PYTHON "Build the Python bindings (pybind11) when pybind11 is installed" ON)
option(MRC_SANITIZE
       "Build the module, its tests, examples and bindings with AddressSanitizer and UndefinedBehaviorSanitizer"
       OFF)
option(MRC_FUZZ
       "Build the libFuzzer targets (clang only; implies MRC_SANITIZE): see test/fuzz/mrc-fuzz.h"
       OFF)
if(MRC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MRC_FUZZ=ON needs clang (libFuzzer is part of clang), but "
                        "CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER_ID}: configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (apt-get install clang)")
  endif()
  set(MRC_SANITIZE ON CACHE BOOL "" FORCE)
endif()

enable_testing()
find_package(ns3 3.37 REQUIRED)
find_package(Boost 1.74 REQUIRED)

# Debian's exported ns-3 targets name absolute paths of other -dev packages; drop those that do
# not exist on this machine so that a missing optional package cannot break the build.
foreach(_t IN ITEMS core network internet point-to-point traffic-control applications bridge
                    stats mobility flow-monitor)
  set(_target ns3::lib${_t})
  if(TARGET ${_target})
    foreach(_prop INTERFACE_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES)
      get_target_property(_vals ${_target} ${_prop})
      if(_vals)
        set(_kept "")
        foreach(_v IN LISTS _vals)
          if(_v MATCHES "^/" AND NOT EXISTS "${_v}")
            continue()
          endif()
          list(APPEND _kept "${_v}")
        endforeach()
        set_target_properties(${_target} PROPERTIES ${_prop} "${_kept}")
      endif()
    endforeach()
    # The same variables ns-3 defines in a source tree (libcore, libinternet, ...).
    set(lib${_t} ${_target})
  endif()
endforeach()

set(MRC_HEADER_DIR ${CMAKE_BINARY_DIR}/include)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)

# build_lib(LIBNAME SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK TEST_SOURCES)
function(build_lib)
  cmake_parse_arguments(BLIB "" "LIBNAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES" ${ARGN})
  set(_lib ${BLIB_LIBNAME})
  # ns3/<header>.h forwarding headers and the <module>-module.h aggregator, as ns-3 makes them.
  file(MAKE_DIRECTORY ${MRC_HEADER_DIR}/ns3)
  set(_aggregate "// Generated: includes every public header of the ${_lib} module.\n")
  foreach(_h IN LISTS BLIB_HEADER_FILES)
    get_filename_component(_name ${_h} NAME)
    file(WRITE ${MRC_HEADER_DIR}/ns3/${_name}.tmp
         "#include \"${CMAKE_CURRENT_SOURCE_DIR}/${_h}\"\n")
    configure_file(${MRC_HEADER_DIR}/ns3/${_name}.tmp ${MRC_HEADER_DIR}/ns3/${_name} COPYONLY)
    string(APPEND _aggregate "#include \"ns3/${_name}\"\n")
  endforeach()
  file(WRITE ${MRC_HEADER_DIR}/ns3/${_lib}-module.h.tmp "${_aggregate}")
  configure_file(${MRC_HEADER_DIR}/ns3/${_lib}-module.h.tmp ${MRC_HEADER_DIR}/ns3/${_lib}-module.h
                 COPYONLY)

  add_library(${_lib} SHARED ${BLIB_SOURCE_FILES} ${BLIB_HEADER_FILES})
  target_include_directories(${_lib} PUBLIC ${MRC_HEADER_DIR})
  target_link_libraries(${_lib} PUBLIC ${BLIB_LIBRARIES_TO_LINK} Boost::boost)
  target_compile_definitions(${_lib} PRIVATE NS3_MODULE_COMPILATION)
  if(MRC_ASSERTS)
    target_compile_definitions(${_lib} PUBLIC NS3_ASSERT_ENABLE)
  endif()
  if(MRC_LOGGING)
    target_compile_definitions(${_lib} PUBLIC NS3_LOG_ENABLE)
  endif()
  target_compile_options(${_lib} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  if(MRC_SANITIZE)
    # PUBLIC: everything linking the module (test runner, GoogleTest, examples, the Python
    # module) is instrumented too. An error stops the program (no recovery from UBSan).
    target_compile_options(${_lib} PUBLIC -fsanitize=address,undefined -fno-omit-frame-pointer
                                          -fno-sanitize-recover=undefined)
    target_link_options(${_lib} PUBLIC -fsanitize=address,undefined)
  endif()
  if(MRC_FUZZ)
    # Coverage feedback for libFuzzer from the module's own code (ns-3's libraries are not
    # instrumented); the sanitizer runtimes supply the hooks to programs without libFuzzer.
    target_compile_options(${_lib} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  set_target_properties(${_lib} PROPERTIES OUTPUT_NAME ns3-${_lib})
  # What ns-3 calls the library in a source tree: examples link "lib<name>".
  set(lib${_lib} ${_lib})
  set(lib${_lib} ${_lib} PARENT_SCOPE)
  set(MRC_LIB_TARGET ${_lib} CACHE INTERNAL "")

  if(MRC_ENABLE_TESTS AND BLIB_TEST_SOURCES)
    # ns-3 TestSuites: one runner program, one CTest test per suite (discovered after build).
    add_executable(${_lib}-test-runner ${CMAKE_CURRENT_SOURCE_DIR}/utils/cmake/test-runner.cc
                                       ${BLIB_TEST_SOURCES})
    target_link_libraries(${_lib}-test-runner PRIVATE ${_lib})
    # Tests that read files of the source tree (in ns-3 trees they use NS_TEST_SOURCEDIR).
    target_compile_definitions(${_lib}-test-runner
                               PRIVATE MRC_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
    set(_list ${CMAKE_BINARY_DIR}/${_lib}-test-suites.txt)
    set(_include ${CMAKE_BINARY_DIR}/${_lib}-test-suites.cmake)
    add_custom_command(
      TARGET ${_lib}-test-runner POST_BUILD
      COMMAND $<TARGET_FILE:${_lib}-test-runner> --print-test-name-list > ${_list}
      VERBATIM)
    file(WRITE ${_include}.in
         "if(EXISTS \"${_list}\")\n"
         "  file(STRINGS \"${_list}\" _suites)\n"
         "  foreach(_s IN LISTS _suites)\n"
         "    add_test(ns3-suite-\${_s} \"$<TARGET_FILE:${_lib}-test-runner>\"\n"
         "             --suite=\${_s} --verbose)\n"
         "  endforeach()\n"
         "else()\n"
         "  add_test(${_lib}-test-runner-not-built false)\n"
         "endif()\n")
    file(GENERATE OUTPUT ${_include} INPUT ${_include}.in)
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_include})
  endif()

  if(MRC_ENABLE_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
endfunction()

# build_lib_example(NAME SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK)
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES} ${BLIB_EXAMPLE_HEADER_FILES})
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE ${MRC_LIB_TARGET}
                                                    ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

# Called by CMakeLists.txt after build_lib(): examples-as-tests and GoogleTest.
# Python bindings (bindings/python): a pybind11 extension module "mrc" in <build>/python, for
# the interpreter given as Python3_EXECUTABLE (utils/mrc.sh: /usr/bin/python3); installed into
# <prefix>/lib/python3/dist-packages, which Debian's python3 searches for /usr/local.
function(mrc_standalone_python)
  if(NOT MRC_ENABLE_PYTHON)
    return()
  endif()
  set(PYBIND11_FINDPYTHON ON)
  find_package(Python3 COMPONENTS Interpreter Development)
  find_package(pybind11 CONFIG QUIET)
  if(NOT pybind11_FOUND OR NOT Python3_Development_FOUND)
    message(STATUS "pybind11 or the Python headers not found (apt-get install pybind11-dev "
                   "libpython3-dev): Python bindings skipped")
    return()
  endif()
  pybind11_add_module(mrc-python ${CMAKE_CURRENT_SOURCE_DIR}/bindings/python/mrc-python.cc)
  set_target_properties(mrc-python PROPERTIES OUTPUT_NAME mrc
                                              LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/python)
  target_link_libraries(mrc-python PRIVATE ${MRC_LIB_TARGET})
  # The module finds libns3-mrc in <prefix>/lib (Debian's ns-3 libraries are in the system
  # path already).
  set_target_properties(mrc-python PROPERTIES INSTALL_RPATH "$ORIGIN/../..")
  install(TARGETS mrc-python LIBRARY DESTINATION lib/python3/dist-packages)
  install(TARGETS ${MRC_LIB_TARGET} LIBRARY DESTINATION lib)
  if(MRC_ENABLE_TESTS)
    add_test(NAME python-mrc
             COMMAND ${Python3_EXECUTABLE} -m unittest discover -v
                     -s ${CMAKE_CURRENT_SOURCE_DIR}/test/python -p "test_*.py")
    set_tests_properties(python-mrc PROPERTIES
                         ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python")
    if(MRC_SANITIZE)
      # The interpreter is not instrumented: the ASan runtime must be loaded first, with
      # libstdc++ right after it (else ASan finds no __cxa_throw to intercept and aborts on
      # the first C++ exception), and CPython's own allocations at exit are not leaks of the
      # module.
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                      OUTPUT_VARIABLE _asan OUTPUT_STRIP_TRAILING_WHITESPACE)
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                      OUTPUT_VARIABLE _stdcxx OUTPUT_STRIP_TRAILING_WHITESPACE)
      set(MRC_PYTHON_SANITIZE_ENV "LD_PRELOAD=${_asan}:${_stdcxx}" "ASAN_OPTIONS=detect_leaks=0")
      set_property(TEST python-mrc APPEND PROPERTY ENVIRONMENT ${MRC_PYTHON_SANITIZE_ENV})
    endif()
    if(MRC_ENABLE_EXAMPLES)
      # Python scripts as tests: the quick-start reproduces the C++ flagship byte for byte;
      # the mixed-traffic script exits 1 if the job or a TCP flow loses data.
      add_test(NAME python-example-quickstart-matches-cpp
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/compare_quickstart.py
                       $<TARGET_FILE:mrc-ai-cluster>
                       ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/mrc-quickstart.py
                       ${CMAKE_BINARY_DIR}/python-example-quickstart)
      add_test(NAME python-example-mixed-traffic
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/mrc-mixed-traffic.py
                       --iterations 2 --tcp-bytes 1000000)
      add_test(NAME python-example-two-jobs
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/mrc-two-jobs.py --quick)
      set_tests_properties(python-example-quickstart-matches-cpp python-example-mixed-traffic
                           python-example-two-jobs
                           PROPERTIES ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python")
      if(MRC_SANITIZE)
        set_property(TEST python-example-quickstart-matches-cpp python-example-mixed-traffic
                     python-example-two-jobs
                     APPEND PROPERTY ENVIRONMENT ${MRC_PYTHON_SANITIZE_ENV})
      endif()
    endif()
  endif()
endfunction()

function(mrc_standalone_finish)
  mrc_standalone_python()
  if(NOT MRC_ENABLE_TESTS)
    return()
  endif()
  # Examples as tests: the same list ns-3's test.py reads in a source tree.
  set(_ex ${CMAKE_CURRENT_SOURCE_DIR}/test/examples-to-run.py)
  if(MRC_ENABLE_EXAMPLES AND EXISTS ${_ex})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ex})
    file(STRINGS ${_ex} _lines REGEX "^[ \t]*\\(\"[^\"]+\", *\"True\"")
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE "^[ \t]*\\(\"([^\"]+)\".*" "\\1" _cmd "${_line}")
      separate_arguments(_argv UNIX_COMMAND "${_cmd}")
      list(POP_FRONT _argv _prog)
      string(REGEX REPLACE "[^A-Za-z0-9_.=-]+" "_" _name "example-${_cmd}")
      add_test(NAME ${_name} COMMAND $<TARGET_FILE:${_prog}> ${_argv})
      # Same seed and parameters must give byte-identical output (benchmarks print wall time).
      if(NOT _prog MATCHES "benchmark")
        add_test(NAME determinism-${_name}
                 COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/utils/cmake/same-output-twice.sh
                         $<TARGET_FILE:${_prog}> ${_argv})
      endif()
    endforeach()
  endif()
  # CMakeLists.txt lists every file of model/ and helper/.
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME file-lists COMMAND ${Python3_EXECUTABLE}
                                     ${CMAKE_CURRENT_SOURCE_DIR}/utils/check-file-lists.py)
    # doc/*.rst parse as reStructuredText (skipped without python3-docutils).
    add_test(NAME doc-rst COMMAND ${Python3_EXECUTABLE}
                                  ${CMAKE_CURRENT_SOURCE_DIR}/utils/check-doc.py)
    set_tests_properties(doc-rst PROPERTIES SKIP_RETURN_CODE 77)
    if(MRC_ENABLE_EXAMPLES)
      # Bad command lines are refused before the first fabric runs (no run, no results).
      add_test(NAME example-mrc-ai-cluster-validates-first
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/check_ai_cluster_validates_first.py
                       $<TARGET_FILE:mrc-ai-cluster>
                       ${CMAKE_BINARY_DIR}/example-ai-cluster-validates-first)
      # mrc-ai-cluster --jobs: fabrics in child processes print and write the same as in order.
      add_test(NAME example-mrc-ai-cluster-jobs
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/check_ai_cluster_jobs.py
                       $<TARGET_FILE:mrc-ai-cluster>
                       ${CMAKE_BINARY_DIR}/example-ai-cluster-jobs)
      # mrc-benchmark --transport=stock: ns-3's own fat-tree (IPv4, global routing with ECMP)
      # delivers every flow, and the ratio per delivered GB is printed.
      add_test(NAME example-mrc-benchmark-stock
               COMMAND $<TARGET_FILE:mrc-benchmark> --k=4 --bytes=100000 --transport=stock,mrc)
      set_tests_properties(example-mrc-benchmark-stock PROPERTIES PASS_REGULAR_EXPRESSION
        "4 +stock +16 +16/16 .* 1\\.6.*4 +mrc +16 +16/16 .*k=4: MRC / stock ns-3 UDP wall per delivered GB [0-9.]+")
      # mrc-benchmark --repeat: the rounds give identical results (the run fails otherwise), and
      # the summary gives each transport's fastest and median wall times and MRC's ratio.
      add_test(NAME example-mrc-benchmark-repeat
               COMMAND $<TARGET_FILE:mrc-benchmark> --k=4 --bytes=100000 --transport=mrc,udp
                       --repeat=2)
      set_tests_properties(example-mrc-benchmark-repeat PROPERTIES PASS_REGULAR_EXPRESSION
        "k=4 mrc over 2 rounds \\(identical results\\).*k=4 udp over 2 rounds \\(identical results\\).*k=4: MRC / udp wall per delivered GB, of the minima [0-9.]+, of the medians [0-9.]+")
      # mrc-loss-collective --links: MRC's spraying loads the T0-T1 links evenly (balance about
      # 1); one RoCEv2 QP per ring flow puts whole flows on links (8 ranks on 2 T0s, 4 flows per
      # T0 over 4 uplinks: the balance is a whole number of flows, up to the ACKs' share; 2 for
      # this seed, and 2 to 4 accepted: a balance near 1 would mean flows are not whole).
      add_test(NAME example-mrc-loss-collective-links-mrc
               COMMAND $<TARGET_FILE:mrc-loss-collective> --hosts=8 --size=800000 --links)
      set_tests_properties(example-mrc-loss-collective-links-mrc PROPERTIES
        PASS_REGULAR_EXPRESSION "T0-T1 link balance \\(largest / mean bytes of a direction\\): up 1\\.0[0-9], down 1\\.0[0-9]\n")
      add_test(NAME example-mrc-loss-collective-links-roce
               COMMAND $<TARGET_FILE:mrc-loss-collective> --hosts=8 --size=800000 --links
                       --fabric=roce-pfc)
      set_tests_properties(example-mrc-loss-collective-links-roce PROPERTIES
        PASS_REGULAR_EXPRESSION "T0-T1 link balance \\(largest / mean bytes of a direction\\): up ([1-3]\\.9[5-9]|[2-4]\\.0[0-4]), down ([1-3]\\.9[5-9]|[2-4]\\.0[0-4])\n")
      # ... and refuses a round count out of range, or more than one round with --mpi (ns-3's
      # MPI engine ends with Simulator::Destroy), before anything runs.
      add_test(NAME example-mrc-benchmark-repeat-range
               COMMAND $<TARGET_FILE:mrc-benchmark> --k=4 --transport=mrc --repeat=0)
      set_tests_properties(example-mrc-benchmark-repeat-range PROPERTIES PASS_REGULAR_EXPRESSION
        "^error: --repeat \\(=0\\) must be in 1\\.\\.100\n$")
      add_test(NAME example-mrc-benchmark-repeat-mpi
               COMMAND $<TARGET_FILE:mrc-benchmark> --k=4 --transport=mrc --mpi --repeat=2)
      set_tests_properties(example-mrc-benchmark-repeat-mpi PROPERTIES PASS_REGULAR_EXPRESSION
        "^error: --repeat \\(=2\\) must be 1 with --mpi: ns-3's MPI engine runs one simulation per process")
      # mrc-benchmark --htsim: the files it writes for htsim, its reading of htsim's output,
      # and its errors (against a stand-in for htsim_uec).
      add_test(NAME example-mrc-benchmark-htsim
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/check_benchmark_htsim.py
                       $<TARGET_FILE:mrc-benchmark>
                       ${CMAKE_BINARY_DIR}/example-benchmark-htsim)
      # The flagship runs an imported workload and prints its communications per pass, group
      # and collective (the sample: TP over the scale-up network, EP, DP and DP_EP over the
      # fabric; 140 comms per step).
      add_test(NAME example-mrc-ai-cluster-workload
               COMMAND $<TARGET_FILE:mrc-ai-cluster> --quick --fabrics=mrc,roce-pfc --out=none
                       --noFailures --ns3::MrcClusterScenario::Iterations=1
                       --ns3::MrcClusterScenario::GpusPerServer=2
                       --workload=${CMAKE_CURRENT_SOURCE_DIR}/examples/workload-moe-sample.txt)
      set_tests_properties(example-mrc-ai-cluster-workload PROPERTIES PASS_REGULAR_EXPRESSION
        "fwd tp analytic +64,.*wg dp-ep reduce-scatter +4,.*fwd tp analytic +64,.*wg dp-ep reduce-scatter +4,")
      # A pipeline-parallel workload (pp 2, 4 micro-batches): per step each micro-batch's
      # activations go to stage 1 and its gradients back (send-recv), DP inside each stage.
      add_test(NAME example-mrc-ai-cluster-pipeline
               COMMAND $<TARGET_FILE:mrc-ai-cluster> --quick --fabrics=mrc --out=none
                       --noFailures --ns3::MrcClusterScenario::Iterations=1
                       --ns3::MrcClusterScenario::GpusPerServer=2
                       --workload=${CMAKE_CURRENT_SOURCE_DIR}/examples/workload-pp-sample.txt)
      set_tests_properties(example-mrc-ai-cluster-pipeline PROPERTIES PASS_REGULAR_EXPRESSION
        "1/1 steps.*act pp send-recv +4,.*grad pp send-recv +4,.*wg dp reduce-scatter +4,")
      # tshark decodes MRC's wire format with utils/wireshark/mrc.lua (skipped without tshark).
      add_test(NAME wireshark-dissector
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/check_wireshark_dissector.py
                       $<TARGET_FILE:mrc-collective>
                       ${CMAKE_CURRENT_SOURCE_DIR}/utils/wireshark/mrc.lua
                       ${CMAKE_BINARY_DIR}/wireshark-dissector)
      set_tests_properties(wireshark-dissector PROPERTIES SKIP_RETURN_CODE 77)
      # Sweeps replicate through --RngRun and report a mean and a 95 % CI per point.
      add_test(NAME python-example-loss-sweep-runs
               COMMAND ${Python3_EXECUTABLE}
                       ${CMAKE_CURRENT_SOURCE_DIR}/test/python/check_loss_sweep_runs.py
                       ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/mrc-loss-sweep.py
                       $<TARGET_FILE_DIR:mrc-loss-collective>
                       ${CMAKE_BINARY_DIR}/python-example-loss-sweep-runs)
    endif()
  endif()
  # Fuzz targets: replay program + smoke run everywhere, libFuzzer program with MRC_FUZZ.
  foreach(_t IN LISTS mrc_fuzz_targets)
    set(_src ${CMAKE_CURRENT_SOURCE_DIR}/test/fuzz/mrc-${_t}-fuzzer.cc
             ${CMAKE_CURRENT_SOURCE_DIR}/test/fuzz/mrc-fuzz.cc)
    add_executable(mrc-fuzz-${_t}-replay ${_src}
                                         ${CMAKE_CURRENT_SOURCE_DIR}/test/fuzz/mrc-fuzz-replay.cc)
    target_link_libraries(mrc-fuzz-${_t}-replay PRIVATE ${MRC_LIB_TARGET})
    # Every seed and 50 deterministic mutations of each (the replay program's default).
    add_test(NAME fuzz-smoke-${_t} COMMAND $<TARGET_FILE:mrc-fuzz-${_t}-replay>)
    if(MRC_FUZZ)
      add_executable(mrc-fuzz-${_t} ${_src})
      target_link_libraries(mrc-fuzz-${_t} PRIVATE ${MRC_LIB_TARGET})
      target_compile_options(mrc-fuzz-${_t} PRIVATE -fsanitize=fuzzer)
      target_link_options(mrc-fuzz-${_t} PRIVATE -fsanitize=fuzzer)
    endif()
  endforeach()
  # GoogleTest
  find_package(GTest)
  if(GTest_FOUND AND mrc_gtest_sources)
    include(GoogleTest)
    add_executable(mrc-gtest ${mrc_gtest_sources})
    target_link_libraries(mrc-gtest PRIVATE ${MRC_LIB_TARGET} GTest::gtest GTest::gtest_main)
    # Tests that read files of the source tree (e.g. the sample failure schedules).
    target_compile_definitions(mrc-gtest PRIVATE MRC_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
    gtest_discover_tests(mrc-gtest TEST_PREFIX "gtest-" DISCOVERY_TIMEOUT 60)
  elseif(mrc_gtest_sources)
    message(WARNING "GoogleTest not found (apt-get install libgtest-dev): GoogleTest tests skipped")
  endif()
endfunction()
