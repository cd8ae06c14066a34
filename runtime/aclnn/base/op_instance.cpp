#include "runtime/aclnn/base/op_instance.h"

#include <fmt/format.h>

namespace npusim::aclnn {

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostTensor hostTensor(aclDataType dtype, const std::vector<int64_t>& shape, void* data) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = contiguousStrides(shape);
  t.data = static_cast<char*>(data);
  return t;
}

std::string OpInstance::describe() const {
  std::string s;
  auto add = [&s](const std::string& part) {
    if (!s.empty()) s += ", ";
    s += part;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    add(fmt::format("{}={}", i < inputNames.size() ? inputNames[i] : "in" + std::to_string(i),
                    inputs[i].brief()));
  }
  if (!attrs.empty()) add(attrs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    add(fmt::format("{}={}", i < outputNames.size() ? outputNames[i] : "out" + std::to_string(i),
                    outputs[i].brief()));
  }
  return s;
}

bool OpInstance::hasWork() const {
  for (const TensorDesc& o : outputs) {
    if (o.numel() > 0) return true;
  }
  return false;
}

}  // namespace npusim::aclnn
