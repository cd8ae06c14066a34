#pragma once
// Data movement (aclnnCast, aclnnInplaceCopy, aclnnSlice, aclnnPermute, aclnnCat, aclnnSplit*):
// each is a list of copies from a strided view of an input to a view of an output, converting
// the element type and broadcasting the source. Phase 1 of each operator builds the views;
// the kernel and the cost model (MTE traffic through the vector cores) are shared.
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {

// dst = src (broadcast to dst's shape), converted element by element to dst's type. Integer
// and bool data go through int64, everything else through fp64 (exact for every source type).
void copyView(const HostTensor& src, const HostTensor& dst);

// inputs[i] is copied into outputs[i] for every i.
class CopyInstance : public OpInstanceBase<CopyInstance> {
 public:
  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// `t` restricted to [start, start + step * len) along `dim`.
TensorDesc sliceView(const TensorDesc& t, int64_t dim, int64_t start, int64_t len, int64_t step = 1);

}  // namespace npusim::aclnn
