#pragma once
// Gated linear units and their gradients (aclnnGlu, aclnnGeGlu, aclnnSwiGluGrad, aclnnSituGlu,
// aclnnGeluMul, ...): x is split along `dim` into halves; one half (`act`) goes through the
// gate function, the other (`lin`) multiplies it. The engine owns the split, the choice of the
// activated half, the checks (types, halves, out shapes), the kernel over dense copies and the
// cost model (x read, outputs written, the definition's vector passes); an operator is its
// element functions and its entry point.
#include <array>
#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

using GatedParams = std::array<double, 4>;

struct GatedDef {
  const OpInfo* info;
  // out = fwd(act, lin): the forward value of one pair.
  double (*fwd)(double act, double lin, const GatedParams& p);
  // d out / d act and d out / d lin of one pair (gradient operators), or nullptr.
  void (*bwd)(double act, double lin, const GatedParams& p, double* dAct, double* dLin) = nullptr;
  // The activated half alone (a second output such as GeGlu's outGelu), or nullptr.
  double (*gate)(double act, const GatedParams& p) = nullptr;
  int passes = 4;  // vector instructions per output element (cost model)
};

struct GatedArgs {
  const char* api;          // phase-1 name for messages
  const char* xName = "x";  // the input that is split
  const char* outName = "out";
  int64_t dim = -1;
  bool actFirst = true;  // the first half is the activated one
  GatedParams params{};
  std::string attrs = {};
  const char* gradName = nullptr;  // gradient operators: the incoming gradient (half shape)
  const aclTensor* grad = nullptr;
  const char* gateName = nullptr;  // forward operators with a second output (the gate alone)
  const aclTensor* gateOut = nullptr;
  // A further input read whole (cost) but recomputed from x (GeGluBackward's gelu), or a
  // one-element tensor whose value becomes params[0] (FatreluMul's threshold).
  const char* extraName = nullptr;
  const aclTensor* extra = nullptr;
  bool extraIsParam = false;
  bool interleaved = false;  // the halves are x's even and odd entries along dim (ClippedSwiglu)
  // An int64 tensor whose sum is the number of leading rows (the dims before dim) computed;
  // the rows after it are written as 0 (ClippedSwiglu's groupIndex), or nullptr.
  const aclTensor* groupIndex = nullptr;
};

// Phase 1: the forward form (out of x's shape with dim halved) or, when a.grad is set, the
// gradient form (grad of the halved shape, out of x's shape).
int32_t buildGated(const GatedDef& def, const GatedArgs& a, const aclTensor* x, const aclTensor* out,
                   uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
