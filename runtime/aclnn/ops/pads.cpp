// The pad operators (ops-math conversion/pad_v3, mirror_pad, circular_pad, pad_v3_grad_replicate,
// pad_v3_grad_replication, pad_v4_grad, reflection_pad3d_grad, circular_pad_grad): each entry is
// its mode, its padded dimensions and the types its doc lists; pad_map.h does the rest.
#include <fmt/format.h>

#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad2d_backward.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_circular_pad3d_backward.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_pad2d_backward.h"
#include "aclnnop/aclnn_pad_v2.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad1d_backward.h"
#include "aclnnop/aclnn_reflection_pad1d_v2.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_reflection_pad3d_backward.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad1d_backward.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "aclnnop/aclnn_replication_pad3d_backward.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/pad_map.h"

namespace npusim::aclnn {
namespace {

// Types from the operators' docs (910B rows).
const std::vector<aclDataType> kAllTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                         ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const std::vector<aclDataType> kNumberTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                            ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};
const std::vector<aclDataType> kCircularTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32};
const std::vector<aclDataType> kGradTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

#define NPUSIM_PAD_INFO(Name, types, formula)                             \
  const OpInfo k##Name{"aclnn" #Name, ExecUnit::kVector, types, formula}; \
  const OpRegistrar k##Name##Registrar(k##Name);

NPUSIM_PAD_INFO(ConstantPadNd, kAllTypes, "out = self padded with value (negative pads crop)")
NPUSIM_PAD_INFO(ReflectionPad1d, kNumberTypes, "out = self mirrored at its edges along the last dim")
NPUSIM_PAD_INFO(ReflectionPad2d, kNumberTypes, "out = self mirrored at its edges along the last 2 dims")
NPUSIM_PAD_INFO(ReflectionPad3d, kNumberTypes, "out = self mirrored at its edges along the last 3 dims")
NPUSIM_PAD_INFO(ReplicationPad1d, kNumberTypes, "out = self with its edge repeated along the last dim")
NPUSIM_PAD_INFO(ReplicationPad2d, kNumberTypes, "out = self with its edge repeated along the last 2 dims")
NPUSIM_PAD_INFO(ReplicationPad3d, kNumberTypes, "out = self with its edge repeated along the last 3 dims")
NPUSIM_PAD_INFO(CircularPad2d, kCircularTypes, "out = self wrapped around along the last 2 dims")
NPUSIM_PAD_INFO(CircularPad3d, kCircularTypes, "out = self wrapped around along the last 3 dims")
NPUSIM_PAD_INFO(ReflectionPad1dBackward, kGradTypes, "gradInput = reflection pad's gradOutput summed back")
NPUSIM_PAD_INFO(ReflectionPad2dBackward, kGradTypes, "gradInput = reflection pad's gradOutput summed back")
NPUSIM_PAD_INFO(ReflectionPad3dBackward, kGradTypes, "gradInput = reflection pad's gradOutput summed back")
NPUSIM_PAD_INFO(ReplicationPad1dBackward, kGradTypes, "gradInput = replication pad's gradOutput summed back")
NPUSIM_PAD_INFO(ReplicationPad2dBackward, kGradTypes, "gradInput = replication pad's gradOutput summed back")
NPUSIM_PAD_INFO(ReplicationPad3dBackward, kGradTypes, "gradInput = replication pad's gradOutput summed back")
NPUSIM_PAD_INFO(CircularPad2dBackward, kGradTypes, "gradInput = circular pad's gradOutput summed back")
NPUSIM_PAD_INFO(CircularPad3dBackward, kGradTypes, "gradInput = circular pad's gradOutput summed back")
// experimental/math/reflection_pad1d_v2 (its op definition: FLOAT, FLOAT16, BF16).
NPUSIM_PAD_INFO(ReflectionPad1dV2, std::vector<aclDataType>({ACL_FLOAT, ACL_FLOAT16, ACL_BF16}),
                "out = self mirrored at its edges along the last dim")
// experimental/conversion/pad_v2 (its op definition: FLOAT, FLOAT16, INT16, INT32).
NPUSIM_PAD_INFO(PadV2, std::vector<aclDataType>({ACL_FLOAT, ACL_FLOAT16, ACL_INT16, ACL_INT32}),
                "y = x padded by pad0..pad7 ([before, after] of dims 0..3) with value (mode 0)")
#undef NPUSIM_PAD_INFO

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::PadMode;

// Entry points: aclnn<Name>GetWorkspaceSize and aclnn<Name> for a forward pad and a backward pad.
#define NPUSIM_PAD_FORWARD(Name, mode, dims)                                                              \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, \
                                                       aclTensor* out, uint64_t* workspaceSize,           \
                                                       aclOpExecutor** executor) {                        \
    return npusim::aclnn::padForward({"aclnn" #Name, mode, dims, &npusim::aclnn::k##Name}, self, padding, \
                                     nullptr, out, workspaceSize, executor);                              \
  }                                                                                                       \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_PAD_BACKWARD(Name, mode, dims)                                                               \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,  \
                                                       const aclIntArray* padding, aclTensor* gradInput,    \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return npusim::aclnn::padBackward({"aclnn" #Name, mode, dims, &npusim::aclnn::k##Name}, gradOutput,     \
                                      self, padding, gradInput, workspaceSize, executor);                   \
  }                                                                                                         \
  NPUSIM_ACLNN_PHASE2(Name)

extern "C" aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                                          const aclScalar* value, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::padForward(
      {"aclnnConstantPadNd", PadMode::kConstant, 0, &npusim::aclnn::kConstantPadNd}, self, pad, value, out,
      workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ConstantPadNd)

NPUSIM_PAD_FORWARD(ReflectionPad1d, PadMode::kReflect, 1)
NPUSIM_PAD_FORWARD(ReflectionPad2d, PadMode::kReflect, 2)
NPUSIM_PAD_FORWARD(ReflectionPad3d, PadMode::kReflect, 3)
NPUSIM_PAD_FORWARD(ReplicationPad1d, PadMode::kReplicate, 1)
NPUSIM_PAD_FORWARD(ReplicationPad2d, PadMode::kReplicate, 2)
NPUSIM_PAD_FORWARD(ReplicationPad3d, PadMode::kReplicate, 3)
NPUSIM_PAD_FORWARD(CircularPad2d, PadMode::kCircular, 2)
NPUSIM_PAD_FORWARD(CircularPad3d, PadMode::kCircular, 3)
NPUSIM_PAD_BACKWARD(ReflectionPad1dBackward, PadMode::kReflect, 1)
NPUSIM_PAD_BACKWARD(ReflectionPad2dBackward, PadMode::kReflect, 2)
NPUSIM_PAD_BACKWARD(ReflectionPad3dBackward, PadMode::kReflect, 3)
NPUSIM_PAD_BACKWARD(ReplicationPad1dBackward, PadMode::kReplicate, 1)
NPUSIM_PAD_BACKWARD(ReplicationPad2dBackward, PadMode::kReplicate, 2)
NPUSIM_PAD_BACKWARD(ReplicationPad3dBackward, PadMode::kReplicate, 3)
NPUSIM_PAD_BACKWARD(CircularPad2dBackward, PadMode::kCircular, 2)
NPUSIM_PAD_BACKWARD(CircularPad3dBackward, PadMode::kCircular, 3)

// The experimental variant also pads a 1-D self (its example's).
extern "C" aclnnStatus aclnnReflectionPad1dV2GetWorkspaceSize(const aclTensor* x, const aclIntArray* paddings,
                                                              const aclTensor* y, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return npusim::aclnn::padForward(
      {"aclnnReflectionPad1dV2", PadMode::kReflect, -1, &npusim::aclnn::kReflectionPad1dV2}, x, paddings,
      nullptr, const_cast<aclTensor*>(y), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ReflectionPad1dV2)

// The experimental PadV2: pads given per dimension from the first ([l0, r0, l1, r1, ...]); its
// kernel fills with `value` (mode 0, constant) and has no other mode.
extern "C" aclnnStatus aclnnPadV2GetWorkspaceSize(const aclTensor* x, int64_t mode, int64_t value,
                                                  int64_t pad0, int64_t pad1, int64_t pad2, int64_t pad3,
                                                  int64_t pad4, int64_t pad5, int64_t pad6, int64_t pad7,
                                                  const aclTensor* y, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnPadV2GetWorkspaceSize";
  if (mode != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("mode {} is not supported: the operator pads with a constant (mode 0)", mode));
  }
  const int64_t pads[8] = {pad0, pad1, pad2, pad3, pad4, pad5, pad6, pad7};
  const size_t r = x != nullptr ? x->desc.rank() : 0;
  if (r > 4) return fail(api, kErrParamInvalid, fmt::format("x has {} dimensions; the pads cover 4", r));
  aclIntArray padding;  // last dimension first, as padForward takes them
  for (size_t d = r; d-- > 0;) {
    padding.values.push_back(pads[2 * d]);
    padding.values.push_back(pads[2 * d + 1]);
  }
  aclScalar fill{int64Scalar(value)};
  return padForward({"aclnnPadV2", PadMode::kConstant, 0, &kPadV2}, x, &padding, &fill,
                    const_cast<aclTensor*>(y), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(PadV2)
