#pragma once
// The pointwise loss engine (aclnnMseLoss, aclnnL1LossBackward, aclnnBinaryCrossEntropy, ...):
// every operand is broadcast to one iteration shape, a term computes the operator's value(s)
// at each element from the operands' values and the scalar parameters, and the reduction
// either keeps the elements (none), or sums them / takes their mean into a one-element out
// (forward losses). Gradients keep their elements and are scaled by 1/N under mean, N being
// the number of elements of the loss they differentiate. The engine owns the checks (null
// pointers, types, broadcast, out shapes), strided views, absent optional operands and the
// cost model (every operand read once, outs written once, the term's vector passes).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class Reduction { kNone = 0, kMean = 1, kSum = 2, kBatchMean = 3 };  // batchmean: / shape[0]

using LossParams = std::array<double, 4>;

struct LossDef {
  const OpInfo* info;  // name, accepted floating types, formula
  // v: the operands' values at one element, in LossArgs::operands order; writes one value per out.
  void (*term)(const double* v, const LossParams& p, double* out);
  int passes;  // vector instructions per element (cost model)
};

struct LossOperand {
  const char* name;
  const aclTensor* tensor;  // null: absent, the term sees `absent` (only when optional)
  bool optional = false;
  double absent = 1;
};

struct LossArgs {
  const char* api;  // phase-1 name for messages
  std::vector<LossOperand> operands;
  std::vector<std::pair<const char*, const aclTensor*>> outs;
  Reduction reduction = Reduction::kNone;
  bool gradient = false;   // outs keep their elements; mean scales them by 1/N
  bool sameShape = false;  // the doc allows no broadcasting: every operand has out's shape
  LossParams params{};
  std::string attrs;  // shown in the trace
  // A var-like operand of rank r-1 matching the others' leading dims gets a trailing 1 (index
  // into operands, or -1): GaussianNllLoss's "var without the last dimension".
  int unsqueezeLast = -1;
  // Index into outs of a gradient out that may have a broadcast operand's shape (the same
  // trailing-1 rule applies): the elements broadcast onto one of its elements are summed.
  int sumOut = -1;
};

// 161002 unless `r` is 0 (none), 1 (mean) or 2 (sum).
int32_t lossReduction(const char* api, int64_t r, Reduction* out);
// The same for the string forms ("none", "mean", "sum"); null is 161001.
int32_t lossReduction(const char* api, const char* r, Reduction* out);

// Phase 1 of a pointwise loss: checks, then an executor computing def.
int32_t buildLoss(const LossDef& def, const LossArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
