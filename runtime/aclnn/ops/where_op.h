#pragma once
// The mask engine: out = condition ? a : b element by element, every operand broadcast to out's
// shape (aclnnSWhere, the masked fills), or, `consecutive`, the k-th true position takes the
// k-th element of `a` in row-major order (aclnnInplaceMaskedScatter). `a` may be a host scalar. Values are
// converted to out's type (through int64 for integer and bool outs, fp64 otherwise). Cost: every operand read
// once, out written once, one vector select pass.
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {

class WhereInstance : public OpInstanceBase<WhereInstance> {
 public:
  int condInput = 0;
  int trueInput = 1;  // -1: trueScalar
  int falseInput = 2;
  ScalarValue trueScalar;
  bool consecutive = false;  // the k-th true position takes element k of `a` (masked scatter)

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// The view `t` broadcast to `shape` (stride 0 along its size-1 and missing leading dimensions).
HostTensor broadcastView(const HostTensor& t, const std::vector<int64_t>& shape);

}  // namespace npusim::aclnn
