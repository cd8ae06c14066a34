// Batch norms on the norm engine (norm_op.h). x is [N, C, *]: statistics are per channel C over
// the N and * elements (M of them), mean and invstd = 1/sqrt(Var + eps) (biased variance),
// y = (x - mean) * invstd * weight + bias.
//  - aclnnBatchNorm (ops-nn norm/batch_norm_v3): training: the batch's statistics, written to
//    saveMean/saveInvstd, runningMean/Var updated in place (r = (1-momentum) r + momentum s, the
//    variance unbiased, M/(M-1)); inference: the running statistics.
//  - aclnnBatchNormElemt (norm/batch_norm_elemt): y from given mean and invstd.
//  - aclnnBatchNormBackward, aclnnFastBatchNormBackward (norm/batch_norm_grad_v3): training:
//    dx = w*invstd*(dy - mean(dy) - xhat*mean(dy*xhat)); inference: dx = dy*w/sqrt(runningVar +
//    eps); dweight = sum dy*xhat, dbias = sum dy; outputMask picks the outputs.
//  - aclnnBatchNormReduce (norm/bn_training_reduce): per channel sum and sum of squares.
//  - aclnnBatchNormReduceBackward (norm/sync_batch_norm_backward_reduce): sumDy = sum dy,
//    sumDyXmu = sum dy*(x - mean), gradWeight = sumDyXmu * invstd, gradBias = sumDy.
//  - aclnnBatchNormElemtBackward (norm/sync_batch_norm_backward_elemt): with T = sum(counter),
//    dx = (dy - sumDy/T - (x - mean) * invstd^2 * sumDyXmu/T) * invstd * weight.
//  - aclnnSyncBatchNormGatherStats (norm/sync_batch_norm_gather_stats): from per-device sums
//    [W, C] and counts [W]: batchMean, batchInvstd, running mean/var updated in place.
//  - aclnnBatchNormGatherStatsWithCounts (norm/sync_batch_norm_gather_stats_with_counts): from
//    per-device mean/invstd [W, C] and counts [W], the pooled mean and invstd; running stats.
//  - experimental: aclnnBatchNormalizationGrad (training backward from saveMean/saveInvstd),
//    aclnnBnInferGrad (dx = grads * scale / sqrt(var + eps), channel by formatMode 0 NCHW,
//    1 NHWC, 2 NC1HWC0), aclnnSyncBatchNormBackwardReduce (sumDyXmu = sumDyDxPad - mean*sumDy,
//    y = sumDyXmu * invertStd), aclnnSyncBnTrainingUpdateV2 (y1 = (x - mean)/sqrt(var + 1e-6)
//    over the batch; running r = momentum r + (1 - momentum) s, the kernel's constant epsilon).
// fp32, fp16, bf16 (counts may be int32); computed in fp64.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_batch_norm_backward_reduce.h"
#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_elemt_backward.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_batch_normalization_grad.h"
#include "aclnnop/aclnn_bn_infer_grad.h"
#include "aclnnop/aclnn_fast_batch_norm_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_backward_reduce.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "aclnnop/aclnn_sync_bn_training_update_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kCounts = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

const OpInfo kBn{"aclnnBatchNorm", ExecUnit::kVector, kNormFloats,
                 "y = (x - mean_c) / sqrt(var_c + eps) * w + b"};
const OpInfo kElemt{"aclnnBatchNormElemt", ExecUnit::kVector, kNormFloats,
                    "y = (x - mean_c) * invstd_c * w + b"};
const OpInfo kBack{"aclnnBatchNormBackward", ExecUnit::kVector, kNormFloats,
                   "dx = w*invstd*(dy - mean(dy) - xhat*mean(dy*xhat)); dw = sum dy*xhat; db = sum dy"};
const OpInfo kFastBack{"aclnnFastBatchNormBackward", ExecUnit::kVector, kNormFloats, kBack.formula};
const OpInfo kReduce{"aclnnBatchNormReduce", ExecUnit::kVector, kNormFloats,
                     "sum_c = sum x; squareSum_c = sum x^2"};
const OpInfo kReduceBack{"aclnnBatchNormReduceBackward", ExecUnit::kVector, kNormFloats,
                         "sumDy = sum dy; sumDyXmu = sum dy*(x-mean); gradWeight = sumDyXmu*invstd"};
const OpInfo kElemtBack{"aclnnBatchNormElemtBackward", ExecUnit::kVector, kCounts,
                        "dx = (dy - sumDy/T - (x-mean)*invstd^2*sumDyXmu/T) * invstd * w"};
const OpInfo kGather{"aclnnSyncBatchNormGatherStats", ExecUnit::kVector, kCounts,
                     "batchMean = sum(totalSum)/sum(count); batchInvstd = 1/sqrt(E[x^2] - mean^2 + eps)"};
const OpInfo kGatherCounts{"aclnnBatchNormGatherStatsWithCounts", ExecUnit::kVector, kCounts,
                           "meanAll = sum(count*mean)/sum(count); invstdAll from the pooled variance"};
const OpInfo kExpGrad{"aclnnBatchNormalizationGrad", ExecUnit::kVector, kNormFloats, kBack.formula};
const OpInfo kInferGrad{"aclnnBnInferGrad", ExecUnit::kVector, kNormFloats,
                        "dx = grads * scale_c / sqrt(var_c + eps)"};
const OpInfo kSyncReduce{"aclnnSyncBatchNormBackwardReduce", ExecUnit::kVector, kNormFloats,
                         "sumDyXmu = sumDyDxPad - mean*sumDy; y = sumDyXmu * invertStd"};
const OpInfo kUpdateV2{"aclnnSyncBnTrainingUpdateV2", ExecUnit::kVector, kNormFloats,
                       "y1 = (x - mean_c)/sqrt(var_c + 1e-6); y2/y3 = momentum*running + (1-momentum)*batch"};
const OpRegistrar kRegs[] = {OpRegistrar(kBn),        OpRegistrar(kElemt),     OpRegistrar(kBack),
                             OpRegistrar(kFastBack),  OpRegistrar(kReduce),    OpRegistrar(kReduceBack),
                             OpRegistrar(kElemtBack), OpRegistrar(kGather),    OpRegistrar(kGatherCounts),
                             OpRegistrar(kExpGrad),   OpRegistrar(kInferGrad), OpRegistrar(kSyncReduce),
                             OpRegistrar(kUpdateV2)};

// Channel of element e of a row-major tensor whose channel axis has c entries and `inner`
// elements after it.
struct Channels {
  int64_t c = 1, inner = 1, count = 1;  // count: elements per channel (M)
  size_t of(size_t e) const { return static_cast<size_t>((static_cast<int64_t>(e) / inner) % c); }
};

// 161002 unless x has at least 2 dimensions (channels in dimension 1).
int32_t channelsOf(const char* api, const NormArg& x, Channels* ch) {
  const std::vector<int64_t>& xs = x.t->desc.shape;
  if (xs.size() < 2) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} must be [N, C, ...] (2 to 8 dimensions), but is {}", x.name, shapeString(xs)));
  }
  ch->c = xs[1];
  ch->inner = dimProduct(xs, 2, xs.size());
  ch->count = ch->c == 0 ? 0 : x.t->desc.numel() / ch->c;
  return kSuccess;
}

// Per-channel sums of f(e) over x's elements.
template <typename F>
std::vector<double> channelSum(const Channels& ch, size_t total, F f) {
  std::vector<double> s(static_cast<size_t>(ch.c), 0.0);
  for (size_t e = 0; e < total; ++e) s[ch.of(e)] += f(e);
  return s;
}

// Common checks: every present tensor known and of a float type (counts excepted), the data
// tensors shaped like x and the per-channel ones with C elements.
int32_t checkBatch(const char* api, const OpInfo& info, const NormArg& x, std::initializer_list<NormArg> like,
                   std::initializer_list<NormArg> perChannel, Channels* ch) {
  int32_t st = checkNormTypes(api, info, {x});
  if (st != kSuccess) return st;
  for (const NormArg& t : like) {
    if ((st = checkNormTypes(api, info, {t})) != kSuccess) return st;
    if ((st = checkArgShape(api, t, x.t->desc.shape)) != kSuccess) return st;
  }
  if ((st = channelsOf(api, x, ch)) != kSuccess) return st;
  for (const NormArg& t : perChannel) {
    if ((st = checkNormTypes(api, info, {t})) != kSuccess) return st;
    if ((st = checkArgNumel(api, t, ch->c)) != kSuccess) return st;
  }
  return kSuccess;
}

std::vector<double> invSqrt(const std::vector<double>& var, double eps) {
  std::vector<double> r(var.size());
  for (size_t i = 0; i < var.size(); ++i) r[i] = 1.0 / std::sqrt(var[i] + eps);
  return r;
}

// y = (x - mean_c) * invstd_c * w_c + b_c for every element.
std::vector<double> normalizeAffine(const Channels& ch, const std::vector<double>& x,
                                    const std::vector<double>& mean, const std::vector<double>& invstd,
                                    const std::vector<double>& w, const std::vector<double>& b) {
  std::vector<double> y(x.size());
  for (size_t e = 0; e < x.size(); ++e)
    y[e] = (x[e] - mean[ch.of(e)]) * invstd[ch.of(e)] * w[ch.of(e)] + b[ch.of(e)];
  return y;
}

// Per channel: dbias = sum dy, dweight = sum dy * (x - mean) * invstd.
void weightBiasGrads(const Channels& ch, const std::vector<double>& dy, const std::vector<double>& x,
                     const std::vector<double>& mean, const std::vector<double>& invstd,
                     std::vector<double>* dw, std::vector<double>* db) {
  *db = channelSum(ch, x.size(), [&](size_t e) { return dy[e]; });
  *dw =
      channelSum(ch, x.size(), [&](size_t e) { return dy[e] * (x[e] - mean[ch.of(e)]) * invstd[ch.of(e)]; });
}

// The training-mode backward given per-channel mean and invstd (dx, dweight, dbias).
void trainingBackward(const Channels& ch, const std::vector<double>& dy, const std::vector<double>& x,
                      const std::vector<double>& mean, const std::vector<double>& invstd,
                      const std::vector<double>& w, std::vector<double>* dx, std::vector<double>* dw,
                      std::vector<double>* db) {
  weightBiasGrads(ch, dy, x, mean, invstd, dw, db);
  const double m = static_cast<double>(ch.count);
  dx->resize(x.size());
  for (size_t e = 0; e < x.size(); ++e) {
    const size_t c = ch.of(e);
    const double xh = (x[e] - mean[c]) * invstd[c];
    (*dx)[e] = w[c] * invstd[c] * (dy[e] - (*db)[c] / m - xh * (*dw)[c] / m);
  }
}

std::unique_ptr<NormInstance> makeInst(const OpInfo& info, NormKernel k, int passes,
                                       std::initializer_list<std::pair<const char*, const aclTensor*>> ins) {
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), std::move(k), passes);
  for (auto [name, t] : ins) inst->input(name, t);
  return inst;
}

int32_t batchBackward(const char* api, const OpInfo& info, const aclTensor* gradOut, const aclTensor* input,
                      const aclTensor* weight, const aclTensor* runningMean, const aclTensor* runningVar,
                      const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps,
                      const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight,
                      aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  bool mask[3];
  if (int32_t st = readOutputMask(api, outputMask, mask); st != kSuccess) return st;
  const bool m0 = mask[0], m1 = mask[1], m2 = mask[2];
  const NormArg dyA{"gradOut", gradOut}, xA{"input", input}, wA{"weight", weight, true},
      rmA{"runningMean", runningMean, training}, rvA{"runningVar", runningVar, training},
      smA{"saveMean", saveMean, !training}, siA{"saveInvstd", saveInvstd, !training},
      dxA{"gradInput", m0 ? gradInput : nullptr, !m0}, dwA{"gradWeight", m1 ? gradWeight : nullptr, !m1},
      dbA{"gradBias", m2 ? gradBias : nullptr, !m2};
  int32_t st = checkNormArgs(api, {dyA, xA, wA, rmA, rvA, smA, siA, dxA, dwA, dbA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, info, xA, {dyA, dxA}, {wA, rmA, rvA, smA, siA, dwA, dbA}, &ch)) != kSuccess)
    return st;
  auto kernel = [ch, training, eps](const NormIo& io) {
    const size_t c = static_cast<size_t>(ch.c);
    const std::vector<double> dy = io.load("dy"), x = io.load("x"), w = io.loadOr("w", c, 1.0);
    std::vector<double> dx, dw, db;
    if (training) {
      trainingBackward(ch, dy, x, io.load("saveMean"), io.load("saveInvstd"), w, &dx, &dw, &db);
    } else {
      const std::vector<double> rm = io.load("runningMean"), inv = invSqrt(io.load("runningVar"), eps);
      weightBiasGrads(ch, dy, x, rm, inv, &dw, &db);
      dx.resize(x.size());
      for (size_t e = 0; e < x.size(); ++e) dx[e] = dy[e] * w[ch.of(e)] * inv[ch.of(e)];
    }
    io.store("dx", dx);
    io.store("dw", dw);
    io.store("db", db);
  };
  auto inst = makeInst(info, kernel, 4, {{"dy", gradOut}, {"x", input}, {"w", weight}});
  if (training) {
    inst->input("saveMean", saveMean);
    inst->input("saveInvstd", saveInvstd);
  } else {
    inst->input("runningMean", runningMean);
    inst->input("runningVar", runningVar);
  }
  inst->output("dx", dxA.t);
  inst->output("dw", dwA.t);
  inst->output("db", dbA.t);
  inst->attrs = fmt::format("training={}, eps={}", training, eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;  // NOLINT: the entry points below are this file's whole surface

extern "C" aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                      const aclTensor* bias, aclTensor* runningMean,
                                                      aclTensor* runningVar, bool training, double momentum,
                                                      double eps, aclTensor* output, aclTensor* saveMean,
                                                      aclTensor* saveInvstd, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"input", input}, wA{"weight", weight, true}, bA{"bias", bias, true},
      rmA{"runningMean", runningMean, training}, rvA{"runningVar", runningVar, training},
      yA{"output", output}, smA{"saveMean", saveMean, true}, siA{"saveInvstd", saveInvstd, true};
  int32_t st = checkNormArgs(api, {xA, wA, bA, rmA, rvA, yA, smA, siA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kBn, xA, {yA}, {wA, bA, rmA, rvA, smA, siA}, &ch)) != kSuccess) return st;
  if ((st = checkSameType(api, {xA, yA})) != kSuccess) return st;
  const bool updates = training && runningMean != nullptr && runningVar != nullptr;
  auto kernel = [ch, training, updates, momentum, eps](const NormIo& io) {
    const size_t c = static_cast<size_t>(ch.c);
    const std::vector<double> x = io.load("x"), w = io.loadOr("w", c, 1.0), b = io.loadOr("b", c, 0.0);
    std::vector<double> mean, var;
    if (training) {
      const double m = static_cast<double>(ch.count);
      mean = channelSum(ch, x.size(), [&](size_t e) { return x[e] / m; });
      var = channelSum(ch, x.size(),
                       [&](size_t e) { return (x[e] - mean[ch.of(e)]) * (x[e] - mean[ch.of(e)]) / m; });
    } else {
      mean = io.load("runningMean");
      var = io.load("runningVar");
    }
    const std::vector<double> inv = invSqrt(var, eps);
    io.store("y", normalizeAffine(ch, x, mean, inv, w, b));
    io.store("saveMean", mean);
    io.store("saveInvstd", inv);
    if (updates) {
      std::vector<double> rm = io.load("runningMean"), rv = io.load("runningVar");
      const double unbias =
          ch.count > 1 ? static_cast<double>(ch.count) / static_cast<double>(ch.count - 1) : 1.0;
      for (size_t i = 0; i < c; ++i) {
        rm[i] = (1.0 - momentum) * rm[i] + momentum * mean[i];
        rv[i] = (1.0 - momentum) * rv[i] + momentum * var[i] * unbias;
      }
      io.store("runningMeanOut", rm);
      io.store("runningVarOut", rv);
    }
  };
  auto inst = makeInst(
      kBn, kernel, training ? 4 : 2,
      {{"x", input}, {"w", weight}, {"b", bias}, {"runningMean", runningMean}, {"runningVar", runningVar}});
  inst->output("y", output);
  inst->output("saveMean", saveMean);
  inst->output("saveInvstd", saveInvstd);
  if (updates) {
    inst->output("runningMeanOut", runningMean, inst->inputIndex("runningMean"));
    inst->output("runningVarOut", runningVar, inst->inputIndex("runningVar"));
  }
  inst->attrs = fmt::format("training={}, momentum={}, eps={}", training, momentum, eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                           const aclTensor* bias, aclTensor* mean,
                                                           aclTensor* invstd, double eps, aclTensor* output,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormElemtGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"input", input}, wA{"weight", weight, true}, bA{"bias", bias, true}, mA{"mean", mean},
      iA{"invstd", invstd}, yA{"output", output};
  int32_t st = checkNormArgs(api, {xA, wA, bA, mA, iA, yA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kElemt, xA, {yA}, {wA, bA, mA, iA}, &ch)) != kSuccess) return st;
  auto kernel = [ch](const NormIo& io) {
    const size_t c = static_cast<size_t>(ch.c);
    const std::vector<double> x = io.load("x"), w = io.loadOr("w", c, 1.0), b = io.loadOr("b", c, 0.0),
                              m = io.load("mean"), inv = io.load("invstd");
    io.store("y", normalizeAffine(ch, x, m, inv, w, b));
  };
  auto inst = makeInst(kElemt, kernel, 2,
                       {{"x", input}, {"w", weight}, {"b", bias}, {"mean", mean}, {"invstd", invstd}});
  inst->output("y", output);
  inst->attrs = fmt::format("eps={}", eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training,
    double eps, const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return batchBackward("aclnnBatchNormBackwardGetWorkspaceSize", kBack, gradOut, input, weight, runningMean,
                       runningVar, saveMean, saveInvstd, training, eps, outputMask, gradInput, gradWeight,
                       gradBias, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFastBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training,
    double eps, const aclBoolArray* outputMask, int version, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFastBatchNormBackwardGetWorkspaceSize";
  if (version != 0 && version != 1) {
    return fail(api, kErrParamInvalid, fmt::format("version must be 0 or 1, but is {}", version));
  }
  return batchBackward(api, kFastBack, gradOut, input, weight, runningMean, runningVar, saveMean, saveInvstd,
                       training, eps, outputMask, gradInput, gradWeight, gradBias, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormReduceGetWorkspaceSize(const aclTensor* x, aclTensor* sum,
                                                            aclTensor* squareSum, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormReduceGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x", x}, sA{"sum", sum}, qA{"squareSum", squareSum};
  int32_t st = checkNormArgs(api, {xA, sA, qA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kReduce, xA, {}, {sA, qA}, &ch)) != kSuccess) return st;
  auto kernel = [ch](const NormIo& io) {
    const std::vector<double> v = io.load("x");
    io.store("sum", channelSum(ch, v.size(), [&](size_t e) { return v[e]; }));
    io.store("squareSum", channelSum(ch, v.size(), [&](size_t e) { return v[e] * v[e]; }));
  };
  auto inst = makeInst(kReduce, kernel, 2, {{"x", x}});
  inst->output("sum", sum);
  inst->output("squareSum", squareSum);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormReduceBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* invstd,
    const aclTensor* weight, const bool inputG, const bool weightG, const bool biasG, aclTensor* sumDy,
    aclTensor* sumDyXmu, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormReduceBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg dyA{"gradOut", gradOut}, xA{"input", input}, mA{"mean", mean}, iA{"invstd", invstd},
      wA{"weight", weight, true}, sdA{"sumDy", inputG ? sumDy : nullptr, !inputG},
      sxA{"sumDyXmu", inputG ? sumDyXmu : nullptr, !inputG},
      gwA{"gradWeight", weightG ? gradWeight : nullptr, !weightG},
      gbA{"gradBias", biasG ? gradBias : nullptr, !biasG};
  int32_t st = checkNormArgs(api, {dyA, xA, mA, iA, wA, sdA, sxA, gwA, gbA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kReduceBack, xA, {dyA}, {mA, iA, wA, sdA, sxA, gwA, gbA}, &ch)) != kSuccess)
    return st;
  auto kernel = [ch](const NormIo& io) {
    const std::vector<double> dy = io.load("dy"), x = io.load("x"), m = io.load("mean"),
                              inv = io.load("invstd");
    const std::vector<double> sd = channelSum(ch, x.size(), [&](size_t e) { return dy[e]; });
    const std::vector<double> sx =
        channelSum(ch, x.size(), [&](size_t e) { return dy[e] * (x[e] - m[ch.of(e)]); });
    std::vector<double> gw(sx.size());
    for (size_t i = 0; i < sx.size(); ++i) gw[i] = sx[i] * inv[i];
    io.store("sumDy", sd);
    io.store("sumDyXmu", sx);
    io.store("gradWeight", gw);
    io.store("gradBias", sd);
  };
  auto inst =
      makeInst(kReduceBack, kernel, 3,
               {{"dy", gradOut}, {"x", input}, {"mean", mean}, {"invstd", invstd}, {"weight", weight}});
  inst->output("sumDy", sdA.t);
  inst->output("sumDyXmu", sxA.t);
  inst->output("gradWeight", gwA.t);
  inst->output("gradBias", gbA.t);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormElemtBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* invstd,
    const aclTensor* weight, const aclTensor* sumDy, const aclTensor* sumDyXmu, aclTensor* counter,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormElemtBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg dyA{"gradOut", gradOut}, xA{"input", input}, mA{"mean", mean}, iA{"invstd", invstd},
      wA{"weight", weight, true}, sdA{"sumDy", sumDy}, sxA{"sumDyXmu", sumDyXmu}, cA{"counter", counter},
      dxA{"gradInput", gradInput};
  int32_t st = checkNormArgs(api, {dyA, xA, mA, iA, wA, sdA, sxA, cA, dxA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kElemtBack, xA, {dyA, dxA}, {mA, iA, wA, sdA, sxA}, &ch)) != kSuccess) return st;
  if ((st = checkTypeIn(api, cA, kCounts)) != kSuccess) return st;
  if ((st = checkSameType(api, {dyA, xA, dxA})) != kSuccess) return st;
  auto kernel = [ch](const NormIo& io) {
    const size_t c = static_cast<size_t>(ch.c);
    const std::vector<double> dy = io.load("dy"), x = io.load("x"), m = io.load("mean"),
                              inv = io.load("invstd"), w = io.loadOr("weight", c, 1.0), sd = io.load("sumDy"),
                              sx = io.load("sumDyXmu"), cnt = io.load("counter");
    double total = 0;
    for (double v : cnt) total += v;
    std::vector<double> dx(x.size());
    for (size_t e = 0; e < x.size(); ++e) {
      const size_t k = ch.of(e);
      dx[e] = (dy[e] - sd[k] / total - (x[e] - m[k]) * inv[k] * inv[k] * sx[k] / total) * inv[k] * w[k];
    }
    io.store("dx", dx);
  };
  auto inst = makeInst(kElemtBack, kernel, 3,
                       {{"dy", gradOut},
                        {"x", input},
                        {"mean", mean},
                        {"invstd", invstd},
                        {"weight", weight},
                        {"sumDy", sumDy},
                        {"sumDyXmu", sumDyXmu},
                        {"counter", counter}});
  inst->output("dx", gradInput);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSyncBatchNormGatherStatsGetWorkspaceSize(
    const aclTensor* totalSum, const aclTensor* totalSquareSum, const aclTensor* sampleCount, aclTensor* mean,
    aclTensor* variance, float momentum, float eps, aclTensor* batchMean, aclTensor* batchInvstd,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSyncBatchNormGatherStatsGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg sA{"totalSum", totalSum}, qA{"totalSquareSum", totalSquareSum},
      nA{"sampleCount", sampleCount}, mA{"mean", mean}, vA{"variance", variance}, bmA{"batchMean", batchMean},
      biA{"batchInvstd", batchInvstd};
  int32_t st = checkNormArgs(api, {sA, qA, nA, mA, vA, bmA, biA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kGather, {sA, qA, nA, mA, vA, bmA, biA})) != kSuccess) return st;
  const std::vector<int64_t>& ss = totalSum->desc.shape;
  if (ss.size() != 2) {
    return fail(api, kErrParamInvalid, fmt::format("totalSum must be [W, C], but is {}", shapeString(ss)));
  }
  const int64_t w = ss[0], c = ss[1];
  if ((st = checkArgShape(api, qA, ss)) != kSuccess) return st;
  if ((st = checkArgNumel(api, nA, w)) != kSuccess) return st;
  for (const NormArg& t : {mA, vA, bmA, biA}) {
    if ((st = checkArgNumel(api, t, c)) != kSuccess) return st;
  }
  const double mom = momentum, ep = eps;
  auto kernel = [w, c, mom, ep](const NormIo& io) {
    const std::vector<double> s = io.load("totalSum"), q = io.load("totalSquareSum"),
                              n = io.load("sampleCount");
    std::vector<double> rm = io.load("mean"), rv = io.load("variance");
    double count = 0;
    for (double v : n) count += v;
    const size_t uc = static_cast<size_t>(c);
    std::vector<double> bm(uc, 0.0), bi(uc);
    for (size_t k = 0; k < uc; ++k) {
      double sum = 0, sq = 0;
      for (size_t d = 0; d < static_cast<size_t>(w); ++d) {
        sum += s[d * uc + k];
        sq += q[d * uc + k];
      }
      bm[k] = sum / count;
      const double var = sq / count - bm[k] * bm[k];
      bi[k] = 1.0 / std::sqrt(var + ep);
      rm[k] = rm[k] * (1.0 - mom) + mom * bm[k];
      rv[k] = rv[k] * (1.0 - mom) + mom * var * (count > 1 ? count / (count - 1.0) : 1.0);
    }
    io.store("batchMean", bm);
    io.store("batchInvstd", bi);
    io.store("meanOut", rm);
    io.store("varianceOut", rv);
  };
  auto inst = makeInst(kGather, kernel, 2,
                       {{"totalSum", totalSum},
                        {"totalSquareSum", totalSquareSum},
                        {"sampleCount", sampleCount},
                        {"mean", mean},
                        {"variance", variance}});
  inst->output("batchMean", batchMean);
  inst->output("batchInvstd", batchInvstd);
  inst->output("meanOut", mean, inst->inputIndex("mean"));
  inst->output("varianceOut", variance, inst->inputIndex("variance"));
  inst->attrs = fmt::format("momentum={}, eps={}", momentum, eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(
    const aclTensor* input, const aclTensor* mean, const aclTensor* invstd, aclTensor* runningMean,
    aclTensor* runningVar, double momentum, double eps, const aclTensor* counts, aclTensor* meanAll,
    aclTensor* invstdAll, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"input", input}, mA{"mean", mean}, iA{"invstd", invstd},
      rmA{"runningMean", runningMean, true}, rvA{"runningVar", runningVar, true}, cA{"counts", counts},
      maA{"meanAll", meanAll}, iaA{"invstdAll", invstdAll};
  int32_t st = checkNormArgs(api, {xA, mA, iA, rmA, rvA, cA, maA, iaA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kGatherCounts, xA, {}, {rmA, rvA, maA, iaA}, &ch)) != kSuccess) return st;
  if ((st = checkNormTypes(api, kGatherCounts, {mA, iA, cA})) != kSuccess) return st;
  const std::vector<int64_t>& ms = mean->desc.shape;
  if (ms.size() != 2 || ms[1] != ch.c) {
    return fail(api, kErrParamInvalid,
                fmt::format("mean must be [W, C] with C = {}, but is {}", ch.c, shapeString(ms)));
  }
  const int64_t w = ms[0];
  if ((st = checkArgShape(api, iA, ms)) != kSuccess) return st;
  if ((st = checkArgNumel(api, cA, w)) != kSuccess) return st;
  auto kernel = [ch, w, momentum, eps](const NormIo& io) {
    const std::vector<double> m = io.load("mean"), inv = io.load("invstd"), n = io.load("counts");
    const size_t uc = static_cast<size_t>(ch.c);
    double count = 0;
    for (double v : n) count += v;
    std::vector<double> ma(uc, 0.0), ia(uc), var(uc, 0.0);
    for (size_t k = 0; k < uc; ++k) {
      for (size_t d = 0; d < static_cast<size_t>(w); ++d) ma[k] += n[d] * m[d * uc + k] / count;
      for (size_t d = 0; d < static_cast<size_t>(w); ++d) {
        // Each device's variance from its invstd, then the pooled (biased) variance.
        const double vd = 1.0 / (inv[d * uc + k] * inv[d * uc + k]) - eps;
        var[k] += n[d] * (vd + (m[d * uc + k] - ma[k]) * (m[d * uc + k] - ma[k])) / count;
      }
      ia[k] = 1.0 / std::sqrt(var[k] + eps);
    }
    io.store("meanAll", ma);
    io.store("invstdAll", ia);
    if (io.hasIn("runningMean")) {
      std::vector<double> rm = io.load("runningMean");
      for (size_t k = 0; k < uc; ++k) rm[k] = rm[k] * (1.0 - momentum) + momentum * ma[k];
      io.store("runningMeanOut", rm);
    }
    if (io.hasIn("runningVar")) {
      std::vector<double> rv = io.load("runningVar");
      const double unbias = count > 1 ? count / (count - 1.0) : 1.0;
      for (size_t k = 0; k < uc; ++k) rv[k] = rv[k] * (1.0 - momentum) + momentum * var[k] * unbias;
      io.store("runningVarOut", rv);
    }
  };
  auto inst = makeInst(kGatherCounts, kernel, 2,
                       {{"mean", mean},
                        {"invstd", invstd},
                        {"counts", counts},
                        {"runningMean", runningMean},
                        {"runningVar", runningVar}});
  inst->output("meanAll", meanAll);
  inst->output("invstdAll", invstdAll);
  if (runningMean != nullptr) inst->output("runningMeanOut", runningMean, inst->inputIndex("runningMean"));
  if (runningVar != nullptr) inst->output("runningVarOut", runningVar, inst->inputIndex("runningVar"));
  inst->attrs = fmt::format("momentum={}, eps={}", momentum, eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBatchNormalizationGradGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    const aclTensor* saveMean, const aclTensor* saveInvstd, float epsilon, const aclTensor* gradInput,
    const aclTensor* gradWeight, const aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormalizationGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg dyA{"gradOutput", gradOutput}, xA{"input", input}, wA{"weight", weight},
      bA{"bias", bias, true}, smA{"saveMean", saveMean}, siA{"saveInvstd", saveInvstd},
      dxA{"gradInput", gradInput}, dwA{"gradWeight", gradWeight}, dbA{"gradBias", gradBias};
  int32_t st = checkNormArgs(api, {dyA, xA, wA, bA, smA, siA, dxA, dwA, dbA});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kExpGrad, xA, {dyA, dxA}, {wA, bA, smA, siA, dwA, dbA}, &ch)) != kSuccess)
    return st;
  auto kernel = [ch](const NormIo& io) {
    std::vector<double> dx, dw, db;
    trainingBackward(ch, io.load("dy"), io.load("x"), io.load("saveMean"), io.load("saveInvstd"),
                     io.load("w"), &dx, &dw, &db);
    io.store("dx", dx);
    io.store("dw", dw);
    io.store("db", db);
  };
  auto inst = makeInst(
      kExpGrad, kernel, 4,
      {{"dy", gradOutput}, {"x", input}, {"w", weight}, {"saveMean", saveMean}, {"saveInvstd", saveInvstd}});
  inst->output("dx", gradInput);
  inst->output("dw", gradWeight);
  inst->output("db", gradBias);
  inst->attrs = fmt::format("epsilon={}", epsilon);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBnInferGradGetWorkspaceSize(const aclTensor* grads, const aclTensor* scale,
                                                        const aclTensor* batchVariance, float epsilon,
                                                        int64_t formatMode, const aclTensor* xBackprop,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnBnInferGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg gA{"grads", grads}, sA{"scale", scale}, vA{"batchVariance", batchVariance},
      dxA{"xBackprop", xBackprop};
  int32_t st = checkNormArgs(api, {gA, sA, vA, dxA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kInferGrad, {gA, sA, vA, dxA})) != kSuccess) return st;
  if ((st = checkArgShape(api, dxA, grads->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t>& gs = grads->desc.shape;
  // The channel of an element: dimension 1 (NCHW), the last (NHWC), or C1 * C0 + c0 (NC1HWC0).
  Channels ch;
  int64_t c0 = 1;
  if (formatMode == 0 && gs.size() >= 2) {
    ch = {gs[1], dimProduct(gs, 2, gs.size()), 0};
  } else if (formatMode == 1 && gs.size() >= 2) {
    ch = {gs.back(), 1, 0};
  } else if (formatMode == 2 && gs.size() == 5) {
    ch = {gs[1], gs[2] * gs[3] * gs[4], 0};
    c0 = gs[4];
  } else {
    return fail(api, kErrParamInvalid,
                fmt::format("formatMode {} (0 NCHW, 1 NHWC, 2 NC1HWC0) does not fit grads shape {}",
                            formatMode, shapeString(gs)));
  }
  for (const NormArg& t : {sA, vA}) {
    if ((st = checkArgNumel(api, t, ch.c * c0)) != kSuccess) return st;
  }
  const double eps = epsilon;
  auto kernel = [ch, c0, eps](const NormIo& io) {
    const std::vector<double> g = io.load("grads"), s = io.load("scale"), inv = invSqrt(io.load("var"), eps);
    std::vector<double> dx(g.size());
    for (size_t e = 0; e < g.size(); ++e) {
      const size_t k = ch.of(e) * static_cast<size_t>(c0) + e % static_cast<size_t>(c0);
      dx[e] = g[e] * s[k] * inv[k];
    }
    io.store("dx", dx);
  };
  auto inst = makeInst(kInferGrad, kernel, 2, {{"grads", grads}, {"scale", scale}, {"var", batchVariance}});
  inst->output("dx", xBackprop);
  inst->attrs = fmt::format("epsilon={}, formatMode={}", epsilon, formatMode);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSyncBatchNormBackwardReduceGetWorkspaceSize(
    const aclTensor* sumDy, const aclTensor* sumDyDxPad, const aclTensor* mean, const aclTensor* invertStd,
    const aclTensor* sumDyXmu, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSyncBatchNormBackwardReduceGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg a{"sumDy", sumDy}, b{"sumDyDxPad", sumDyDxPad}, m{"mean", mean}, i{"invertStd", invertStd},
      o1{"sumDyXmu", sumDyXmu}, o2{"y", y};
  int32_t st = checkNormArgs(api, {a, b, m, i, o1, o2});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kSyncReduce, {a, b, m, i, o1, o2})) != kSuccess) return st;
  if ((st = checkSameType(api, {a, b, m, i, o1, o2})) != kSuccess) return st;
  for (const NormArg& t : {b, m, i, o1, o2}) {
    if ((st = checkArgShape(api, t, sumDy->desc.shape)) != kSuccess) return st;
  }
  auto kernel = [](const NormIo& io) {
    const std::vector<double> sd = io.load("sumDy"), sp = io.load("sumDyDxPad"), m = io.load("mean"),
                              inv = io.load("invertStd");
    std::vector<double> sx(sd.size()), yv(sd.size());
    for (size_t k = 0; k < sd.size(); ++k) {
      sx[k] = sp[k] - m[k] * sd[k];
      yv[k] = sx[k] * inv[k];
    }
    io.store("sumDyXmu", sx);
    io.store("y", yv);
  };
  auto inst =
      makeInst(kSyncReduce, kernel, 2,
               {{"sumDy", sumDy}, {"sumDyDxPad", sumDyDxPad}, {"mean", mean}, {"invertStd", invertStd}});
  inst->output("sumDyXmu", sumDyXmu);
  inst->output("y", y);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSyncBnTrainingUpdateV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x3, float momentum, const aclTensor* y1,
    const aclTensor* y2, const aclTensor* y3, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSyncBnTrainingUpdateV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x1", x1}, mA{"x2", x2}, vA{"x3", x3}, yA{"y1", y1}, y2A{"y2", y2}, y3A{"y3", y3};
  int32_t st = checkNormArgs(api, {xA, mA, vA, yA, y2A, y3A});
  if (st != kSuccess) return st;
  Channels ch;
  if ((st = checkBatch(api, kUpdateV2, xA, {yA}, {mA, vA, y2A, y3A}, &ch)) != kSuccess) return st;
  constexpr double kEpsilon = 1e-6;  // the kernel's constant (op_kernel/sync_bn_training_update_v2.h)
  const double mom = momentum;
  auto kernel = [ch, mom](const NormIo& io) {
    const std::vector<double> x = io.load("x"), rm = io.load("mean"), rv = io.load("var");
    const double m = static_cast<double>(ch.count);
    const std::vector<double> s = channelSum(ch, x.size(), [&](size_t e) { return x[e]; });
    const std::vector<double> q = channelSum(ch, x.size(), [&](size_t e) { return x[e] * x[e]; });
    std::vector<double> mean(s.size()), var(s.size()), nm(s.size()), nv(s.size()), y(x.size());
    for (size_t k = 0; k < s.size(); ++k) {
      mean[k] = s[k] / m;
      var[k] = q[k] / m - mean[k] * mean[k];
      nm[k] = mom * rm[k] + (1.0 - mom) * mean[k];
      nv[k] = mom * rv[k] + (1.0 - mom) * var[k];
    }
    for (size_t e = 0; e < x.size(); ++e)
      y[e] = (x[e] - mean[ch.of(e)]) / std::sqrt(var[ch.of(e)] + kEpsilon);
    io.store("y1", y);
    io.store("y2", nm);
    io.store("y3", nv);
  };
  auto inst = makeInst(kUpdateV2, kernel, 3, {{"x", x1}, {"mean", x2}, {"var", x3}});
  inst->output("y1", y1);
  inst->output("y2", y2);
  inst->output("y3", y3);
  inst->attrs = fmt::format("momentum={}", momentum);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(BatchNorm)
NPUSIM_ACLNN_PHASE2(BatchNormElemt)
NPUSIM_ACLNN_PHASE2(BatchNormBackward)
NPUSIM_ACLNN_PHASE2(FastBatchNormBackward)
NPUSIM_ACLNN_PHASE2(BatchNormReduce)
NPUSIM_ACLNN_PHASE2(BatchNormReduceBackward)
NPUSIM_ACLNN_PHASE2(BatchNormElemtBackward)
NPUSIM_ACLNN_PHASE2(SyncBatchNormGatherStats)
NPUSIM_ACLNN_PHASE2(BatchNormGatherStatsWithCounts)
NPUSIM_ACLNN_PHASE2(BatchNormalizationGrad)
NPUSIM_ACLNN_PHASE2(BnInferGrad)
NPUSIM_ACLNN_PHASE2(SyncBatchNormBackwardReduce)
NPUSIM_ACLNN_PHASE2(SyncBnTrainingUpdateV2)
