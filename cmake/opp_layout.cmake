# What the operator repositories' example builds expect of an install (docs/operators.md,
# "Public examples"): ops-nn and ops-transformer add -I ${ASCEND_OPP_PATH}/include/aclnnop and
# -L ${ASCEND_OPP_PATH}/lib64 (ASCEND_OPP_PATH is <install>/opp, set by set_env.sh); the
# experimental examples of all three build as custom packages (`--run_example <op> eager cust`),
# which add -I <install>/include/aclnnop (so `#include "aclnn_zero.h"` resolves),
# -I/-L <install>/opp/vendors/custom_<repo>/op_api/{include,lib} (include holding the package's
# aclnn_*.h, as ops-transformer's custom examples need) and link -lcust_opapi.
# Every one of these names resolves to npusim's headers and libopapi.so.
function(npusim_install_opp_layout)
  install(CODE "
    set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
    file(MAKE_DIRECTORY \"\${root}/opp/include\")
    file(CREATE_LINK ../../include/aclnnop \"\${root}/opp/include/aclnnop\" SYMBOLIC)
    file(CREATE_LINK ../lib64 \"\${root}/opp/lib64\" SYMBOLIC)
    foreach(repo math nn transformer)
      set(api \"\${root}/opp/vendors/custom_\${repo}/op_api\")
      file(MAKE_DIRECTORY \"\${api}/include\" \"\${api}/lib\")
      file(CREATE_LINK ../../../../../lib64/libopapi.so \"\${api}/lib/libcust_opapi.so\" SYMBOLIC)
      file(GLOB headers RELATIVE \"\${root}/include/aclnnop\" \"\${root}/include/aclnnop/*.h\")
      foreach(h IN LISTS headers)  # a package's op_api/include holds its aclnn_*.h headers
        file(CREATE_LINK ../../../../../include/aclnnop/\${h} \"\${api}/include/\${h}\" SYMBOLIC)
      endforeach()
    endforeach()
  ")
endfunction()
