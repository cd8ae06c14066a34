# What CANN's kernel samples expect in an install (docs/kernels.md): ascendc.cmake where each
# generation's scripts look for it (tikcpp/, compiler/tikcpp/, tools/tikcpp/), kernel_operator.h,
# bin/setenv.bash, the runtime under lib64/ as libacl_rt.so as well as libascendcl.so, the CCE
# compiler entry (ccec), the CPU debug package (tikicpulib), the ASC language's CMake modules and
# the older runtime/ and acllib/ layouts.
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc.cmake ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc_filter.py
        ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc_scalar.py
        DESTINATION tikcpp/ascendc_kernel_cmake)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/cmake/ascendc/ccec DESTINATION bin)
# The ASC language (.asc sources): find_package(ASC) puts its modules on CMAKE_MODULE_PATH.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/cmake/ascendc/asc/ DESTINATION tikcpp/ascendc_kernel_cmake/asc
        PATTERN ASCConfig.cmake EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ascendc/asc/ASCConfig.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ASC)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ascendc/tikicpulibConfig.cmake
        DESTINATION tools/tikicpulib/lib/cmake/tikicpulib)
configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendc/setenv.bash.in ${CMAKE_BINARY_DIR}/setenv.bash @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/setenv.bash DESTINATION bin)
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  # Each pair: a link and what it points to, relative to the link's directory.
  set(links
    lib64 ${CMAKE_INSTALL_LIBDIR}
    ${CMAKE_INSTALL_LIBDIR}/libacl_rt.so libascendcl.so
    compiler/tikcpp ../tikcpp
    tools/tikcpp ../tikcpp
    compiler/ccec_compiler/bin/ccec ../../../bin/ccec
    ccec_compiler/bin/ccec ../../bin/ccec
    ${CMAKE_HOST_SYSTEM_PROCESSOR}-linux/ccec_compiler/bin/bisheng ../../../bin/ccec
    tools/tikicpulib/lib/include ../../../include/ascendc
    ${CMAKE_INSTALL_LIBDIR}/cmake/tikicpulib ../../tools/tikicpulib/lib/cmake/tikicpulib
    runtime/include ../include
    runtime/lib64 ../${CMAKE_INSTALL_LIBDIR}
    acllib/include ../include
    acllib/lib64 ../${CMAKE_INSTALL_LIBDIR})
  while(links)
    list(POP_FRONT links link target)
    get_filename_component(dir \"\${root}/\${link}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${dir}\")
    if(NOT EXISTS \"\${root}/\${link}\" AND NOT IS_SYMLINK \"\${root}/\${link}\")
      file(CREATE_LINK \"\${target}\" \"\${root}/\${link}\" SYMBOLIC)
    endif()
  endwhile()
")
