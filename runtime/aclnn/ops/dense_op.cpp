#include "runtime/aclnn/ops/dense_op.h"

#include <algorithm>

#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

rt::OpWork DenseInstance::work() const {
  int64_t n = outputs[0].numel();
  for (const TensorDesc& d : inputs) n = std::max(n, d.numel());
  uint64_t extra = 0;
  for (size_t i = 1; i < outputs.size(); ++i)
    extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
  return vectorTiles(VectorPass{&inputs, &outputs[0], n, passes, extra});
}

void DenseInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  bool any = false;
  for (const HostTensor& o : out) any = any || o.numel() > 0;
  if (any) kernel(in, out);
}

std::unique_ptr<DenseInstance> newDense(const OpInfo& info, DenseKernel kernel, int passes) {
  auto inst = std::make_unique<DenseInstance>();
  inst->name = info.name;
  inst->kernel = std::move(kernel);
  inst->passes = passes;
  return inst;
}

HostTensor complexParts(const HostTensor& t) {
  HostTensor v = t;
  v.dtype = t.dtype == ACL_COMPLEX32 ? ACL_FLOAT16 : t.dtype == ACL_COMPLEX128 ? ACL_DOUBLE : ACL_FLOAT;
  for (int64_t& s : v.strides) s *= 2;
  v.shape.push_back(2);
  v.strides.push_back(1);
  return v;
}

}  // namespace npusim::aclnn
