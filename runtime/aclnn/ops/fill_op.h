#pragma once
// Operators that write a linear sequence into their output and read nothing (aclnnInplaceZero,
// aclnnInplaceFillScalar, aclnnArange): out[i] = start + i * step in row-major order of out,
// computed in int64 when `integral`, else in fp64, and rounded once to out's type. Cost: one
// vector pass producing out and the MTE writes of out.
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {

class FillInstance : public OpInstanceBase<FillInstance> {
 public:
  bool integral = false;
  double start = 0, step = 0;
  int64_t startInt = 0, stepInt = 0;

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// A FillInstance writing `out` (in place: alias -1 as nothing is read).
std::unique_ptr<FillInstance> newFill(const char* opName, const char* outName, const aclTensor* out);

}  // namespace npusim::aclnn
