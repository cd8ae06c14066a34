# Installs BUILD into WORK/cann, builds the sample and package projects against it and runs them.
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/cann)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
foreach(name ascendcl acl_rt acl_rt_impl nnopbase opapi hccl opapi_math opapi_nn acl_dvpp ascend_dump msprofiler
             profapi c_sec acl_tdt_channel acl_tdt_queue ms_tools_ext)
  if(NOT EXISTS ${prefix}/lib64/lib${name}.so)
    message(FATAL_ERROR "lib64/lib${name}.so is missing from the install")
  endif()
endforeach()
foreach(header hccl/hccl.h hccl/hccl_types.h hccl/hccl_comm.h acl/acl.h acl/acl_prof.h acl/acl_dump.h acl/acl_tdt.h acl/acl_tdt_queue.h securec.h
               mstx/ms_tools_ext.h aclnnop/aclnn_add.h aclnn/opdev/fp16_t.h)
  if(NOT EXISTS ${prefix}/include/${header})
    message(FATAL_ERROR "include/${header} is missing from the install")
  endif()
endforeach()
if(NOT EXISTS ${prefix}/bin/setenv.bash)
  message(FATAL_ERROR "bin/setenv.bash (sourced by the samples' run.sh) is missing")
endif()

set(ENV{LD_LIBRARY_PATH} ${prefix}/lib64)
# The older CANN layout and the libraries Ascend C samples name on their link lines.
foreach(path runtime/include/acl/acl.h acllib/include/acl/acl.h acllib/lib64/libascendcl.so tools/tikicpulib/lib/include/tikicpulib.h lib64/libruntime.so
             lib64/libhost_intf_pub.so lib64/libtiling_api.so lib64/libregister.so lib64/libplatform.so
             lib64/libascendalog.so lib64/libruntime_camodel.so lib64/libpem_davinci.so)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "${path} is missing from the install")
  endif()
endforeach()

foreach(project sample package kernels asc)
  run(${CMAKE_COMMAND} -S ${SRC}/${project} -B ${WORK}/${project} -G ${GENERATOR}
      -DASCEND_CANN_PACKAGE_PATH=${prefix} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
  run(${CMAKE_COMMAND} --build ${WORK}/${project} -j2)
endforeach()

# Each program links only one CANN library name and prints what its calls returned.
foreach(probe acl_rt msprofiler profapi ms_tools_ext ascend_dump acl_tdt_channel acl_tdt_queue c_sec opapi_math)
  run(${WORK}/sample/probe_${probe})
  if(NOT last_output MATCHES "^${probe}: ok")
    message(FATAL_ERROR "probe_${probe} printed: ${last_output}")
  endif()
endforeach()
# Runs `program`; its output must match `pattern` (the first group is left in `matched`).
function(expect program pattern)
  run(${program})
  if(NOT last_output MATCHES "${pattern}")
    message(FATAL_ERROR "${program} printed: ${last_output}")
  endif()
  set(matched "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
expect(${WORK}/package/package_probe "^package: ok")
# One kernel through each Ascend C route (kernels/, asc/): correct results everywhere; on the
# device its scalar loop (1e6 iterations of 6 counted operations per block) takes >= 3.3 ms.
expect(${WORK}/kernels/kernel_cpu "^cpu: ok")
foreach(route ccec tikcpp)
  expect(${WORK}/kernels/kernel_${route} "^${route}: ok ([0-9.]+) us")
  if(matched LESS 3333)
    message(FATAL_ERROR "kernel_${route} took ${matched} us: its scalar loop was not timed")
  endif()
endforeach()
expect(${WORK}/asc/kernel_asc "^asc: ok")
expect(${WORK}/kernels/tiled_cpu "^tiled-cpu: ok")
expect(${WORK}/kernels/tiled_ccec "^tiled-ccec: ok")
# A kernel in the KernelLaunch "Neo" style (launch/), configured once per run mode as those samples'
# run.sh does: its tiling struct by pointer through aclrtlaunch_leaky_launch on the device, right
# values in both modes, and a device time no shorter than its 96 MiB at the HBM's peak.
foreach(mode cpu npu)
  run(${CMAKE_COMMAND} -S ${SRC}/launch -B ${WORK}/launch_${mode} -G ${GENERATOR} -DRUN_MODE=${mode}
      -DASCEND_CANN_PACKAGE_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
  run(${CMAKE_COMMAND} --build ${WORK}/launch_${mode} -j2)
  expect(${WORK}/launch_${mode}/launch_${mode} "^launch-${mode}: ok")
endforeach()

# Operator examples, compiled with the lines the operator repositories' build.sh use (ops-math
# `--run_example <op> eager cust --experimental`, ops-nn's built-in examples), ASCEND_OPP_PATH
# being <install>/opp; log_softmax of {0, 1, 2} is -2.407606, -1.407606, -0.407606.
set(opp ${prefix}/opp)
set(cust ${opp}/vendors/custom_math/op_api)
set(math_cust -I ${cust}/include -I ${prefix}/include -I ${prefix}/include/aclnnop -L ${cust}/lib
    -L ${prefix}/lib64 -lcust_opapi -lascendcl -lnnopbase -Wl,-rpath=${cust}/lib)
set(nn_builtin -DOPP_PREFIXED -I ${prefix}/include -I ${prefix}/include/aclnnop -I ${prefix}/include/aclnn
    -L ${opp}/lib64 -L ${prefix}/lib64 -lopapi_nn -lopapi_math -lascendcl -lnnopbase)
foreach(line math_cust nn_builtin)
  run(${CXX} ${SRC}/opp/example.cpp ${${line}} -o ${WORK}/opp_${line})
  run(${WORK}/opp_${line})
  if(NOT last_output MATCHES "^opp: ok -2.407606 -1.407606 -0.407606 zero 0 0 0")
    message(FATAL_ERROR "opp_${line} printed: ${last_output}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
