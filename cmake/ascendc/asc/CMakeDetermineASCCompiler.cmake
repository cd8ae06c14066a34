# Finds the ASC compiler (npusim's ccec wrapper) and records it for the build tree.
get_filename_component(_asc_root "${CMAKE_CURRENT_LIST_DIR}/../../.." REALPATH)
if(NOT CMAKE_ASC_COMPILER)
  find_program(CMAKE_ASC_COMPILER NAMES ccec PATHS "${_asc_root}/bin" NO_DEFAULT_PATH)
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_COMPILER_ID "npusim")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
               ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
