#pragma once
// Optimiser step operators (ops-nn optim/, experimental/optim/: aclnnApplyAdamD, aclnnApplyAdamW,
// aclnnApplyAdagradD, aclnnApplyGradientDescent, aclnnAdamApplyOne, ...): every output element is
// a function of the inputs' elements at the same index, an input being either of the first
// input's shape or a single value (the learning rate, the betas as one-element tensors) used for
// every element. An operator is its definition (accepted types, inputs, outputs, the step
// function); the engine owns the checks, the broadcast of one-element inputs, in-place outputs
// (an output that is an input, `varRef`) and the cost model (every input and output streamed
// once through the vector cores, with the step's vector passes).
#include <cstdint>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

struct OptimDef {
  const OpInfo* info;  // name and accepted element types (every tensor of the call shares one)
  // One element: in[k] is input k's value at this index (0 for an absent optional input),
  // attrs the call's host values (flags as 0/1), out[j] what output j gets. Computed in fp64,
  // rounded to fp32 (the kernels compute in fp32), stored in each output's type.
  void (*step)(const double* in, const double* attrs, double* out);
  int passes = 1;  // vector instructions per element (cost model)
};

struct OptimTensor {
  const char* name;
  const aclTensor* t;
  bool optional = false;  // may be nullptr (read as 0)
  // An input of a type of its own (a step count, int64 or fp32) instead of the operator's
  // shared type, of which the first element is used.
  std::vector<aclDataType> ownTypes = {};
};

struct OptimArgs {
  std::vector<OptimTensor> inputs;   // inputs[0] fixes the shape
  std::vector<double> attrs;         // host values of the call
  std::vector<OptimTensor> outputs;  // an output that is an input's aclTensor is written in place
};

// Phase 1: inputs and outputs non-null (161001) unless optional, of an accepted type shared by
// all (161002), each input of inputs[0]'s shape or one element, each output of inputs[0]'s shape.
int32_t buildOptim(const OptimDef& d, const char* api, const char* opName, const OptimArgs& a,
                   uint64_t* workspaceSize, aclOpExecutor** executor);

// The list operators (aclnnFusedSgd, aclnnFusedAdamw): one launch over the entries, each checked
// as one call of buildOptim (its own first input fixes its shape); `attrs` shared by all (the
// entries' own attrs are unused).
int32_t buildOptimList(const OptimDef& d, const char* api, const char* opName,
                       const std::vector<OptimArgs>& entries, const std::vector<double>& attrs,
                       uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
