#pragma once
// aclnnRelu's functional kernel (exposed for tests on host buffers).
#include "runtime/aclnn/base/op_instance.h"

namespace npusim::aclnn {

// out = self > 0 ? self : 0 (NaN stays NaN); self and out have the same type and shape.
void reluKernel(const HostTensor& self, const HostTensor& out);

}  // namespace npusim::aclnn
