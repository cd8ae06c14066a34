#pragma once
// What phase 1 of an operator produces and phase 2 launches: the operator's tensors (device
// descriptors), its tiling for the AI-core model and its functional kernel on host memory.
#include <memory>
#include <string>
#include <vector>

#include "runtime/aclnn/base/tensor.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

// A tensor view resolved to host memory: `data` is the address of the view's first element.
struct HostTensor {
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // elements
  char* data = nullptr;

  int64_t numel() const;
};

// Host view over contiguous host memory (tests and reference computations).
HostTensor hostTensor(aclDataType dtype, const std::vector<int64_t>& shape, void* data);

class OpInstance {
 public:
  virtual ~OpInstance() = default;
  virtual std::unique_ptr<OpInstance> clone() const = 0;
  // Tiles over the device addresses in inputs/outputs.
  virtual rt::OpWork work() const = 0;
  // Runs the operator; `in`/`out` correspond to inputs/outputs.
  virtual void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const = 0;
  // "self=[4,2] fp32, other=[4,2] fp32, alpha=1 fp32, out=[4,2] fp32" (trace arguments).
  virtual std::string describe() const;
  // Whether there is anything to launch (false for empty outputs).
  virtual bool hasWork() const;
  // Operators made of several launches on the stream (the mc2 family: a matmul, then a
  // collective) enqueue them themselves: phase 2 calls launchSteps instead of enqueueing work()
  // as one task. launchSteps returns an aclnn status and reports its own failures.
  virtual bool launchesSteps() const { return false; }
  virtual int32_t launchSteps(const char* /*api*/, void* /*workspace*/, aclrtStream /*stream*/) const {
    return 0;
  }

  std::string name;                // "aclnnAdd"
  std::vector<TensorDesc> inputs;  // in the operator's input index order
  std::vector<TensorDesc> outputs;
  std::vector<std::string> inputNames;   // "self", "other"
  std::vector<std::string> outputNames;  // "out"
  std::vector<int> outputAlias;          // per output: index of the input it aliases (in-place), or -1
  std::string attrs;                     // non-tensor arguments for describe(), e.g. "alpha=1 fp32"
};

// CRTP helper providing clone().
template <typename Derived>
class OpInstanceBase : public OpInstance {
 public:
  std::unique_ptr<OpInstance> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

}  // namespace npusim::aclnn
