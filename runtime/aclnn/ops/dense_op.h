#pragma once
// Operators whose data flow is not elementwise and that compute over dense copies of their
// operands (segment sums, bit packing, pairwise distances, the small linear algebra): the
// instance holds the operator's kernel; its cost is every input read and every output written
// once through the vector tiling, plus the kernel's vector passes.
#include <functional>
#include <memory>
#include <vector>

#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

using DenseKernel = std::function<void(const std::vector<HostTensor>&, const std::vector<HostTensor>&)>;

class DenseInstance : public OpInstanceBase<DenseInstance> {
 public:
  DenseKernel kernel;
  int passes = 0;  // vector passes beyond one (cost model)

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

std::unique_ptr<DenseInstance> newDense(const OpInfo& info, DenseKernel kernel, int passes);

// A complex tensor viewed as its parts' real type with a trailing dimension of 2 (real,
// imaginary), so the real loaders and storers read and write it.
HostTensor complexParts(const HostTensor& t);

}  // namespace npusim::aclnn
