// aclnnComplex (ops-math math/complex) and aclnnComplexV3 (experimental/math/complex_v3), issue 28:
// out = real + imag·j, built by storing the two parts side by side in each complex element (fp16
// parts into complex32, fp32 into complex64, fp64 into complex128); real and imag broadcast to
// out's shape. The simulator computes nothing on complex values; this only writes them, through
// two strided views of out's storage (its real and its imaginary halves). Cost: both parts read,
// out written, one pass. (ComplexV2's kernel writes 2n values into an out of n real elements:
// not provided.)
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_complex_v3.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The complex type whose parts have type `part`, or ACL_DT_UNDEFINED.
aclDataType complexOf(aclDataType part) {
  return part == ACL_FLOAT16  ? ACL_COMPLEX32
         : part == ACL_FLOAT  ? ACL_COMPLEX64
         : part == ACL_DOUBLE ? ACL_COMPLEX128
                              : ACL_DT_UNDEFINED;
}

class ComplexInstance : public OpInstanceBase<ComplexInstance> {
 public:
  aclDataType part = ACL_FLOAT;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& o = out[0];
    const int64_t n = o.numel();
    if (n == 0) return;
    for (int k = 0; k < 2; ++k) {  // k = 0: the real parts, 1: the imaginary parts
      std::vector<double> v = loadWide(in[static_cast<size_t>(k)], o.shape);
      HostTensor half = o;
      half.dtype = part;
      for (int64_t& s : half.strides) s *= 2;  // in parts, not complex elements
      half.data = o.data + k * dtypeSize(part);
      copyView(hostTensor(ACL_DOUBLE, o.shape, v.data()), half);
    }
  }
};

const OpInfo kComplex{
    "aclnnComplex", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}, "out = real + imag j"};
const OpInfo kComplexV3{"aclnnComplexV3", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "out = real + imag j"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kComplex), OpRegistrar(kComplexV3)};

int32_t build(const OpInfo& info, const char* api, const aclTensor* real, const aclTensor* imag,
              const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"real", real}, {"imag", imag}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"real", real}, {"imag", imag}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  for (auto [name, t] : {std::pair{"real", real}, {"imag", imag}}) {
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  const aclDataType part = real->desc.dtype;
  if (imag->desc.dtype != part || out->desc.dtype != complexOf(part)) {
    return fail(api, kErrParamInvalid,
                fmt::format("real ({}) and imag ({}) must have one type and out ({}) its complex type",
                            dtypeName(part), dtypeName(imag->desc.dtype), dtypeName(out->desc.dtype)));
  }
  std::vector<int64_t> shape;
  if (!broadcastShapes(real->desc.shape, imag->desc.shape, &shape)) {
    return fail(api, kErrParamInvalid,
                fmt::format("real {} and imag {} are not broadcastable", shapeString(real->desc.shape),
                            shapeString(imag->desc.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = std::make_unique<ComplexInstance>();
  inst->name = info.name;
  inst->part = part;
  addInput(*inst, "real", real);
  addInput(*inst, "imag", imag);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnComplexGetWorkspaceSize(const aclTensor* real, const aclTensor* imag,
                                                    aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kComplex, "aclnnComplexGetWorkspaceSize", real, imag, out, ws,
                              ex);
}
NPUSIM_ACLNN_PHASE2(Complex)

extern "C" aclnnStatus aclnnComplexV3GetWorkspaceSize(const aclTensor* real, const aclTensor* imag,
                                                      aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kComplexV3, "aclnnComplexV3GetWorkspaceSize", real, imag, out,
                              ws, ex);
}
NPUSIM_ACLNN_PHASE2(ComplexV3)
