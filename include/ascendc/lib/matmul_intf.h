#ifndef NPUSIM_ASCENDC_MATMUL_INTF_H_
#define NPUSIM_ASCENDC_MATMUL_INTF_H_
// The Matmul API as a mixed kernel uses it (CANN's lib/matmul_intf.h): the kernel's own code is
// the vector cores' program, and its Matmul objects, registered with REGIST_MATMUL_OBJ, have the
// cube core do the products. On npusim the vector program runs the cube work itself (timed on its
// AI core's cube core, beside the vector programs) and the kernel becomes a mixed kernel: each block of its
// blockDim is one AI core, a cube core with its vector cores, and every vector program runs
// (docs/kernels.md, "Mixed kernels").
#define NPUSIM_MATMUL_MIXED 1
#include "lib/matrix/matmul/matmul.h"

namespace matmul {

inline void registerMatmuls(AscendC::TPipe*) {}
template <class MM, class... Rest>
void registerMatmuls(AscendC::TPipe* pipe, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
  if (tiling != nullptr) mm.Init(tiling, pipe);  // nullptr: the kernel calls Init itself
  registerMatmuls(pipe, rest...);
}
template <class... Objects>
void registerMatmulObjects(AscendC::TPipe* pipe, GM_ADDR /*workspace*/, Objects&&... objects) {
  static_assert(sizeof...(Objects) % 2 == 0,
                "REGIST_MATMUL_OBJ takes pairs of a Matmul object and its tiling");
  npusimKernelMixed();
  registerMatmuls(pipe, objects...);
}

}  // namespace matmul

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...])
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
  ::matmul::registerMatmulObjects(tpipe, workspace, __VA_ARGS__)

#endif  // NPUSIM_ASCENDC_MATMUL_INTF_H_
