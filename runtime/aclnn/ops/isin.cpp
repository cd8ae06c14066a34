// Membership tests (issue 28): aclnnIsInTensorScalar (ops-math math/equal: out = element ==
// testElement, != with invert, on the binary engine), aclnnIsInScalarTensor (out, 0-d = whether
// element equals any of testElements, negated by invert) and aclnnIsinPartV1 (experimental/math/
// isin_part_v1: the last step of isin over the sorted concatenation of elements and test
// elements: z[i] = whether original position i < elementsNum shares its value with a position at
// or past elementsNum). NaN equals nothing. assumeUnique changes no result. Cost: the inputs read
// once, the bool out written, two vector passes (compare, reduce or select).
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_isin_part_v1.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class IsinInstance : public OpInstanceBase<IsinInstance> {
 public:
  bool partV1 = false;  // IsinPartV1; else IsInScalarTensor
  double element = 0;   // IsInScalarTensor's element (as its type holds it)
  bool invert = false;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> v = loadWide(in[0], in[0].shape);
    if (!partV1) {
      bool found = false;
      for (double x : v) found = found || x == element;
      double r = found != invert ? 1 : 0;
      return copyView(hostTensor(ACL_DOUBLE, {}, &r), out[0]);
    }
    std::vector<int64_t> index(v.size());
    copyView(in[1], hostTensor(ACL_INT64, in[1].shape, index.data()));
    int64_t n = 0;
    copyView(in[2], hostTensor(ACL_INT64, in[2].shape, &n));  // one element
    std::vector<double> z(static_cast<size_t>(out[0].numel()), 0.0);
    for (size_t run = 0; run < v.size();) {  // runs of equal values (NaN equals nothing)
      size_t end = run + 1;
      while (end < v.size() && v[end] == v[run]) ++end;
      bool hasTest = false;
      for (size_t k = run; k < end; ++k) hasTest = hasTest || index[k] >= n;
      for (size_t k = run; k < end; ++k) {
        if (index[k] >= 0 && index[k] < n && index[k] < static_cast<int64_t>(z.size()))
          z[static_cast<size_t>(index[k])] = hasTest ? 1 : 0;
      }
      run = end;
    }
    copyView(hostTensor(ACL_DOUBLE, out[0].shape, z.data()), out[0]);
  }
};

const std::vector<aclDataType> kIsinTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT8,
                                             ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8};
// Bool is out's type (the binary engine checks out against the same list; element is checked
// against kIsinTypes first).
const OpInfo kIsInTensorScalar{"aclnnIsInTensorScalar",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32,
                                ACL_INT64, ACL_UINT8, ACL_BOOL},
                               "out = (element == testElement) xor invert"};
const OpInfo kIsInScalarTensor{"aclnnIsInScalarTensor", ExecUnit::kVector, kIsinTypes,
                               "out = (element in testElements) xor invert"};
const OpInfo kIsinPartV1{"aclnnIsinPartV1",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_INT32},
                         "z[i] = value of position i also at a position >= elementsNum"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kIsInTensorScalar), OpRegistrar(kIsInScalarTensor),
                                   OpRegistrar(kIsinPartV1)};

int32_t checkBoolOut(const char* api, const char* name, const aclTensor* out) {
  if (out->desc.dtype == ACL_BOOL) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("{} of type {} is not bool", name, dtypeName(out->desc.dtype)));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnIsInTensorScalarGetWorkspaceSize(const aclTensor* element,
                                                             const aclScalar* testElement, bool assumeUnique,
                                                             bool invert, aclTensor* out, uint64_t* ws,
                                                             aclOpExecutor** ex) {
  const char* api = "aclnnIsInTensorScalarGetWorkspaceSize";
  if (out != nullptr && out->desc.dtype != ACL_BOOL) {
    npusim::rt::chargeOpPrepare(api);
    return checkBoolOut(api, "out", out);
  }
  if (element != nullptr && element->desc.dtype == ACL_BOOL) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid, "element of type bool is not supported");
  }
  const int32_t st = buildBinaryScalar(
      {api, "aclnnIsInTensorScalar", &kIsInTensorScalar, invert ? BinaryKind::kNe : BinaryKind::kEq, false},
      element, testElement, nullptr, out, false, ws, ex);
  if (st == kSuccess) (*ex)->op->attrs += fmt::format(", assumeUnique={}, invert={}", assumeUnique, invert);
  return st;
}
NPUSIM_ACLNN_PHASE2(IsInTensorScalar)

extern "C" aclnnStatus aclnnIsInScalarTensorGetWorkspaceSize(const aclScalar* element,
                                                             const aclTensor* testElements, bool assumeUnique,
                                                             bool invert, aclTensor* out, uint64_t* ws,
                                                             aclOpExecutor** ex) {
  const char* api = "aclnnIsInScalarTensorGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"element", element}, {"testElements", testElements}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "testElements", testElements->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "testElements", testElements->desc.dtype, kIsInScalarTensor)) != kSuccess)
    return st;
  if ((st = checkBoolOut(api, "out", out)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, {})) != kSuccess) return st;
  auto inst = std::make_unique<IsinInstance>();
  inst->name = "aclnnIsInScalarTensor";
  inst->element = element->value.toDouble();
  inst->invert = invert;
  inst->attrs =
      fmt::format("element={}, assumeUnique={}, invert={}", element->value.str(), assumeUnique, invert);
  addInput(*inst, "testElements", testElements);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(IsInScalarTensor)

extern "C" aclnnStatus aclnnIsinPartV1GetWorkspaceSize(const aclTensor* value, const aclTensor* index,
                                                       const aclTensor* elementsNum, aclTensor* z,
                                                       uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnIsinPartV1GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"value", value}, {"index", index}, {"elementsNum", elementsNum}, {"z", z}});
  if (st != kSuccess) return st;
  for (auto [name, t] :
       {std::pair{"value", value}, {"index", index}, {"elementsNum", elementsNum}, {"z", z}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "value", value->desc.dtype, kIsinPartV1)) != kSuccess) return st;
  if (index->desc.dtype != ACL_INT32 || elementsNum->desc.dtype != ACL_INT32) {
    return fail(api, kErrParamInvalid, "index and elementsNum must be int32");
  }
  if (value->desc.shape.size() != 1 || index->desc.shape != value->desc.shape ||
      elementsNum->desc.numel() != 1 || z->desc.shape.size() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("value {} and index {} must be 1-D of one length, elementsNum one element, z 1-D",
                            shapeString(value->desc.shape), shapeString(index->desc.shape)));
  }
  if ((st = checkBoolOut(api, "z", z)) != kSuccess) return st;
  auto inst = std::make_unique<IsinInstance>();
  inst->name = "aclnnIsinPartV1";
  inst->partV1 = true;
  addInput(*inst, "value", value);
  addInput(*inst, "index", index);
  addInput(*inst, "elementsNum", elementsNum);
  addOutput(*inst, "z", z);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(IsinPartV1)
