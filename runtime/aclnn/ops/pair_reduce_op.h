#pragma once
// Reductions of an elementwise function of two tensors to one value (aclnnDot: the sum of the
// products; aclnnKlDiv: the sum or mean of its pointwise loss; issue 28), or that function itself
// (reduction "none"). The operands are broadcast to each other; the engine owns the checks of
// out's shape and the cost model (both operands streamed once, the small out written).
#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class PairReduction { kNone, kMean, kSum, kBatchMean };  // the aclnn loss codes 0, 1, 2, 3

struct PairReduceArgs {
  const char* api;     // phase-1 name
  const char* opName;  // phase-2 name
  const OpInfo* info;  // accepted types (operands and out)
  double (*f)(double a, double b);
  int passes;  // vector instructions per element
  const char* aName;
  const aclTensor* a;
  const char* bName;
  const aclTensor* b;
  const aclTensor* out;
  PairReduction reduction;
  bool sameTypes;  // a, b and out of one type
  bool flatten;    // a and b only need the same number of elements (their order)
  std::string attrs;
};

// Phase 1: checks, then an executor. The sum accumulates in fp64 and is rounded once (fp32 for
// the 16-bit types, as the device accumulates); integers keep exact sums. Reduced outs may be 0-d
// or hold one element; kNone writes the broadcast shape.
int32_t buildPairReduce(const PairReduceArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
