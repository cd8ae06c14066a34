#pragma once
// An operator whose kernel needs whole tensors at once (sorts, gathers and scatters by index,
// per-row reductions: the MoE routing and quantisation families) and whose cost is one
// streaming pass: every input read once and every output written once through the vector
// cores' UB tiles, plus `vectorPasses` passes of vector work over the largest operand.
#include <functional>
#include <initializer_list>
#include <vector>

#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

class DenseKernelInstance : public OpInstanceBase<DenseKernelInstance> {
 public:
  using Kernel = std::function<void(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out)>;
  Kernel kernel;
  int vectorPasses = 1;

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    kernel(in, out);
  }
};

// Checks of one tensor argument: not null (161001), a valid view, an element type among
// `dtypes` and, if rank >= 0, that many dimensions (161002). The first failure is returned.
int32_t checkArg(const char* api, const char* name, const aclTensor* t,
                 std::initializer_list<aclDataType> dtypes, int rank = -1);

// 161002 unless `cond`, with `msg` as the reason.
int32_t require(const char* api, bool cond, const std::string& msg);

}  // namespace npusim::aclnn
