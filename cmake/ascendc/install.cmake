# What CANN's kernel samples expect in an install (docs/kernels.md): ascendc.cmake where
# set_sample_env.sh looks for it, kernel_operator.h, bin/setenv.bash, and the runtime under
# lib64/ as libacl_rt.so as well as libascendcl.so.
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc.cmake ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc_filter.py
        ${CMAKE_SOURCE_DIR}/cmake/ascendc/ascendc_scalar.py
        DESTINATION tikcpp/ascendc_kernel_cmake)
configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendc/setenv.bash.in ${CMAKE_BINARY_DIR}/setenv.bash @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/setenv.bash DESTINATION bin)
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  if(NOT EXISTS \"\${root}/lib64\")
    file(CREATE_LINK ${CMAKE_INSTALL_LIBDIR} \"\${root}/lib64\" SYMBOLIC)
  endif()
  if(NOT EXISTS \"\${root}/${CMAKE_INSTALL_LIBDIR}/libacl_rt.so\")
    file(CREATE_LINK libascendcl.so \"\${root}/${CMAKE_INSTALL_LIBDIR}/libacl_rt.so\" SYMBOLIC)
  endif()
")
