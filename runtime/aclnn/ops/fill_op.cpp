#include "runtime/aclnn/ops/fill_op.h"

#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

rt::OpWork FillInstance::work() const {
  const std::vector<TensorDesc> none;
  return vectorTiles(VectorPass{&none, &outputs[0], outputs[0].numel(), 0});
}

void FillInstance::compute(const std::vector<HostTensor>&, const std::vector<HostTensor>& out) const {
  const auto n = static_cast<size_t>(out[0].numel());
  if (integral) {
    std::vector<int64_t> v(n);
    for (size_t i = 0; i < n; ++i) {  // wraps like the device's int64 adds
      v[i] = static_cast<int64_t>(static_cast<uint64_t>(startInt) +
                                  static_cast<uint64_t>(stepInt) * static_cast<uint64_t>(i));
    }
    storeDense(out[0], v.data());
  } else {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = start + static_cast<double>(i) * step;
    storeDense(out[0], v.data());
  }
}

std::unique_ptr<FillInstance> newFill(const char* opName, const char* outName, const aclTensor* out) {
  auto inst = std::make_unique<FillInstance>();
  inst->name = opName;
  addOutput(*inst, outName, out);
  return inst;
}

}  // namespace npusim::aclnn
