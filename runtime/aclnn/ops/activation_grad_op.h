#pragma once
// Gradients of the elementwise activations (aclnnSigmoidBackward, aclnnSiluBackward, ...):
// gradInput = gradOutput * f'(x) element by element, x being the forward input or output (as
// the operator defines it) and f' a function of x and up to four scalar parameters. The engine
// owns the checks (gradOutput and x promote to a floating type, their broadcast is gradInput's
// shape),
// strided views, the compute type (fp32, or fp64 for fp64 operands) and the cost model (both
// operands read, gradInput written, the derivative's vector passes).
#include <array>
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

using GradParams = std::array<double, 4>;

struct GradDef {
  const OpInfo* info;                            // name and accepted element types
  double (*deriv)(double x, const GradParams&);  // d out / d in at x
  int passes;                                    // vector instructions per element (cost model)
};

struct GradArgs {
  const char* api;         // phase-1 name for messages
  const char* gradName;    // "gradOutput"
  const char* xName;       // "self", "output", "result", ...
  const char* outName;     // "gradInput" or "out"
  GradParams params{};     // the operator's scalars, as doubles
  const char* attrs = "";  // shown in the trace
};

// Phase 1 of a gradient operator: checks, then an executor computing def over (grad, x).
int32_t buildActivationGrad(const GradDef& def, const GradArgs& a, const aclTensor* grad, const aclTensor* x,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
