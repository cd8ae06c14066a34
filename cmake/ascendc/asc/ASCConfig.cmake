# npusim's ASC package: the CMake language of Ascend C's `.asc` sources (docs/kernels.md).
#   find_package(ASC)
#   project(app LANGUAGES CXX ASC)
#   add_executable(app main.asc)        # kernels and host code in one file, launched with <<<>>>
# The language's compiler is npusim's ccec, which filters each source (launches, kernel entries,
# scalar-work counting) and compiles it with the host C++ compiler; programs link libascendcl.
get_filename_component(_asc_root "${CMAKE_CURRENT_LIST_DIR}/../../.." REALPATH)
list(APPEND CMAKE_MODULE_PATH "${_asc_root}/tikcpp/ascendc_kernel_cmake/asc")
set(ASC_ROOT "${_asc_root}")
set(ASC_FOUND TRUE)
