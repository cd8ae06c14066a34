// The cost model and argument checks of DenseKernelInstance (see dense_kernel_op.h).
#include "runtime/aclnn/ops/dense_kernel_op.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

rt::OpWork DenseKernelInstance::work() const {
  // The largest output carries the tiling; the others are written beside it.
  size_t main = 0;
  uint64_t otherBytes = 0;
  int64_t elements = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].numel() > outputs[main].numel()) main = i;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    elements = std::max(elements, outputs[i].numel());
    if (i != main) otherBytes += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
  }
  for (const TensorDesc& in : inputs) elements = std::max(elements, in.numel());
  // Inputs as large as the iteration space stream through the vector unit element by element;
  // smaller ones (indices, scales) are read whole beside them. Without such an input (a gather
  // whose output is larger than its source), the largest input is the streamed one, so the
  // tiles' reads start at a real operand.
  size_t largest = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].numel() > inputs[largest].numel()) largest = i;
  }
  std::vector<TensorDesc> streamed;
  uint64_t wholeBytes = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].numel() == elements || (i == largest && inputs[i].numel() < elements)) {
      streamed.push_back(inputs[i]);
    } else {
      wholeBytes += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    }
  }
  VectorPass pass{&streamed, &outputs[main], elements, std::max(0, vectorPasses - 1)};
  pass.extraWriteBytes = otherBytes;
  pass.extraReadBytes = wholeBytes;
  return vectorTiles(pass);
}

int32_t checkArg(const char* api, const char* name, const aclTensor* t,
                 std::initializer_list<aclDataType> dtypes, int rank) {
  if (t == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} is null", name));
  int32_t st = checkTensor(api, name, t->desc);
  if (st != kSuccess) return st;
  if (std::find(dtypes.begin(), dtypes.end(), t->desc.dtype) == dtypes.end()) {
    std::string allowed;
    for (aclDataType dt : dtypes) {
      if (!allowed.empty()) allowed += ", ";
      allowed += dtypeName(dt);
    }
    return fail(api, kErrParamInvalid,
                fmt::format("{} has type {}; accepted: {}", name, dtypeName(t->desc.dtype), allowed));
  }
  if (rank >= 0 && t->desc.rank() != static_cast<size_t>(rank)) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have {} dimensions, has {}", name, rank, t->desc.rank()));
  }
  return kSuccess;
}

int32_t require(const char* api, bool cond, const std::string& msg) {
  return cond ? kSuccess : fail(api, kErrParamInvalid, msg);
}

}  // namespace npusim::aclnn
