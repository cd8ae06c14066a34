#pragma once
// Reductions over some dimensions of one tensor (aclnnMean, aclnnAmax, aclnnArgMax; the dims
// rule is shared with aclnnReduceSum): the dims check and out's shape, and one instance whose
// kernel reduces a dense copy of self. Cost: one streaming pass over self (plus `passes`
// extra vector passes), the small output written once.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// dims (every dimension when empty, unless `emptyMeansAll` is false) of a tensor of shape
// `shape`: reduce[d] marks the reduced ones and outShape is shape without them (with 1 for
// them when keepDims). A 0-d tensor accepts dim 0 and -1. 161002 for an out-of-range or
// repeated dim.
int32_t reduceDims(const char* api, const std::vector<int64_t>& shape, const std::vector<int64_t>& dims,
                   bool keepDims, std::vector<bool>* reduce, std::vector<int64_t>* outShape);

// For every element of a tensor of `shape` (row-major), the row-major index of its result
// among the kept dimensions (`group`), and its row-major position within its reduced group.
void groupIndex(const std::vector<int64_t>& shape, const std::vector<bool>& reduce,
                std::vector<int64_t>* group, std::vector<int64_t>* pos);

enum class ReduceKind { kMean, kMax, kArgMax };

class ReduceInstance : public OpInstanceBase<ReduceInstance> {
 public:
  ReduceKind kind = ReduceKind::kMean;
  std::vector<bool> reduce;          // per dimension of self
  aclDataType calcType = ACL_FLOAT;  // self is rounded to this type first (aclnnMean's dtype)
  int passes = 0;                    // extra vector passes (cost model)

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

struct ReduceApi {
  const char* api;     // phase-1 name, e.g. "aclnnAmaxGetWorkspaceSize"
  const char* opName;  // "aclnnAmax"
  const OpInfo* info;  // accepted types of self
  ReduceKind kind;
  int passes;
};

// Phase 1 after the operator's own checks of its out type: self's tensor and type checks,
// the dims, out's shape, then the executor.
int32_t buildReduce(const ReduceApi& a, const aclTensor* self, const std::vector<int64_t>& dims,
                    bool keepDims, aclDataType calcType, const aclTensor* out, std::string attrs,
                    uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
