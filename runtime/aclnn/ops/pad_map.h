#pragma once
// The pads (ops-math conversion/pad_v3, mirror_pad, circular_pad and their gradients) as maps
// of the gather-map engine: out[o] = self[i] with i = o - padBefore along every padded
// dimension, folded back into [0, n) by the mode, or the fill value (constant mode).
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class PadMode { kConstant, kReflect, kReplicate, kCircular };

// `padding` pairs (before, after) apply to the last dimensions of self, last first. spatialDims
// > 0: padding has 2*spatialDims entries and self has spatialDims+1 or spatialDims+2 dimensions
// (the 1d/2d/3d operators); 0: any even length up to 2*rank (ConstantPadNd); -1: 2 entries,
// self of 1 to 3 dimensions (ReflectionPad1dV2).
struct PadOp {
  const char* name;  // "aclnnReflectionPad2d"
  PadMode mode;
  int spatialDims;
  const OpInfo* info;
};

// out = pad(self); `value` is the constant mode's fill (may be null for the other modes).
int32_t padForward(const PadOp& op, const aclTensor* self, const aclIntArray* padding, const aclScalar* value,
                   aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

// gradInput[i] = sum of gradOutput[o] over the o that the forward pad copied from i.
int32_t padBackward(const PadOp& op, const aclTensor* gradOutput, const aclTensor* self,
                    const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize,
                    aclOpExecutor** executor);

}  // namespace npusim::aclnn
