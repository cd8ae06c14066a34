// Vector norms and renorms on the norm engine (norm_op.h). ||v||_p = (sum |v_i|^p)^(1/p),
// max |v_i| for p = inf, min |v_i| for p = -inf, the count of non-zeros for p = 0.
//  - aclnnNorm, aclnnLinalgVectorNorm (ops-nn norm/lp_norm_v2): the norm over `dim` (all
//    dimensions when empty), keepdim keeping them as 1; LinalgVectorNorm names out's type.
//  - aclnnLpNormV3 (experimental/norm/lp_norm_v3): y = x / norm, norm = (sum |x|^p + 1e-6)^(1/p)
//    (max or min |x| + 1e-6 for p = +-inf; 1e-6 is the kernel's epsilon) taken per index of
//    dimension `axis` over the other dimensions, or over all of x for axis -1.
//  - aclnnRenorm, aclnnInplaceRenorm (norm/renorm), aclnnRenormV2 (experimental/norm/renorm_v2):
//    each slice x.select(dim, i) whose p-norm exceeds maxNorm is scaled by maxNorm/(norm + 1e-7).
//  - aclnnEmbeddingRenorm (norm/renorm): the same for the rows of the 2-D selfRef that indices
//    names (each row once), in place.
// fp32, fp16, bf16; computed in fp64.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "aclnnop/aclnn_embedding_renorm.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_lp_norm_v3.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_renorm.h"
#include "aclnnop/aclnn_renorm_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kNorm{"aclnnNorm", ExecUnit::kVector, kNormFloats, "out = (sum |x|^p)^(1/p) over dim"};
const OpInfo kLinalg{"aclnnLinalgVectorNorm", ExecUnit::kVector, kNormFloats,
                     "out = (sum |x|^ord)^(1/ord) over dims"};
const OpInfo kLpV3{"aclnnLpNormV3", ExecUnit::kVector, kNormFloats,
                   "y = x / (sum |x|^p + eps)^(1/p) per axis index"};
const OpInfo kRenorm{"aclnnRenorm", ExecUnit::kVector, kNormFloats,
                     "out_i = ||x_i||_p > maxNorm ? x_i * maxNorm / (||x_i||_p + 1e-7) : x_i"};
const OpInfo kInplaceRenorm{"aclnnInplaceRenorm", ExecUnit::kVector, kNormFloats, kRenorm.formula};
const OpInfo kRenormV2{"aclnnRenormV2", ExecUnit::kVector, kNormFloats, kRenorm.formula};
const OpInfo kEmbRenorm{"aclnnEmbeddingRenorm", ExecUnit::kVector, kNormFloats,
                        "self[i] *= maxNorm / (||self[i]||_p + 1e-7) for the indexed rows over maxNorm"};
const OpRegistrar kRegs[] = {OpRegistrar(kNorm),     OpRegistrar(kLinalg),        OpRegistrar(kLpV3),
                             OpRegistrar(kRenorm),   OpRegistrar(kInplaceRenorm), OpRegistrar(kRenormV2),
                             OpRegistrar(kEmbRenorm)};

constexpr double kRenormEps = 1e-7;  // as the renorm documentation's formula
constexpr double kLpV3Eps = 1e-6;    // experimental lp_norm_v3 op_kernel/lp_norm_v3.h epsilon

// Accumulates |v|^p (or the max, min, non-zero count) of a group of values.
struct PNorm {
  double p;
  double init() const {
    if (std::isinf(p)) return p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return 0.0;
  }
  double add(double acc, double v) const {
    const double a = std::fabs(v);
    if (std::isinf(p)) return p > 0 ? std::max(acc, a) : std::min(acc, a);
    if (p == 0) return acc + (a != 0.0 ? 1.0 : 0.0);
    return acc + std::pow(a, p);
  }
  double finish(double acc) const { return (std::isinf(p) || p == 0) ? acc : std::pow(acc, 1.0 / p); }
};

// Output index of element e when the dimensions in `reduced` are dropped (row-major).
struct Reducer {
  std::vector<int64_t> shape;
  std::vector<bool> reduced;
  size_t of(size_t e) const {
    size_t out = 0, mul = 1;
    int64_t rest = static_cast<int64_t>(e);
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t i = rest % shape[d];
      rest /= shape[d];
      if (!reduced[d]) {
        out += static_cast<size_t>(i) * mul;
        mul *= static_cast<size_t>(shape[d]);
      }
    }
    return out;
  }
};

std::vector<double> groupNorms(const std::vector<double>& x, const Reducer& r, size_t groups,
                               const PNorm& pn) {
  std::vector<double> acc(groups, pn.init());
  for (size_t e = 0; e < x.size(); ++e) acc[r.of(e)] = pn.add(acc[r.of(e)], x[e]);
  for (double& a : acc) a = pn.finish(a);
  return acc;
}

// A reducer keeping only dimension `dim` (one group per index along it).
Reducer keepOnly(const std::vector<int64_t>& shape, size_t dim) {
  Reducer r{shape, std::vector<bool>(shape.size(), true)};
  r.reduced[dim] = false;
  return r;
}

int32_t vectorNorm(const char* api, const OpInfo& info, const aclTensor* self, double p,
                   const aclIntArray* dims, bool keepdim, const aclTensor* out, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  const NormArg sA{"self", self}, oA{"out", out};
  int32_t st = checkNormArgs(api, {sA, oA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info, {sA, oA})) != kSuccess) return st;
  const std::vector<int64_t>& xs = self->desc.shape;
  Reducer r{xs, std::vector<bool>(xs.size(), dims == nullptr || dims->values.empty())};
  if (dims != nullptr) {
    for (int64_t d : dims->values) {
      const int64_t w = wrapDim(d, xs.size());
      if (w < 0 || r.reduced[static_cast<size_t>(w)]) {
        return fail(api, kErrParamInvalid,
                    fmt::format("dim {} is out of range for {} dimensions or repeated", d, xs.size()));
      }
      r.reduced[static_cast<size_t>(w)] = true;
    }
  }
  std::vector<int64_t> os;
  for (size_t d = 0; d < xs.size(); ++d) {
    if (!r.reduced[d]) {
      os.push_back(xs[d]);
    } else if (keepdim) {
      os.push_back(1);
    }
  }
  if ((st = checkArgShape(api, oA, os)) != kSuccess) return st;
  const size_t groups = static_cast<size_t>(out->desc.numel());
  auto kernel = [r, groups, p](const NormIo& io) {
    io.store("out", groupNorms(io.load("self"), r, groups, {p}));
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 2);
  inst->input("self", self);
  inst->output("out", out);
  inst->attrs = fmt::format("p={}, dim={}, keepdim={}", p, dims ? shapeString(dims->values) : "[]", keepdim);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

// Renorm of the slices along `dim` (in place when `inplace`).
int32_t renorm(const char* api, const OpInfo& info, const aclTensor* self, double p, int64_t dim,
               double maxNorm, const aclTensor* out, bool inplace, uint64_t* workspaceSize,
               aclOpExecutor** executor) {
  const NormArg sA{inplace ? "selfRef" : "self", self}, oA{"out", out};
  int32_t st = checkNormArgs(api, {sA, oA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info, {sA, oA})) != kSuccess) return st;
  if ((st = checkArgShape(api, oA, self->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t>& xs = self->desc.shape;
  const int64_t d = wrapDim(dim, xs.size());
  if (d < 0)
    return fail(api, kErrParamInvalid,
                fmt::format("dim {} is out of range for {} dimensions", dim, xs.size()));
  if (!(p > 0) || maxNorm < 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("p ({}) must be positive and maxNorm ({}) not negative", p, maxNorm));
  }
  const Reducer r = keepOnly(xs, static_cast<size_t>(d));
  const size_t groups = static_cast<size_t>(xs[static_cast<size_t>(d)]);
  auto kernel = [r, groups, p, maxNorm](const NormIo& io) {
    std::vector<double> x = io.load("self");
    const std::vector<double> n = groupNorms(x, r, groups, {p});
    for (size_t e = 0; e < x.size(); ++e) {
      const double nv = n[r.of(e)];
      if (nv > maxNorm) x[e] *= maxNorm / (nv + kRenormEps);
    }
    io.store("out", x);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 3);
  inst->input("self", self);
  inst->output("out", out, inplace ? 0 : -1);
  inst->attrs = fmt::format("p={}, dim={}, maxNorm={}", p, dim, maxNorm);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

int32_t scalarArg(const char* api, const char* name, const aclScalar* s, double* v) {
  if (s == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} must not be null", name));
  *v = s->value.toDouble();
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;  // NOLINT: the entry points below are this file's whole surface

extern "C" aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                 const aclIntArray* dim, bool keepdim, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  double p = 2.0;
  if (pScalar != nullptr) p = pScalar->value.toDouble();
  return vectorNorm(api, kNorm, self, p, dim, keepdim, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor* self, const aclScalar* ord,
                                                             const aclIntArray* dims, bool keepDims,
                                                             const aclDataType dtype, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  const char* api = "aclnnLinalgVectorNormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  double p = 0;
  if (int32_t st = scalarArg(api, "ord", ord, &p); st != kSuccess) return st;
  if (out != nullptr && out->desc.dtype != dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must be dtype {}", dtypeName(out->desc.dtype), dtypeName(dtype)));
  }
  return vectorNorm(api, kLinalg, self, p, dims, keepDims, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLpNormV3GetWorkspaceSize(const aclTensor* x, float p, int64_t axis,
                                                     const aclTensor* y, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnLpNormV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x", x}, yA{"y", y};
  int32_t st = checkNormArgs(api, {xA, yA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kLpV3, {xA, yA})) != kSuccess) return st;
  if ((st = checkSameType(api, {xA, yA})) != kSuccess) return st;
  if ((st = checkArgShape(api, yA, x->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t>& xs = x->desc.shape;
  if (axis < -1 || axis >= static_cast<int64_t>(xs.size()) || !(p > 0)) {
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} must be -1 (all) or a dimension of {}, p ({}) positive", axis,
                            shapeString(xs), p));
  }
  const Reducer r =
      axis < 0 ? Reducer{xs, std::vector<bool>(xs.size(), true)} : keepOnly(xs, static_cast<size_t>(axis));
  const size_t groups = axis < 0 ? 1 : static_cast<size_t>(xs[static_cast<size_t>(axis)]);
  const double pd = p;
  auto kernel = [r, groups, pd](const NormIo& io) {
    std::vector<double> v = io.load("x");
    const PNorm pn{pd};
    std::vector<double> acc(groups, pn.init());
    for (size_t e = 0; e < v.size(); ++e) acc[r.of(e)] = pn.add(acc[r.of(e)], v[e]);
    for (double& a : acc) a = pn.finish(a + kLpV3Eps);
    for (size_t e = 0; e < v.size(); ++e) v[e] /= acc[r.of(e)];
    io.store("y", v);
  };
  auto inst = std::make_unique<NormInstance>("aclnnLpNormV3", kernel, 3);
  inst->input("x", x);
  inst->output("y", y);
  inst->attrs = fmt::format("p={}, axis={}", p, axis);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnRenormGetWorkspaceSize(const aclTensor* self, const aclScalar* p, int64_t dim,
                                                   const aclScalar* maxNorm, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRenormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  double pv = 0, mv = 0;
  if (int32_t st = scalarArg(api, "p", p, &pv); st != kSuccess) return st;
  if (int32_t st = scalarArg(api, "maxNorm", maxNorm, &mv); st != kSuccess) return st;
  return renorm(api, kRenorm, self, pv, dim, mv, out, false, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceRenormGetWorkspaceSize(aclTensor* selfRef, const aclScalar* p, int64_t dim,
                                                          const aclScalar* maxNorm, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  const char* api = "aclnnInplaceRenormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  double pv = 0, mv = 0;
  if (int32_t st = scalarArg(api, "p", p, &pv); st != kSuccess) return st;
  if (int32_t st = scalarArg(api, "maxNorm", maxNorm, &mv); st != kSuccess) return st;
  return renorm(api, kInplaceRenorm, selfRef, pv, dim, mv, selfRef, true, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnRenormV2GetWorkspaceSize(const aclTensor* x, float p, int64_t dim, float maxNorm,
                                                     const aclTensor* y, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnRenormV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  return renorm(api, kRenormV2, x, p, dim, maxNorm, y, false, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnEmbeddingRenormGetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices,
                                                            double maxNorm, double normType,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api = "aclnnEmbeddingRenormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg sA{"selfRef", selfRef}, iA{"indices", indices};
  int32_t st = checkNormArgs(api, {sA, iA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kEmbRenorm, {sA})) != kSuccess) return st;
  if ((st = checkTypeIn(api, iA, {ACL_INT32, ACL_INT64})) != kSuccess) return st;
  const std::vector<int64_t>& xs = selfRef->desc.shape;
  if (xs.size() != 2)
    return fail(api, kErrParamInvalid, fmt::format("selfRef must be 2-D, but is {}", shapeString(xs)));
  if (!(normType > 0) || maxNorm < 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("normType ({}) must be positive and maxNorm ({}) not negative", normType, maxNorm));
  }
  const int64_t rows = xs[0], cols = xs[1];
  auto kernel = [rows, cols, maxNorm, normType](const NormIo& io) {
    std::vector<double> x = io.load("self");
    const std::vector<double> idx = io.load("indices");
    const PNorm pn{normType};
    std::set<int64_t> seen;
    for (double fi : idx) {
      const int64_t r = static_cast<int64_t>(fi);
      if (r < 0 || r >= rows || !seen.insert(r).second) continue;  // out-of-range rows are left alone
      double acc = pn.init();
      for (int64_t c = 0; c < cols; ++c) acc = pn.add(acc, x[static_cast<size_t>(r * cols + c)]);
      const double n = pn.finish(acc);
      if (n > maxNorm) {
        for (int64_t c = 0; c < cols; ++c) x[static_cast<size_t>(r * cols + c)] *= maxNorm / (n + kRenormEps);
      }
    }
    io.store("selfOut", x);
  };
  auto inst = std::make_unique<NormInstance>("aclnnEmbeddingRenorm", kernel, 2);
  inst->input("self", selfRef);
  inst->input("indices", indices);
  inst->output("selfOut", selfRef, 0);
  inst->attrs = fmt::format("maxNorm={}, normType={}", maxNorm, normType);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Norm)
NPUSIM_ACLNN_PHASE2(LinalgVectorNorm)
NPUSIM_ACLNN_PHASE2(LpNormV3)
NPUSIM_ACLNN_PHASE2(Renorm)
NPUSIM_ACLNN_PHASE2(InplaceRenorm)
NPUSIM_ACLNN_PHASE2(RenormV2)
NPUSIM_ACLNN_PHASE2(EmbeddingRenorm)
