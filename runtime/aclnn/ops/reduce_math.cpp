// Reductions of ops-math math/reduce_* and experimental/math/reduce_*_v2 (issue 28): All, Any,
// ReduceLogSum, LogSumExp, Max / Min (whole tensor), MaxV2, MeanV2, Amin, Aminmax(All, Dim),
// GlobalMaxPool, GlobalAveragePool, ReduceNansum, Prod(Dim), Std, StdMeanCorrection, Var,
// VarCorrection, VarMean, BatchNormStats and the experimental ReduceMax/Mean/Min/Prod/SumV2.
// The dims rule and grouping are the reduce engine's (reduce_op.h: reduceDims, groupIndex);
// each output is one fold of the group's values, accumulated in fp64 and rounded once into
// the output's type. Cost: one streaming pass over self plus the fold's vector passes, the
// small outputs written once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_aminmax_dim.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_global_max_pool.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_v2.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_max_v2.h"
#include "aclnnop/aclnn_reduce_mean_v2.h"
#include "aclnnop/aclnn_reduce_min_v2.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_reduce_prod_v2.h"
#include "aclnnop/aclnn_reduce_sum_v2.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/reduce_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

enum class Fold {
  kSum,
  kNanSum,
  kProd,
  kMin,
  kMax,
  kAll,
  kAny,
  kLogSum,
  kLogSumExp,
  kMean,
  kVar,
  kStd,
  kInvStd
};

// Vector passes of a fold beyond the streaming one (cost model).
int foldPasses(Fold f) {
  switch (f) {
    case Fold::kLogSumExp:
      return 4;  // max, subtract, exp, sum (then one ln per group)
    case Fold::kVar:
    case Fold::kStd:
    case Fold::kInvStd:
      return 3;  // mean, squared deviation, sum
    case Fold::kNanSum:
    case Fold::kLogSum:
      return 1;
    default:
      return 0;
  }
}

double foldGroup(Fold f, const std::vector<double>& v, int64_t correction, double eps) {
  const double n = static_cast<double>(v.size());
  switch (f) {
    case Fold::kSum:
    case Fold::kLogSum: {
      double s = 0;
      for (double x : v) s += x;
      return f == Fold::kSum ? s : std::log(s);
    }
    case Fold::kNanSum: {
      double s = 0;
      for (double x : v) s += std::isnan(x) ? 0 : x;
      return s;
    }
    case Fold::kProd: {
      double p = 1;
      for (double x : v) p *= x;
      return p;
    }
    case Fold::kMin:
    case Fold::kMax: {  // NaN wins
      double m = v[0];
      for (double x : v) {
        if (std::isnan(m)) break;
        if (std::isnan(x) || (f == Fold::kMin ? x < m : x > m)) m = x;
      }
      return m;
    }
    case Fold::kAll:
      return std::all_of(v.begin(), v.end(), [](double x) { return x != 0; }) ? 1 : 0;
    case Fold::kAny:
      return std::any_of(v.begin(), v.end(), [](double x) { return x != 0; }) ? 1 : 0;
    case Fold::kLogSumExp: {  // m + ln(sum(exp(x - m))), m the maximum; NaN and infinite m pass
      double m = -std::numeric_limits<double>::infinity();
      for (double x : v) m = std::isnan(x) || std::isnan(m) ? std::nan("") : std::max(m, x);
      if (std::isnan(m) || std::isinf(m)) return m;
      double s = 0;
      for (double x : v) s += std::exp(x - m);
      return m + std::log(s);
    }
    case Fold::kMean: {
      double s = 0;
      for (double x : v) s += x;
      return s / n;  // an empty group gives NaN, as torch
    }
    case Fold::kVar:
    case Fold::kStd:
    case Fold::kInvStd: {
      double s = 0;
      for (double x : v) s += x;
      const double mean = s / n;
      double q = 0;
      for (double x : v) q += (x - mean) * (x - mean);
      const double var = q / std::max(0.0, n - static_cast<double>(correction));
      return f == Fold::kVar ? var : f == Fold::kStd ? std::sqrt(var) : 1 / std::sqrt(var + eps);
    }
  }
  return 0;
}

class ReduceMathInstance : public OpInstanceBase<ReduceMathInstance> {
 public:
  std::vector<Fold> folds;                  // one per output
  std::vector<bool> reduce;                 // per dimension of self; none reduced: out = self (noop forms)
  int64_t correction = 0;                   // variance divisor n - correction
  double eps = 0;                           // BatchNormStats' invstd
  aclDataType calcType = ACL_DT_UNDEFINED;  // self rounded to this first (a dtype argument), if set

  rt::OpWork work() const override {
    int passes = 0;
    for (Fold f : folds) passes = std::max(passes, foldPasses(f));
    uint64_t extra = 0;
    for (size_t i = 1; i < outputs.size(); ++i)
      extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), passes, extra});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> x = loadDense<double>(in[0]);
    if (calcType != ACL_DT_UNDEFINED) quantizeRow(calcType, x.data(), static_cast<int64_t>(x.size()));
    std::vector<int64_t> group, pos;
    groupIndex(in[0].shape, reduce, &group, &pos);
    const auto groups = static_cast<size_t>(out[0].numel());
    std::vector<std::vector<double>> members(groups);
    for (size_t i = 0; i < x.size(); ++i) members[static_cast<size_t>(group[i])].push_back(x[i]);
    for (size_t k = 0; k < folds.size(); ++k) {
      std::vector<double> r(groups);
      for (size_t g = 0; g < groups; ++g) r[g] = foldGroup(folds[k], members[g], correction, eps);
      storeDense(out[k], r.data());
    }
  }
};

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kF32F16 = {ACL_FLOAT, ACL_FLOAT16};
const std::vector<aclDataType> kFloats64 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::vector<aclDataType> kReal = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};
const std::vector<aclDataType> kRealBool = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                            ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

// Accepted types from each operator's doc (ops-math math/<folder>/docs) or op definition.
const OpInfo kAll{"aclnnAll", ExecUnit::kVector, kRealBool, "out = all(self != 0) over dim"};
const OpInfo kAny{"aclnnAny", ExecUnit::kVector, kRealBool, "out = any(self != 0) over dim"};
const OpInfo kReduceLogSum{"aclnnReduceLogSum", ExecUnit::kVector, kFloats,
                           "reduce = ln(sum(data)) over axes"};
const OpInfo kLogSumExp{"aclnnLogSumExp", ExecUnit::kVector, kReal, "out = ln(sum(exp(self))) over dim"};
const OpInfo kMax{"aclnnMax", ExecUnit::kVector, kRealBool, "out = max(self), all elements"};
const OpInfo kMin{"aclnnMin", ExecUnit::kVector, kRealBool, "out = min(self), all elements"};
const OpInfo kMaxV2{"aclnnMaxV2", ExecUnit::kVector, kReal, "out = max(self) over dims"};
const OpInfo kMeanV2{"aclnnMeanV2", ExecUnit::kVector, kFloats64, "out = mean(self) over dim"};
const OpInfo kAmin{"aclnnAmin", ExecUnit::kVector, kRealBool, "out = min(self) over dim"};
const OpInfo kAminmax{"aclnnAminmax", ExecUnit::kVector, kReal, "minOut, maxOut = min, max(self) over dim"};
const OpInfo kAminmaxAll{"aclnnAminmaxAll", ExecUnit::kVector, kReal, "minOut, maxOut = min, max(self)"};
const OpInfo kAminmaxDim{"aclnnAminmaxDim", ExecUnit::kVector, kReal,
                         "minOut, maxOut = min, max(self) along dim"};
const OpInfo kGlobalMaxPool{"aclnnGlobalMaxPool", ExecUnit::kVector, kFloats,
                            "out = max(self) over the spatial dimensions (2 and on)"};
const OpInfo kGlobalAveragePool{"aclnnGlobalAveragePool", ExecUnit::kVector, kFloats64,
                                "out = mean(self) over the spatial dimensions (2 and on)"};
const OpInfo kReduceNansum{"aclnnReduceNansum", ExecUnit::kVector, kReal,
                           "out = sum(self, NaN as 0) over dim"};
const OpInfo kProd{"aclnnProd", ExecUnit::kVector, kRealBool, "out = prod(self), all elements"};
const OpInfo kProdDim{"aclnnProdDim", ExecUnit::kVector, kRealBool, "out = prod(self) along dim"};
const OpInfo kStd{"aclnnStd", ExecUnit::kVector, kFloats64,
                  "out = sqrt(sum((x - mean)^2) / (n - correction))"};
const OpInfo kStdMeanCorrection{"aclnnStdMeanCorrection", ExecUnit::kVector, kFloats64,
                                "stdOut, meanOut = std (correction), mean over dim"};
const OpInfo kVar{"aclnnVar", ExecUnit::kVector, kFloats64, "out = sum((x - mean)^2) / (n - unbiased)"};
const OpInfo kVarCorrection{"aclnnVarCorrection", ExecUnit::kVector, kFloats64,
                            "out = sum((x - mean)^2) / (n - correction)"};
const OpInfo kVarMean{"aclnnVarMean", ExecUnit::kVector, kFloats64,
                      "varOut, meanOut = var (correction), mean"};
const OpInfo kBatchNormStats{"aclnnBatchNormStats", ExecUnit::kVector, kFloats,
                             "mean, invstd = per channel (dim 1) mean, 1 / sqrt(biased var + eps)"};
const OpInfo kReduceMaxV2{"aclnnReduceMaxV2", ExecUnit::kVector, kF32F16, "y = max(x) along axes"};
const OpInfo kReduceMeanV2{"aclnnReduceMeanV2", ExecUnit::kVector, kF32F16, "y = mean(x) along axes"};
const OpInfo kReduceMinV2{"aclnnReduceMinV2", ExecUnit::kVector, kF32F16, "y = min(x) along axes"};
const OpInfo kReduceProdV2{"aclnnReduceProdV2", ExecUnit::kVector, kF32F16, "y = prod(x) along axes"};
const OpInfo kReduceSumV2{"aclnnReduceSumV2", ExecUnit::kVector, kF32F16, "y = sum(x) along axes"};

const OpRegistrar kRegistrars[] = {OpRegistrar(kAll),
                                   OpRegistrar(kAny),
                                   OpRegistrar(kReduceLogSum),
                                   OpRegistrar(kLogSumExp),
                                   OpRegistrar(kMax),
                                   OpRegistrar(kMin),
                                   OpRegistrar(kMaxV2),
                                   OpRegistrar(kMeanV2),
                                   OpRegistrar(kAmin),
                                   OpRegistrar(kAminmax),
                                   OpRegistrar(kAminmaxAll),
                                   OpRegistrar(kAminmaxDim),
                                   OpRegistrar(kGlobalMaxPool),
                                   OpRegistrar(kGlobalAveragePool),
                                   OpRegistrar(kReduceNansum),
                                   OpRegistrar(kProd),
                                   OpRegistrar(kProdDim),
                                   OpRegistrar(kStd),
                                   OpRegistrar(kStdMeanCorrection),
                                   OpRegistrar(kVar),
                                   OpRegistrar(kVarCorrection),
                                   OpRegistrar(kVarMean),
                                   OpRegistrar(kBatchNormStats),
                                   OpRegistrar(kReduceMaxV2),
                                   OpRegistrar(kReduceMeanV2),
                                   OpRegistrar(kReduceMinV2),
                                   OpRegistrar(kReduceProdV2),
                                   OpRegistrar(kReduceSumV2)};

// How an operator names and types its outputs.
struct OutSpec {
  const char* name;
  const aclTensor* t;
  Fold fold;
  // Accepted out types; empty: self's type (or a type self's casts to, for float folds).
  std::vector<aclDataType> types = {};
};

struct ReduceArgs {
  const OpInfo* info;
  const aclTensor* self;
  const char* selfName = "self";
  std::vector<int64_t> dims = {};  // empty: every dimension (unless noop)
  bool keepDims = false;
  bool noop = false;  // dims empty and the operator's noop flag: out = self
  int64_t correction = 0;
  double eps = 0;
  aclDataType calcType = ACL_DT_UNDEFINED;
  std::string attrs = {};
  bool wholeTensor = false;  // every element into one: out may be 0-d or [1] (the examples' [1])
};

std::vector<int64_t> dimsOf(const aclIntArray* a) {
  return a == nullptr ? std::vector<int64_t>{} : a->values;
}

bool isFloatFold(Fold f) { return f != Fold::kMin && f != Fold::kMax && f != Fold::kAll && f != Fold::kAny; }

int32_t buildReduceMath(const ReduceArgs& r, std::initializer_list<OutSpec> outs, uint64_t* ws,
                        aclOpExecutor** ex) {
  const std::string apiName = r.info->name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{r.selfName, r.self}});
  if (st != kSuccess) return st;
  for (const OutSpec& o : outs) {
    if ((st = checkNotNull(api, {{o.name, o.t}})) != kSuccess) return st;
  }
  if ((st = checkTensor(api, r.selfName, r.self->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, r.selfName, r.self->desc.dtype, *r.info)) != kSuccess) return st;
  std::vector<bool> reduce;
  std::vector<int64_t> expect;
  if (r.noop) {
    reduce.assign(r.self->desc.rank(), false);
    expect = r.self->desc.shape;
  } else if ((st = reduceDims(api, r.self->desc.shape, r.dims, r.keepDims, &reduce, &expect)) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<ReduceMathInstance>();
  inst->name = r.info->name;
  inst->reduce = reduce;
  inst->correction = r.correction;
  inst->eps = r.eps;
  inst->calcType = r.calcType;
  inst->attrs = r.attrs;
  addInput(*inst, r.selfName, r.self);
  const aclDataType sd = r.self->desc.dtype;
  for (const OutSpec& o : outs) {
    if ((st = checkTensor(api, o.name, o.t->desc)) != kSuccess) return st;
    const aclDataType od = o.t->desc.dtype;
    const bool typeOk =
        !o.types.empty() ? std::find(o.types.begin(), o.types.end(), od) != o.types.end()
        : isFloatFold(o.fold) && r.calcType == ACL_DT_UNDEFINED
            ? (isFloating(sd) ? od == sd : isFloating(od))
            : r.info->accepts(od) && canCast(r.calcType != ACL_DT_UNDEFINED ? r.calcType : sd, od);
    if (!typeOk) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} of type {} does not match {} of type {}", o.name, dtypeName(od), r.selfName,
                              dtypeName(sd)));
    }
    const bool oneElement = r.wholeTensor && o.t->desc.rank() == 1 && o.t->desc.shape[0] == 1;
    if (!oneElement && (st = checkShape(api, o.name, o.t->desc.shape, expect)) != kSuccess) return st;
    if ((o.fold == Fold::kMin || o.fold == Fold::kMax) && r.self->desc.numel() == 0 &&
        o.t->desc.numel() > 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} shape {} has an empty reduced dimension", r.selfName,
                              shapeString(r.self->desc.shape)));
    }
    inst->folds.push_back(o.fold);
    addOutput(*inst, o.name, o.t);
  }
  return makeExecutor(api, std::move(inst), ws, ex);
}

const std::vector<aclDataType> kBoolOut = {ACL_BOOL, ACL_UINT8};

// Dims 2, 3, ... of a tensor of `rank` (the global pools), kept as 1.
std::vector<int64_t> spatialDims(const aclTensor* t) {
  std::vector<int64_t> d;
  for (size_t i = 2; t != nullptr && i < t->desc.rank(); ++i) d.push_back(static_cast<int64_t>(i));
  return d;
}

// Every dimension except 1 (the channels), for BatchNormStats.
std::vector<int64_t> allButChannels(const aclTensor* t) {
  std::vector<int64_t> d;
  for (size_t i = 0; t != nullptr && i < t->desc.rank(); ++i)
    if (i != 1) d.push_back(static_cast<int64_t>(i));
  return d;
}

std::string dimsAttr(const std::vector<int64_t>& d, bool keep) {
  return fmt::format("dim=[{}], keepdim={}", fmt::join(d, ","), keep);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

extern "C" aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kAll, self, "self", d, keepdim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepdim)},
      {{"out", out, Fold::kAll, kBoolOut}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(All)
extern "C" aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kAny, self, "self", d, keepdim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepdim)},
      {{"out", out, Fold::kAny, kBoolOut}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Any)
extern "C" aclnnStatus aclnnReduceLogSumGetWorkspaceSize(const aclTensor* data, const aclIntArray* axes,
                                                         bool keepDims, bool noopWithEmptyAxes,
                                                         aclTensor* reduce, WS) {
  const auto d = dimsOf(axes);
  const bool noop = d.empty() && noopWithEmptyAxes;
  return buildReduceMath(
      {&kReduceLogSum, data, "data", d, keepDims, noop, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepDims)},
      {{"reduce", reduce, noop ? Fold::kSum : Fold::kLogSum}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ReduceLogSum)
extern "C" aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                      bool keepDim, aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kLogSumExp, self, "self", d, keepDim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepDim)},
      {{"out", out, Fold::kLogSumExp}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogSumExp)
extern "C" aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, WS) {
  ReduceArgs r{&kMax, self};
  r.wholeTensor = true;
  return buildReduceMath(r, {{"out", out, Fold::kMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Max)
extern "C" aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, WS) {
  ReduceArgs r{&kMin, self};
  r.wholeTensor = true;
  return buildReduceMath(r, {{"out", out, Fold::kMin}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Min)
extern "C" aclnnStatus aclnnMaxV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                  bool keepDims, bool noopWithEmptyDims, aclTensor* out, WS) {
  const auto d = dimsOf(dims);
  return buildReduceMath({&kMaxV2, self, "self", d, keepDims, d.empty() && noopWithEmptyDims, 0, 0,
                          ACL_DT_UNDEFINED, dimsAttr(d, keepDims)},
                         {{"out", out, Fold::kMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxV2)
extern "C" aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                   bool keepDim, bool noopWithEmptyAxes, aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  const bool noop = d.empty() && noopWithEmptyAxes;
  return buildReduceMath(
      {&kMeanV2, self, "self", d, keepDim, noop, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepDim)},
      {{"out", out, noop ? Fold::kSum : Fold::kMean}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MeanV2)
extern "C" aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kAmin, self, "self", d, keepDim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepDim)},
      {{"out", out, Fold::kMin}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Amin)
extern "C" aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                    bool keepDim, aclTensor* minOut, aclTensor* maxOut, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kAminmax, self, "self", d, keepDim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr(d, keepDim)},
      {{"minOut", minOut, Fold::kMin}, {"maxOut", maxOut, Fold::kMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Aminmax)
extern "C" aclnnStatus aclnnAminmaxAllGetWorkspaceSize(const aclTensor* self, aclTensor* minOut,
                                                       aclTensor* maxOut, WS) {
  ReduceArgs r{&kAminmaxAll, self};
  r.wholeTensor = true;
  return buildReduceMath(r, {{"minOut", minOut, Fold::kMin}, {"maxOut", maxOut, Fold::kMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AminmaxAll)
extern "C" aclnnStatus aclnnAminmaxDimGetWorkspaceSize(const aclTensor* self, const int64_t dim, bool keepDim,
                                                       aclTensor* minOut, aclTensor* maxOut, WS) {
  return buildReduceMath(
      {&kAminmaxDim, self, "self", {dim}, keepDim, false, 0, 0, ACL_DT_UNDEFINED, dimsAttr({dim}, keepDim)},
      {{"minOut", minOut, Fold::kMin}, {"maxOut", maxOut, Fold::kMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AminmaxDim)
extern "C" aclnnStatus aclnnGlobalMaxPoolGetWorkspaceSize(const aclTensor* self, aclTensor* out, WS) {
  if (self != nullptr && (self->desc.rank() < 3 || self->desc.rank() > 8)) {
    npusim::rt::chargeOpPrepare("aclnnGlobalMaxPoolGetWorkspaceSize");
    return fail("aclnnGlobalMaxPoolGetWorkspaceSize", kErrParamInvalid,
                fmt::format("self must have 3 to 8 dimensions, not {}", self->desc.rank()));
  }
  return buildReduceMath({&kGlobalMaxPool, self, "self", spatialDims(self), true}, {{"out", out, Fold::kMax}},
                         ws, ex);
}
NPUSIM_ACLNN_PHASE2(GlobalMaxPool)
extern "C" aclnnStatus aclnnGlobalAveragePoolGetWorkspaceSize(const aclTensor* self, aclTensor* out, WS) {
  if (self != nullptr && (self->desc.rank() < 3 || self->desc.rank() > 8)) {
    npusim::rt::chargeOpPrepare("aclnnGlobalAveragePoolGetWorkspaceSize");
    return fail("aclnnGlobalAveragePoolGetWorkspaceSize", kErrParamInvalid,
                fmt::format("self must have 3 to 8 dimensions, not {}", self->desc.rank()));
  }
  return buildReduceMath({&kGlobalAveragePool, self, "self", spatialDims(self), true},
                         {{"out", out, Fold::kMean}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GlobalAveragePool)
extern "C" aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                         bool keepDim, aclDataType dtype, aclTensor* out,
                                                         WS) {
  const auto d = dimsOf(dim);
  if (out != nullptr && out->desc.dtype != dtype) {
    npusim::rt::chargeOpPrepare("aclnnReduceNansumGetWorkspaceSize");
    return fail(
        "aclnnReduceNansumGetWorkspaceSize", kErrParamInvalid,
        fmt::format("dtype {} differs from out's type {}", dtypeName(dtype), dtypeName(out->desc.dtype)));
  }
  return buildReduceMath({&kReduceNansum, self, "self", d, keepDim, false, 0, 0, dtype, dimsAttr(d, keepDim)},
                         {{"out", out, Fold::kNanSum}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ReduceNansum)
extern "C" aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                                 aclTensor* out, WS) {
  ReduceArgs r{&kProd, self, "self", {}, false, false, 0, 0, dtype};
  r.wholeTensor = true;
  return buildReduceMath(r, {{"out", out, Fold::kProd}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Prod)
extern "C" aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                    const aclDataType dtype, aclTensor* out, WS) {
  return buildReduceMath(
      {&kProdDim, self, "self", {dim}, keepDim, false, 0, 0, dtype, dimsAttr({dim}, keepDim)},
      {{"out", out, Fold::kProd}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ProdDim)
extern "C" aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                const int64_t correction, bool keepdim, aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath({&kStd, self, "self", d, keepdim, false, correction, 0, ACL_DT_UNDEFINED,
                          dimsAttr(d, keepdim) + fmt::format(", correction={}", correction)},
                         {{"out", out, Fold::kStd}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Std)
extern "C" aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                              int64_t correction, bool keepdim,
                                                              aclTensor* stdOut, aclTensor* meanOut, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath(
      {&kStdMeanCorrection, self, "self", d, keepdim, false, correction, 0, ACL_DT_UNDEFINED,
       dimsAttr(d, keepdim) + fmt::format(", correction={}", correction)},
      {{"stdOut", stdOut, Fold::kStd}, {"meanOut", meanOut, Fold::kMean}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(StdMeanCorrection)
extern "C" aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool unbiased,
                                                bool keepdim, aclTensor* out, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath({&kVar, self, "self", d, keepdim, false, unbiased ? 1 : 0, 0, ACL_DT_UNDEFINED,
                          dimsAttr(d, keepdim) + fmt::format(", unbiased={}", unbiased)},
                         {{"out", out, Fold::kVar}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Var)
extern "C" aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                          int64_t correction, bool keepdim, aclTensor* out,
                                                          WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath({&kVarCorrection, self, "self", d, keepdim, false, correction, 0, ACL_DT_UNDEFINED,
                          dimsAttr(d, keepdim) + fmt::format(", correction={}", correction)},
                         {{"out", out, Fold::kVar}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(VarCorrection)
extern "C" aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                    int64_t correction, bool keepdim, aclTensor* varOut,
                                                    aclTensor* meanOut, WS) {
  const auto d = dimsOf(dim);
  return buildReduceMath({&kVarMean, self, "self", d, keepdim, false, correction, 0, ACL_DT_UNDEFINED,
                          dimsAttr(d, keepdim) + fmt::format(", correction={}", correction)},
                         {{"varOut", varOut, Fold::kVar}, {"meanOut", meanOut, Fold::kMean}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(VarMean)
extern "C" aclnnStatus aclnnBatchNormStatsGetWorkspaceSize(const aclTensor* input, double eps,
                                                           aclTensor* mean, aclTensor* invstd, WS) {
  if (input != nullptr && (input->desc.rank() < 2 || input->desc.rank() > 8)) {
    npusim::rt::chargeOpPrepare("aclnnBatchNormStatsGetWorkspaceSize");
    return fail("aclnnBatchNormStatsGetWorkspaceSize", kErrParamInvalid,
                fmt::format("input must have 2 to 8 dimensions, not {}", input->desc.rank()));
  }
  const std::vector<aclDataType> f32 = {ACL_FLOAT};
  return buildReduceMath({&kBatchNormStats, input, "input", allButChannels(input), false, false, 0, eps,
                          ACL_DT_UNDEFINED, fmt::format("eps={}", eps)},
                         {{"mean", mean, Fold::kMean, f32}, {"invstd", invstd, Fold::kInvStd, f32}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(BatchNormStats)

// The experimental V2 reductions: one axis (an int attribute) and keepdims as 0 or 1.
#define NPUSIM_REDUCE_V2(Name, Info, F)                                                                    \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* x, int64_t axes, int64_t keepdims, \
                                                       const aclTensor* y, WS) {                           \
    return buildReduceMath({&Info,                                                                         \
                            x,                                                                             \
                            "x",                                                                           \
                            {axes},                                                                        \
                            keepdims != 0,                                                                 \
                            false,                                                                         \
                            0,                                                                             \
                            0,                                                                             \
                            ACL_DT_UNDEFINED,                                                              \
                            dimsAttr({axes}, keepdims != 0)},                                              \
                           {{"y", y, F}}, ws, ex);                                                         \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)
NPUSIM_REDUCE_V2(ReduceMaxV2, kReduceMaxV2, Fold::kMax)
NPUSIM_REDUCE_V2(ReduceMeanV2, kReduceMeanV2, Fold::kMean)
NPUSIM_REDUCE_V2(ReduceMinV2, kReduceMinV2, Fold::kMin)
NPUSIM_REDUCE_V2(ReduceProdV2, kReduceProdV2, Fold::kProd)
NPUSIM_REDUCE_V2(ReduceSumV2, kReduceSumV2, Fold::kSum)
