#pragma once
// aclnnReduceSum's functional kernel (exposed for tests on host buffers).
#include <vector>

#include "runtime/aclnn/base/op_instance.h"

namespace npusim::aclnn {

// Sums self over the dimensions with reduce[d] == true. Elements are first cast to `dtype`
// (as the device does), then accumulated: floating types in fp64 and rounded once to `dtype`,
// integers with wrap-around in `dtype`'s width, bool as logical or. out has self's shape with
// reduced dimensions removed, or kept with size 1 when keepDims.
void reduceSumKernel(const HostTensor& self, const std::vector<bool>& reduce, bool keepDims,
                     aclDataType dtype, const HostTensor& out);

}  // namespace npusim::aclnn
