# npusim's ascendc.cmake: CANN's kernel build functions, compiling Ascend C with the host compiler.
#
#   ascendc_library(<name> STATIC|SHARED <sources>...)
#       A library of kernels launched with <<<...>>> or ACLRT_LAUNCH_KERNEL(kernel)(...); the
#       aclrtlaunch_<kernel>.h headers are on its public include path, libascendcl on its link line.
#       A SHARED one installs to lib/.
#   ascendc_fatbin_library(<name> <sources>...)
#       A kernel binary for aclrtBinaryLoadFromFile: a host shared object, built as
#       <name>.o and installed to fatbin/<name>/<name>.o.
#   ascendc_compile_definitions / ascendc_compile_options / ascendc_include_directories(<name> ...)
#
# Each source goes through ascendc_filter.py (the launch syntax and kernel entry points), then the
# C++ compiler, with kernel_operator.h from the install. docs/kernels.md describes the subset.
cmake_minimum_required(VERSION 3.16)
# REALPATH: the install links compiler/tikcpp and tools/tikcpp to tikcpp.
get_filename_component(_NPUSIM_ASCENDC_DIR "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
if(NOT DEFINED NPUSIM_ASCENDC_ROOT)
  # Installed layout: <root>/tikcpp/ascendc_kernel_cmake/ascendc.cmake
  get_filename_component(NPUSIM_ASCENDC_ROOT "${_NPUSIM_ASCENDC_DIR}/../.." ABSOLUTE)
endif()
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${NPUSIM_ASCENDC_ROOT}")
endif()
if(NOT CMAKE_CXX_COMPILER_LOADED)
  enable_language(CXX)
endif()
find_package(Python3 COMPONENTS Interpreter REQUIRED)

# The ACL runtime kernels link against (a target when built inside the npusim tree).
if(TARGET ascendcl)
  set(_NPUSIM_ASCENDC_RUNTIME ascendcl)
  set(_NPUSIM_ASCENDC_INCLUDE "${NPUSIM_ASCENDC_ROOT}/include/ascendc" "${NPUSIM_ASCENDC_ROOT}/include")
else()
  find_library(_NPUSIM_ASCENDC_RUNTIME NAMES ascendcl PATHS "${NPUSIM_ASCENDC_ROOT}/lib" "${NPUSIM_ASCENDC_ROOT}/lib64"
               NO_DEFAULT_PATH REQUIRED)
  set(_NPUSIM_ASCENDC_INCLUDE "${NPUSIM_ASCENDC_ROOT}/include/ascendc" "${NPUSIM_ASCENDC_ROOT}/include")
  # Programs linking a kernel library name CANN's libraries bare (-ltiling_api, -lplatform, ...).
  set(_NPUSIM_ASCENDC_LINK_DIR "${NPUSIM_ASCENDC_ROOT}/lib")
endif()

# Filters `sources` for target `name`; sets <name>_NPUSIM_GENERATED and creates the headers now
# (so that programs including aclrtlaunch_<kernel>.h configure and build in any order).
function(_npusim_ascendc_filter name)
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/ascendc_gen/${name}")
  set(header_dir "${CMAKE_CURRENT_BINARY_DIR}/include/${name}")
  file(MAKE_DIRECTORY "${gen_dir}" "${header_dir}")
  set(generated "")
  set(src_dirs "")
  set(filter "${_NPUSIM_ASCENDC_DIR}/ascendc_filter.py")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(base "${src}" NAME_WE)
    get_filename_component(dir "${abs}" DIRECTORY)
    string(MD5 tag "${abs}")
    string(SUBSTRING "${tag}" 0 8 tag)
    set(out "${gen_dir}/${base}_${tag}.cpp")
    execute_process(COMMAND "${Python3_EXECUTABLE}" "${filter}" "${abs}" --out "${out}" --header-dir "${header_dir}"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "ascendc: cannot filter ${abs}")
    endif()
    add_custom_command(
      OUTPUT "${out}"
      COMMAND "${Python3_EXECUTABLE}" "${filter}" "${abs}" --out "${out}" --header-dir "${header_dir}"
      DEPENDS "${abs}" "${filter}" "${_NPUSIM_ASCENDC_DIR}/ascendc_scalar.py"
      COMMENT "ascendc: filtering ${src}")
    list(APPEND generated "${out}")
    list(APPEND src_dirs "${dir}")
  endforeach()
  list(REMOVE_DUPLICATES src_dirs)
  set(${name}_NPUSIM_GENERATED "${generated}" PARENT_SCOPE)
  set(${name}_NPUSIM_SRC_DIRS "${src_dirs}" PARENT_SCOPE)
  set(${name}_NPUSIM_HEADER_DIR "${header_dir}" PARENT_SCOPE)
endfunction()

function(_npusim_ascendc_setup name)
  target_include_directories(${name} PRIVATE ${${name}_NPUSIM_SRC_DIRS} ${_NPUSIM_ASCENDC_INCLUDE}
                             PUBLIC "${${name}_NPUSIM_HEADER_DIR}" "${NPUSIM_ASCENDC_ROOT}/include")
  target_compile_features(${name} PRIVATE cxx_std_17)
  # Kernels run natively: optimised whatever the build type (a sample's Debug build would make a
  # scalar loop of 1e8 iterations take tens of seconds), so their loops run at host speed.
  target_compile_options(${name} PRIVATE -O2)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${name} PUBLIC ${_NPUSIM_ASCENDC_RUNTIME})
  if(_NPUSIM_ASCENDC_LINK_DIR)
    target_link_directories(${name} PUBLIC "${_NPUSIM_ASCENDC_LINK_DIR}")
  endif()
endfunction()

function(ascendc_library name kind)
  if(NOT kind STREQUAL "STATIC" AND NOT kind STREQUAL "SHARED")
    message(FATAL_ERROR "ascendc_library(${name} ${kind} ...): the kind must be STATIC or SHARED")
  endif()
  _npusim_ascendc_filter(${name} ${ARGN})
  add_library(${name} ${kind} ${${name}_NPUSIM_GENERATED})
  _npusim_ascendc_setup(${name})
  if(kind STREQUAL "SHARED")  # as CANN's does: the samples run against <prefix>/lib
    install(TARGETS ${name} LIBRARY DESTINATION lib)
  endif()
endfunction()

function(ascendc_fatbin_library name)
  _npusim_ascendc_filter(${name} ${ARGN})
  add_library(${name} MODULE ${${name}_NPUSIM_GENERATED})
  _npusim_ascendc_setup(${name})
  set_target_properties(${name} PROPERTIES PREFIX "" SUFFIX ".o" LIBRARY_OUTPUT_DIRECTORY
                                                                 "${CMAKE_CURRENT_BINARY_DIR}/fatbin/${name}")
  install(TARGETS ${name} LIBRARY DESTINATION "fatbin/${name}")
endfunction()

function(ascendc_compile_definitions name)
  target_compile_definitions(${name} ${ARGN})
endfunction()
function(ascendc_compile_options name)
  target_compile_options(${name} ${ARGN})
endfunction()
function(ascendc_include_directories name)
  target_include_directories(${name} ${ARGN})
endfunction()
