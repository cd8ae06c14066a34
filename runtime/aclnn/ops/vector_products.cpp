// Products of vectors (issue 28): aclnnDot / aclnnDotV2 (the sum of the products, on the pair
// reduction engine) and the outer products aclnnGer, aclnnGerV2, aclnnAddr, aclnnAddrV2 (on the
// pointwise engine, the vectors seen as an [n, 1] column and a [1, m] row). Definitions and types
// from ops-math math/dot, ger, addr docs and experimental/math/dot_v2, ger_v2, addr_v2.
#include <fmt/format.h>

#include <string>

#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_addr_v2.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_dot_v2.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_ger_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/pair_reduce_op.h"
#include "runtime/aclnn/ops/ternary_op.h"

namespace npusim::aclnn {
namespace {

double product(double a, double b) { return a * b; }
double outer(const double* x, size_t, const PointwiseParams&) { return x[0] * x[1]; }
// out = beta * self + alpha * vec1 * vec2; beta 0 ignores self (its NaN and inf too, as torch).
double addr(const double* x, size_t, const PointwiseParams& p) {
  return (p[0] == 0 ? 0 : p[0] * x[0]) + p[1] * x[1] * x[2];
}

const OpInfo kDot{"aclnnDot",
                  ExecUnit::kVector,
                  {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8},
                  "out = sum of self[i] * tensor[i]"};
const OpInfo kDotV2{"aclnnDotV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "y = sum of x1[i] * x2[i]"};
const std::vector<aclDataType> kOuterTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,
                                              ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8, ACL_BOOL};
const OpInfo kGer{"aclnnGer", ExecUnit::kVector, kOuterTypes, "out[i][j] = self[i] * vec2[j]"};
const OpInfo kGerV2{"aclnnGerV2",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT16},
                    "z[i][j] = A[i][j] + alpha * x[i] * y[j]"};
const OpInfo kAddr{"aclnnAddr", ExecUnit::kVector, kOuterTypes,
                   "out = beta * self + alpha * (vec1 outer vec2)"};
const OpInfo kAddrV2{"aclnnAddrV2", ExecUnit::kVector, kOuterTypes,
                     "out = beta * self + alpha * (vec1 outer vec2)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kDot),   OpRegistrar(kDotV2), OpRegistrar(kGer),
                                   OpRegistrar(kGerV2), OpRegistrar(kAddr),  OpRegistrar(kAddrV2)};

const TernaryDef kGerDef{&kGer, outer, 1};
const TernaryDef kGerV2Def{&kGerV2, addr, 3, nullptr, true};
const TernaryDef kAddrDef{&kAddr, addr, 3};
const TernaryDef kAddrV2Def{&kAddrV2, addr, 3};

// A 1-D tensor as a column [n, 1] (column) or a row [1, n] of a rank-2 result.
aclTensor asVector(const aclTensor* v, bool column) {
  aclTensor t{v->desc};
  const int64_t n = v->desc.shape[0], s = v->desc.strides[0];
  t.desc.shape = column ? std::vector<int64_t>{n, 1} : std::vector<int64_t>{1, n};
  t.desc.strides = column ? std::vector<int64_t>{s, 0} : std::vector<int64_t>{0, s};
  return t;
}

// Both vectors present and 1-D (the outer products' first check).
int32_t checkVectors(const char* api, const char* n1, const aclTensor* v1, const char* n2,
                     const aclTensor* v2) {
  if (v1 == nullptr || v2 == nullptr) {
    rt::chargeOpPrepare(api);
    return checkNotNull(api, {{n1, v1}, {n2, v2}});
  }
  for (auto [name, t] : {std::pair{n1, v1}, {n2, v2}}) {
    if (t->desc.shape.size() != 1) {
      rt::chargeOpPrepare(api);
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be 1-D, not {}", name, shapeString(t->desc.shape)));
    }
  }
  return kSuccess;
}

// beta and alpha default to 1 when absent.
int32_t buildAddr(const TernaryDef& def, const char* op, const aclTensor* self, const aclTensor* vec1,
                  const aclTensor* vec2, const aclScalar* beta, const aclScalar* alpha, const aclTensor* out,
                  bool inplace, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = std::string(op) + "GetWorkspaceSize";
  const int32_t st = checkVectors(api.c_str(), "vec1", vec1, "vec2", vec2);
  if (st != kSuccess) return st;
  const double b = beta == nullptr ? 1.0 : beta->value.toDouble(),
               a = alpha == nullptr ? 1.0 : alpha->value.toDouble();
  aclTensor col = asVector(vec1, true), row = asVector(vec2, false);
  const char* selfName = inplace ? "selfRef" : "self";
  return buildTernary(def,
                      {api.c_str(),
                       op,
                       {{selfName, self}, {"vec1", &col}, {"vec2", &row}},
                       inplace ? "selfRef" : "out",
                       out,
                       inplace,
                       {b, a},
                       fmt::format("beta={}, alpha={}", b, a)},
                      ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor,
                                                aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnDotGetWorkspaceSize";
  const int32_t st = checkVectors(api, "self", self, "tensor", tensor);
  if (st != kSuccess) return st;
  if (self->desc.shape != tensor->desc.shape) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("self {} and tensor {} must have one length", shapeString(self->desc.shape),
                            shapeString(tensor->desc.shape)));
  }
  return buildPairReduce({api, "aclnnDot", &kDot, product, 2, "self", self, "tensor", tensor, out,
                          PairReduction::kSum, true, false, ""},
                         ws, ex);
}
NPUSIM_ACLNN_PHASE2(Dot)

// x1 and x2 of any shapes with as many elements, taken in row-major order.
extern "C" aclnnStatus aclnnDotV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                  const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  return buildPairReduce({"aclnnDotV2GetWorkspaceSize", "aclnnDotV2", &kDotV2, product, 2, "x1", x1, "x2", x2,
                          y, PairReduction::kSum, true, true, ""},
                         ws, ex);
}
NPUSIM_ACLNN_PHASE2(DotV2)

extern "C" aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor* self, const aclTensor* vec2, aclTensor* out,
                                                uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnGerGetWorkspaceSize";
  const int32_t st = checkVectors(api, "self", self, "vec2", vec2);
  if (st != kSuccess) return st;
  aclTensor col = asVector(self, true), row = asVector(vec2, false);
  return buildTernary(kGerDef, {api, "aclnnGer", {{"self", &col}, {"vec2", &row}}, "out", out}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Ger)

// z = A + alpha * (x outer y): ger_v2's kernel (op_kernel/ger_v2.h) scales y by alpha, by x, adds A.
extern "C" aclnnStatus aclnnGerV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* A,
                                                  double alpha, const aclTensor* z, uint64_t* ws,
                                                  aclOpExecutor** ex) {
  const char* api = "aclnnGerV2GetWorkspaceSize";
  const int32_t st = checkVectors(api, "x", x, "y", y);
  if (st != kSuccess) return st;
  aclTensor col = asVector(x, true), row = asVector(y, false);
  return buildTernary(kGerV2Def,
                      {api,
                       "aclnnGerV2",
                       {{"A", A}, {"x", &col}, {"y", &row}},
                       "z",
                       z,
                       false,
                       {1.0, alpha},
                       fmt::format("alpha={}", alpha)},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(GerV2)

extern "C" aclnnStatus aclnnAddrGetWorkspaceSize(const aclTensor* self, const aclTensor* vec1,
                                                 const aclTensor* vec2, const aclScalar* betaOptional,
                                                 const aclScalar* alphaOptional, aclTensor* out, uint64_t* ws,
                                                 aclOpExecutor** ex) {
  return buildAddr(kAddrDef, "aclnnAddr", self, vec1, vec2, betaOptional, alphaOptional, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Addr)
extern "C" aclnnStatus aclnnInplaceAddrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* vec1,
                                                        const aclTensor* vec2, const aclScalar* betaOptional,
                                                        const aclScalar* alphaOptional, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  return buildAddr(kAddrDef, "aclnnInplaceAddr", selfRef, vec1, vec2, betaOptional, alphaOptional, selfRef,
                   true, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceAddr)

extern "C" aclnnStatus aclnnAddrV2GetWorkspaceSize(const aclTensor* self, const aclTensor* vec1,
                                                   const aclTensor* vec2, const aclScalar* betaOptional,
                                                   const aclScalar* alphaOptional, aclTensor* out,
                                                   uint64_t* ws, aclOpExecutor** ex) {
  return buildAddr(kAddrV2Def, "aclnnAddrV2", self, vec1, vec2, betaOptional, alphaOptional, out, false, ws,
                   ex);
}
NPUSIM_ACLNN_PHASE2(AddrV2)
extern "C" aclnnStatus aclnnInplaceAddrV2GetWorkspaceSize(aclTensor* selfRef, const aclTensor* vec1,
                                                          const aclTensor* vec2,
                                                          const aclScalar* betaOptional,
                                                          const aclScalar* alphaOptional, uint64_t* ws,
                                                          aclOpExecutor** ex) {
  return buildAddr(kAddrV2Def, "aclnnInplaceAddrV2", selfRef, vec1, vec2, betaOptional, alphaOptional,
                   selfRef, true, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceAddrV2)
