# A CANN install splits the runtime over many shared libraries; programs name them in their link
# lines (-lacl_rt, .../lib64/libmsprofiler.so, ...). npusim has one implementation per layer, so each
# CANN name is a symbolic link to the npusim library that implements its calls. The linker reads the
# link's SONAME (libascendcl.so / libopapi.so), so a program that links only against a CANN name
# depends on the one implementation at run time and several names never load several copies.
#
#   libascendcl.so: runtime (acl_rt, acl_rt_impl), profiling (msprofiler, profapi, mstx: ms_tools_ext),
#                   dump (ascend_dump), data queues and channels (acl_tdt_*), dvpp memory (acl_dvpp),
#                   the bounded C string functions (c_sec, securec.h); and the names Ascend C
#                   sample builds put on their link lines without calling them (runtime,
#                   host_intf_pub, register, platform, ascendalog, and graph, which the first
#                   MatMul sample's tiling program links): a program calling one of their
#                   functions still fails to link, npusim has none of them; tiling_api, whose
#                   matmul_tiling classes libascendcl implements (tiling/tiling_api.h); and
#                   the CA model's runtime (runtime_camodel, pem_davinci), which the first
#                   samples' `-r sim` builds link to run kernels on CANN's simulator: npusim is
#                   the simulator there
#   libopapi.so:    operators, CANN's math/nn/transformer operator libraries and custom packages
set(NPUSIM_ASCENDCL_NAMES acl_rt acl_rt_impl msprofiler profapi ms_tools_ext ascend_dump acl_tdt_channel
                          acl_tdt_queue acl_dvpp c_sec runtime host_intf_pub tiling_api register platform
                          ascendalog graph runtime_camodel pem_davinci)
set(NPUSIM_OPAPI_NAMES opapi_math opapi_nn opapi_transformer cust_opapi)

# Links next to the built libraries, so tests link against CANN names exactly as programs do.
set(_npusim_links)
foreach(pair IN ITEMS ascendcl:NPUSIM_ASCENDCL_NAMES opapi:NPUSIM_OPAPI_NAMES)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 target)
  list(GET pair 1 var)
  foreach(name IN LISTS ${var})
    set(link ${CMAKE_BINARY_DIR}/cann_names/lib${name}.so)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/cann_names
      COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:${target}> ${link}
      VERBATIM)
    list(APPEND _npusim_links ${link})
  endforeach()
endforeach()

function(npusim_install_cann_library_names)
  # In the install the links are relative (the tree may move); lib64 is CANN's usual directory.
  set(libdir ${CMAKE_INSTALL_LIBDIR})
  install(CODE "
    set(dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${libdir}\")
    foreach(name ${NPUSIM_ASCENDCL_NAMES})
      file(CREATE_LINK libascendcl.so \"\${dir}/lib\${name}.so\" SYMBOLIC)
    endforeach()
    foreach(name ${NPUSIM_OPAPI_NAMES})
      file(CREATE_LINK libopapi.so \"\${dir}/lib\${name}.so\" SYMBOLIC)
    endforeach()
    if(NOT \"${libdir}\" STREQUAL \"lib64\" AND NOT EXISTS \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib64\")
      file(CREATE_LINK ${libdir} \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib64\" SYMBOLIC)
    endif()
  ")
endfunction()
