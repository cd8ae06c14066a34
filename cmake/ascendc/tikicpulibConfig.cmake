# npusim's tikicpulib package: CANN's CPU debug mode for Ascend C kernels (docs/kernels.md).
#   find_package(tikicpulib)   with CMAKE_PREFIX_PATH=<install>/tools/tikicpulib/lib/cmake
#   target_link_libraries(app PRIVATE tikicpulib::<soc>)   # any SoC name CANN's package knows
# The targets compile the program with __CCE_KT_TEST__ (its kernel is called through ICPU_RUN_KF
# from tikicpulib.h, not launched) and link libascendcl, which runs the blocks on the host.
# Found under tools/tikicpulib/lib/cmake (the samples' CMAKE_PREFIX_PATH) or, through a link,
# under lib/cmake (set_env.sh's CMAKE_PREFIX_PATH): the root is found from the real file.
get_filename_component(_tikicpulib_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(_tikicpulib_root "${_tikicpulib_dir}/../../../../.." ABSOLUTE)
find_library(_tikicpulib_ascendcl NAMES ascendcl PATHS "${_tikicpulib_root}/lib" "${_tikicpulib_root}/lib64"
             NO_DEFAULT_PATH)
if(NOT _tikicpulib_ascendcl)
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "libascendcl not found under ${_tikicpulib_root}/lib")
  return()
endif()
if(NOT TARGET tikicpulib::tikicpulib)
  add_library(tikicpulib::tikicpulib INTERFACE IMPORTED)
  set_target_properties(tikicpulib::tikicpulib PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "__CCE_KT_TEST__=1"
    INTERFACE_INCLUDE_DIRECTORIES "${_tikicpulib_root}/include/ascendc;${_tikicpulib_root}/include"
    INTERFACE_LINK_LIBRARIES "${_tikicpulib_ascendcl}"
    INTERFACE_LINK_DIRECTORIES "${_tikicpulib_root}/lib")
  # The SoC names CANN's package has a target for (the samples link tikicpulib::${SOC_VERSION}).
  foreach(soc ascend910 ascend310p ascend910b ascend310b Ascend910A Ascend910B Ascend910B1 Ascend910B2
              Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1 Ascend910_9391 Ascend910_9392 Ascend910_9381
              Ascend910_9382 Ascend910_9372 Ascend910_9362 Ascend310P1 Ascend310P3 Ascend310B1 Ascend310B4)
    add_library(tikicpulib::${soc} INTERFACE IMPORTED)
    set_target_properties(tikicpulib::${soc} PROPERTIES INTERFACE_LINK_LIBRARIES tikicpulib::tikicpulib)
  endforeach()
endif()
set(tikicpulib_FOUND TRUE)
