// Operators of ops-math math/ and experimental/math/ (m-z) whose data flow is not elementwise
// (issue 28): Range (end included), ExpSegsum (math/segsum), SignBitsPack / SignBitsUnpack
// (1-bit Adam signs, LSB first), the experimental TraceV2, Pdist / PdistForward (p-norm
// distances between the rows of a matrix), SqrtBackward (on the activation-gradient engine),
// Scale (x * scale + bias over a run of x's axes), Sinkhorn (the doc's iteration to tol),
// TransformBiasRescaleQkv (attention's qkv split into heads, biased, q scaled) and
// PrecisionCompare (0 when two tensors match element for element) and aclStft (the doc's sum over a
// window, real signals). Each computes
// over dense copies of its inputs and costs one vector pass over what it reads and writes (vector_tiling.h).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/acl_stft.h"
#include "aclnnop/aclnn_pdist.h"
#include "aclnnop/aclnn_pdist_forward.h"
#include "aclnnop/aclnn_precision_compare.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_scale.h"
#include "aclnnop/aclnn_segsum.h"
#include "aclnnop/aclnn_sign_bits_pack.h"
#include "aclnnop/aclnn_sign_bits_unpack.h"
#include "aclnnop/aclnn_sinkhorn.h"
#include "aclnnop/aclnn_sqrt_backward.h"
#include "aclnnop/aclnn_trace_v2.h"
#include "aclnnop/aclnn_transform_bias_rescale_qkv.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/activation_grad_op.h"
#include "runtime/aclnn/ops/dense_op.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kRange{"aclnnRange",
                    ExecUnit::kVector,
                    {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16, ACL_INT32, ACL_INT64},
                    "out[i] = start + i * step for i <= (end - start) / step (end included)"};
const OpInfo kExpSegsum{"aclnnExpSegsum",
                        ExecUnit::kVector,
                        {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                        "out[..., i, j] = exp(sum(self[..., j+1 .. i])) for i >= j, else 0"};
const OpInfo kSignBitsPack{"aclnnSignBitsPack",
                           ExecUnit::kVector,
                           {ACL_FLOAT, ACL_FLOAT16},
                           "out = bits (self >= 0), 8 per uint8, first element in the lowest bit"};
// self uint8 (checked in phase 1), out fp32 or fp16
const OpInfo kSignBitsUnpack{"aclnnSignBitsUnpack",
                             ExecUnit::kVector,
                             {ACL_UINT8, ACL_FLOAT, ACL_FLOAT16},
                             "out = each bit of self as +1 (set) or -1, lowest bit first"};
const OpInfo kTraceV2{"aclnnTraceV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "y = sum of x's diagonal"};
int32_t checkInput(const char* api, const char* name, const aclTensor* t, const OpInfo& info) {
  int32_t st = checkTensor(api, name, t->desc);
  return st != kSuccess ? st : checkDtype(api, name, t->desc.dtype, info);
}

const OpInfo kPdist{"aclnnPdist",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16},
                    "out[k] = ||x_i - x_j||_p for the rows i < j of self, in row-major pair order"};
const OpInfo kPdistForward{"aclnnPdistForward",
                           ExecUnit::kVector,
                           {ACL_FLOAT, ACL_FLOAT16},
                           "out[k] = ||x_i - x_j||_p, p a host scalar"};
const OpInfo kSqrtBackward{"aclnnSqrtBackward",
                           ExecUnit::kVector,
                           {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                           "z = dy * 0.5 / y (y = sqrt(x), the forward output)"};
const OpRegistrar kRegistrars[] = {
    OpRegistrar(kRange),   OpRegistrar(kExpSegsum), OpRegistrar(kSignBitsPack), OpRegistrar(kSignBitsUnpack),
    OpRegistrar(kTraceV2), OpRegistrar(kPdist),     OpRegistrar(kPdistForward), OpRegistrar(kSqrtBackward)};

const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const OpInfo kScale{"aclnnScale", ExecUnit::kVector, kNnFloats,
                    "y = x * scale (+ bias), scale and bias over x's axes [axis, axis + n)"};
const OpInfo kSinkhorn{"aclnnSinkhorn", ExecUnit::kVector, kNnFloats,
                       "p = d1 * exp(cost) * d0, d0 / d1 iterated until mean |d1 change| <= tol"};
const OpInfo kTransformBiasRescaleQkv{"aclnnTransformBiasRescaleQkv", ExecUnit::kVector, kNnFloats,
                                      "q, k, v = heads of (qkv + bias), q / sqrt(dim per head)"};
const OpInfo kPrecisionCompare{"aclnnPrecisionCompare",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_UINT32},
                               "out = 0 when golden and realdata are equal element for element, else 1"};
const OpInfo kStft{
    "aclStft",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128},
    "X[w, m] = sum_k window[k] self[m hop + k] e^(-2 pi i w k / nFft) (/ sqrt(nFft) if normalized)"};
const OpRegistrar kStftRegistrar(kStft);
const OpRegistrar kMoreRegistrars[] = {OpRegistrar(kScale), OpRegistrar(kSinkhorn),
                                       OpRegistrar(kTransformBiasRescaleQkv), OpRegistrar(kPrecisionCompare)};

double dSqrtOfOutput(double y, const GradParams&) { return 0.5 / y; }
const GradDef kSqrtBackwardDef{&kSqrtBackward, dSqrtOfOutput, 2};

// The p-norm distance of two rows: p = 0 counts the differing entries, p = inf takes the largest.
double rowDistance(const double* a, const double* b, int64_t m, double p) {
  double s = 0;
  for (int64_t k = 0; k < m; ++k) {
    const double d = std::fabs(a[k] - b[k]);
    if (p == 0)
      s += d != 0 ? 1 : 0;
    else if (std::isinf(p))
      s = std::max(s, d);
    else
      s += std::pow(d, p);
  }
  return p == 0 || std::isinf(p) ? s : std::pow(s, 1 / p);
}

int32_t buildPdist(const OpInfo& info, const aclTensor* self, double p, aclTensor* out, uint64_t* ws,
                   aclOpExecutor** ex) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "self", self, info)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (self->desc.rank() != 2) return fail(api, kErrParamInvalid, "self must be 2-D");
  if (out->desc.dtype != self->desc.dtype) return fail(api, kErrParamInvalid, "out must have self's type");
  if (!(p >= 0)) return fail(api, kErrParamInvalid, fmt::format("p must be non-negative, not {}", p));
  const int64_t n = self->desc.shape[0];
  if ((st = checkShape(api, "out", out->desc.shape, {n * (n - 1) / 2})) != kSuccess) return st;
  auto inst = newDense(
      info,
      [p](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> x = loadDense<double>(in[0]);
        const int64_t rows = in[0].shape[0], m = in[0].shape[1];
        std::vector<double> d;
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = i + 1; j < rows; ++j)
            d.push_back(rowDistance(&x[static_cast<size_t>(i * m)], &x[static_cast<size_t>(j * m)], m, p));
        storeDense(out[0], d.data());
      },
      3);
  inst->attrs = fmt::format("p={}", p);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

// torch.range: floor((end - start) / step) + 1 elements, end included when it is reached.
extern "C" aclnnStatus aclnnRangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                  const aclScalar* step, aclTensor* out, WS) {
  const char* api = "aclnnRangeGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"start", start}, {"end", end}, {"step", step}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kRange)) != kSuccess) return st;
  const double s0 = start->value.toDouble(), s1 = end->value.toDouble(), ds = step->value.toDouble();
  if (!std::isfinite(s0) || !std::isfinite(s1) || !std::isfinite(ds)) {
    return fail(api, kErrParamInvalid,
                fmt::format("start {}, end {} and step {} must be finite", s0, s1, ds));
  }
  if (ds == 0 || (ds > 0 && s0 > s1) || (ds < 0 && s0 < s1)) {
    return fail(api, kErrParamInvalid,
                fmt::format("step {} does not lead from start {} to end {}", ds, s0, s1));
  }
  const double q = std::floor((s1 - s0) / ds);
  if (!(q < 0x1p62)) return fail(api, kErrParamInvalid, "start, end and step give too many elements");
  if ((st = checkShape(api, "out", out->desc.shape, {static_cast<int64_t>(q) + 1})) != kSuccess) return st;
  const bool ints = !isFloating(start->value.dtype) && !isFloating(end->value.dtype) &&
                    !isFloating(step->value.dtype) && isIntegral(out->desc.dtype, false);
  auto inst = newFill("aclnnRange", "out", out);
  inst->integral = ints;
  inst->start = s0;
  inst->step = ds;
  inst->startInt = start->value.toInt64();
  inst->stepInt = step->value.toInt64();
  inst->attrs =
      fmt::format("start={}, end={}, step={}", start->value.str(), end->value.str(), step->value.str());
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Range)

extern "C" aclnnStatus aclnnExpSegsumGetWorkspaceSize(const aclTensor* self, aclTensor* out, WS) {
  const char* api = "aclnnExpSegsumGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "self", self, kExpSegsum)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  if (self->desc.rank() < 3 || self->desc.rank() > 4) {
    return fail(api, kErrParamInvalid,
                fmt::format("self must have 3 or 4 dimensions, not {}", self->desc.rank()));
  }
  std::vector<int64_t> shape = self->desc.shape;
  shape.push_back(shape.back());
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = newDense(
      kExpSegsum,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> x = loadDense<double>(in[0]);
        const int64_t n = in[0].shape.back(), rows = static_cast<int64_t>(x.size()) / n;
        std::vector<double> y(static_cast<size_t>(rows * n * n), 0.0);
        for (int64_t r = 0; r < rows; ++r) {
          const double* v = x.data() + r * n;
          double* o = y.data() + r * n * n;
          for (int64_t j = 0; j < n; ++j) {
            double s = 0;  // sum of v[j+1 .. i]
            for (int64_t i = j; i < n; ++i) {
              if (i > j) s += v[i];
              o[i * n + j] = std::exp(s);
            }
          }
        }
        storeDense(out[0], y.data());
      },
      3);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(ExpSegsum)

// out: [size, bytes / size] uint8, bytes = ceil(n / 8); the last byte's spare bits are 0.
extern "C" aclnnStatus aclnnSignBitsPackGetWorkspaceSize(const aclTensor* self, int64_t size, aclTensor* out,
                                                         WS) {
  const char* api = "aclnnSignBitsPackGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "self", self, kSignBitsPack)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (self->desc.rank() != 1) return fail(api, kErrParamInvalid, "self must be 1-D");
  if (out->desc.dtype != ACL_UINT8) return fail(api, kErrParamInvalid, "out must be uint8");
  const int64_t bytes = (self->desc.numel() + 7) / 8;
  if (size <= 0 || bytes % size != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("size {} does not divide the {} packed bytes", size, bytes));
  }
  if ((st = checkShape(api, "out", out->desc.shape, {size, bytes / size})) != kSuccess) return st;
  auto inst = newDense(
      kSignBitsPack,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> x = loadDense<double>(in[0]);
        std::vector<int64_t> packed(static_cast<size_t>(out[0].numel()), 0);
        for (size_t i = 0; i < x.size(); ++i)
          if (x[i] >= 0) packed[i / 8] |= int64_t{1} << (i % 8);
        storeDense(out[0], packed.data());
      },
      2);
  inst->attrs = fmt::format("size={}", size);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(SignBitsPack)

// out: [size, 8 * n / size] of dtype (fp32 or fp16), +1 for a set bit and -1 otherwise.
extern "C" aclnnStatus aclnnSignBitsUnpackGetWorkspaceSize(const aclTensor* self, int64_t size,
                                                           aclDataType dtype, aclTensor* out, WS) {
  const char* api = "aclnnSignBitsUnpackGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "self", self, kSignBitsUnpack)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (self->desc.rank() != 1 || self->desc.dtype != ACL_UINT8) {
    return fail(api, kErrParamInvalid, fmt::format("self must be 1-D uint8, not {}", self->desc.brief()));
  }
  if ((dtype != ACL_FLOAT && dtype != ACL_FLOAT16) || out->desc.dtype != dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("dtype {} must be fp32 or fp16 and equal out's type {}", dtypeName(dtype),
                            dtypeName(out->desc.dtype)));
  }
  const int64_t bits = 8 * self->desc.numel();
  if (size <= 0 || bits % size != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("size {} does not divide the {} unpacked values", size, bits));
  }
  if ((st = checkShape(api, "out", out->desc.shape, {size, bits / size})) != kSuccess) return st;
  auto inst = newDense(
      kSignBitsUnpack,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<int64_t> b = loadDense<int64_t>(in[0]);
        std::vector<double> v(b.size() * 8);
        for (size_t i = 0; i < v.size(); ++i) v[i] = (b[i / 8] >> (i % 8)) & 1 ? 1.0 : -1.0;
        storeDense(out[0], v.data());
      },
      2);
  inst->attrs = fmt::format("size={}, dtype={}", size, dtypeName(dtype));
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(SignBitsUnpack)

// y: one element, the sum of x[i][i] of a 2-D x.
extern "C" aclnnStatus aclnnTraceV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, WS) {
  const char* api = "aclnnTraceV2GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"y", y}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "x", x, kTraceV2)) != kSuccess) return st;
  if ((st = checkTensor(api, "y", y->desc)) != kSuccess) return st;
  if (x->desc.rank() != 2) return fail(api, kErrParamInvalid, "x must be 2-D");
  if (y->desc.dtype != x->desc.dtype || y->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("y must be one element of x's type, not {}", y->desc.brief()));
  }
  auto inst = newDense(
      kTraceV2,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> v = loadDense<double>(in[0]);
        const int64_t r = in[0].shape[0], c = in[0].shape[1];
        double s = 0;
        for (int64_t i = 0; i < std::min(r, c); ++i) s += v[static_cast<size_t>(i * c + i)];
        storeDense(out[0], &s);
      },
      1);
  addInput(*inst, "x", x);
  addOutput(*inst, "y", y);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(TraceV2)

extern "C" aclnnStatus aclnnPdistGetWorkspaceSize(const aclTensor* self, float p, aclTensor* out, WS) {
  npusim::rt::chargeOpPrepare("aclnnPdistGetWorkspaceSize");
  return buildPdist(kPdist, self, p, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Pdist)
extern "C" aclnnStatus aclnnPdistForwardGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                         aclTensor* out, WS) {
  npusim::rt::chargeOpPrepare("aclnnPdistForwardGetWorkspaceSize");
  if (pScalar == nullptr) return checkNotNull("aclnnPdistForwardGetWorkspaceSize", {{"pScalar", pScalar}});
  return buildPdist(kPdistForward, self, pScalar->value.toDouble(), out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(PdistForward)

extern "C" aclnnStatus aclnnSqrtBackwardGetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                         aclTensor* z, WS) {
  return buildActivationGrad(kSqrtBackwardDef, {"aclnnSqrtBackwardGetWorkspaceSize", "dy", "y", "z"}, dy, y,
                             z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SqrtBackward)

// scale (and bias) cover x's axes [axis, axis + k): k = numAxes (-1: to the last) when
// scaleFromBlob, else scale's rank; they broadcast over the axes before and after.
extern "C" aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                  const aclTensor* bias, int64_t axis, int64_t numAxes,
                                                  bool scaleFromBlob, aclTensor* y, WS) {
  const char* api = "aclnnScaleGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"scale", scale}, {"y", y}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "x", x, kScale)) != kSuccess) return st;
  if ((st = checkInput(api, "scale", scale, kScale)) != kSuccess) return st;
  if (bias != nullptr && (st = checkInput(api, "bias", bias, kScale)) != kSuccess) return st;
  if ((st = checkTensor(api, "y", y->desc)) != kSuccess) return st;
  const auto rank = static_cast<int64_t>(x->desc.rank());
  const int64_t a = axis < 0 ? axis + rank : axis;
  const int64_t k =
      scaleFromBlob ? (numAxes < 0 ? rank - a : numAxes) : static_cast<int64_t>(scale->desc.rank());
  if (a < 0 || a > rank || k < 0 || a + k > rank) {
    return fail(api, kErrParamInvalid,
                fmt::format("axis {} and {} axes do not fit x of {} dimensions", axis, k, rank));
  }
  const std::vector<int64_t> want(x->desc.shape.begin() + a, x->desc.shape.begin() + a + k);
  int64_t inner = 1;
  for (int64_t d : want) inner *= d;
  // scale holds exactly x's covered axes (its shape or just its element count, as the example's 1-D scale)
  for (auto [name, t] : {std::pair{"scale", scale}, {"bias", bias}}) {
    if (t != nullptr && t->desc.numel() != inner) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} shape {} does not match x's axes {}", name, shapeString(t->desc.shape),
                              shapeString(want)));
    }
  }
  if (y->desc.dtype != x->desc.dtype) return fail(api, kErrParamInvalid, "y must have x's type");
  if ((st = checkShape(api, "y", y->desc.shape, x->desc.shape)) != kSuccess) return st;
  int64_t after = 1;
  for (int64_t d = a + k; d < rank; ++d) after *= x->desc.shape[static_cast<size_t>(d)];
  const bool hasBias = bias != nullptr;
  auto inst = newDense(
      kScale,
      [inner, after, hasBias](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        std::vector<double> v = loadDense<double>(in[0]);
        const std::vector<double> sc = loadDense<double>(in[1]);
        const std::vector<double> b = hasBias ? loadDense<double>(in[2]) : std::vector<double>{};
        for (size_t i = 0; i < v.size(); ++i) {
          const size_t j = (i / static_cast<size_t>(after)) % static_cast<size_t>(inner);
          v[i] = v[i] * sc[j] + (hasBias ? b[j] : 0);
        }
        storeDense(out[0], v.data());
      },
      1);
  inst->attrs = fmt::format("axis={}, numAxes={}, scaleFromBlob={}", axis, numAxes, scaleFromBlob);
  addInput(*inst, "x", x);
  addInput(*inst, "scale", scale);
  if (hasBias) addInput(*inst, "bias", bias);
  addOutput(*inst, "y", y);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Scale)

extern "C" aclnnStatus aclnnSinkhornGetWorkspaceSize(const aclTensor* cost, const aclScalar* tol,
                                                     aclTensor* p, WS) {
  const char* api = "aclnnSinkhornGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"cost", cost}, {"p", p}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "cost", cost, kSinkhorn)) != kSuccess) return st;
  if ((st = checkTensor(api, "p", p->desc)) != kSuccess) return st;
  if (cost->desc.rank() != 2) return fail(api, kErrParamInvalid, "cost must be 2-D");
  if (p->desc.dtype != cost->desc.dtype) return fail(api, kErrParamInvalid, "p must have cost's type");
  if ((st = checkShape(api, "p", p->desc.shape, cost->desc.shape)) != kSuccess) return st;
  const double t = tol == nullptr ? 1e-4 : tol->value.toDouble();  // an absent tol: the doc's default
  auto inst = newDense(
      kSinkhorn,
      [t](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        std::vector<double> c = loadDense<double>(in[0]);
        const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
        for (double& e : c) e = std::exp(e);
        std::vector<double> d0(static_cast<size_t>(rows), 1.0), d1(static_cast<size_t>(cols), 1.0), old = d1;
        const double eps = 1e-8;
        double err = 1e9;
        for (int it = 0; err > t && it < 10000; ++it) {  // bounded: a tol of 0 would never stop
          for (int64_t r = 0; r < rows; ++r) {
            double s = 0;
            for (int64_t k = 0; k < cols; ++k)
              s += d1[static_cast<size_t>(k)] * c[static_cast<size_t>(r * cols + k)];
            d0[static_cast<size_t>(r)] = 1 / (static_cast<double>(rows) * (s + eps));
          }
          for (int64_t k = 0; k < cols; ++k) {
            double s = 0;
            for (int64_t r = 0; r < rows; ++r)
              s += d0[static_cast<size_t>(r)] * c[static_cast<size_t>(r * cols + k)];
            d1[static_cast<size_t>(k)] = 1 / (static_cast<double>(cols) * (s + eps));
          }
          err = 0;
          for (int64_t k = 0; k < cols; ++k)
            err += std::fabs(old[static_cast<size_t>(k)] - d1[static_cast<size_t>(k)]);
          err /= static_cast<double>(cols);
          old = d1;
        }
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t k = 0; k < cols; ++k)
            c[static_cast<size_t>(r * cols + k)] *= d1[static_cast<size_t>(k)] * d0[static_cast<size_t>(r)];
        storeDense(out[0], c.data());
      },
      8);
  inst->attrs = fmt::format("tol={}", t);
  addInput(*inst, "cost", cost);
  addOutput(*inst, "p", p);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Sinkhorn)

// qkv [B, T, 3 * n * d], qkvBias [3 * n * d] -> q, k, v [B, n, T, d]; q divided by sqrt(d).
extern "C" aclnnStatus aclnnTransformBiasRescaleQkvGetWorkspaceSize(const aclTensor* qkv,
                                                                    const aclTensor* qkvBias,
                                                                    int64_t numHeads, const aclTensor* qOut,
                                                                    const aclTensor* kOut,
                                                                    const aclTensor* vOut, WS) {
  const char* api = "aclnnTransformBiasRescaleQkvGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st =
      checkNotNull(api, {{"qkv", qkv}, {"qkvBias", qkvBias}, {"qOut", qOut}, {"kOut", kOut}, {"vOut", vOut}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "qkv", qkv, kTransformBiasRescaleQkv)) != kSuccess) return st;
  if ((st = checkInput(api, "qkvBias", qkvBias, kTransformBiasRescaleQkv)) != kSuccess) return st;
  if (qkv->desc.rank() != 3 || qkvBias->desc.rank() != 1 || qkvBias->desc.dtype != qkv->desc.dtype) {
    return fail(api, kErrParamInvalid, "qkv must be [B, T, 3 n d] and qkvBias [3 n d] of qkv's type");
  }
  const int64_t b = qkv->desc.shape[0], t = qkv->desc.shape[1], w = qkv->desc.shape[2];
  if (numHeads <= 0 || w % (3 * numHeads) != 0 || qkvBias->desc.shape[0] != w) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("qkv's last dimension {} is not 3 x numHeads ({}) x a head size, or qkvBias differs", w,
                    numHeads));
  }
  const int64_t d = w / (3 * numHeads);
  for (auto [name, o] : {std::pair{"qOut", qOut}, {"kOut", kOut}, {"vOut", vOut}}) {
    if ((st = checkTensor(api, name, o->desc)) != kSuccess) return st;
    if (o->desc.dtype != qkv->desc.dtype)
      return fail(api, kErrParamInvalid, fmt::format("{} must have qkv's type", name));
    if ((st = checkShape(api, name, o->desc.shape, {b, numHeads, t, d})) != kSuccess) return st;
  }
  const int64_t n = numHeads;
  auto inst = newDense(
      kTransformBiasRescaleQkv,
      [b, t, n, d](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> x = loadDense<double>(in[0]), bias = loadDense<double>(in[1]);
        const double rs = 1 / std::sqrt(static_cast<double>(d));
        for (int64_t part = 0; part < 3; ++part) {
          std::vector<double> o(static_cast<size_t>(b * n * t * d));
          for (int64_t bb = 0; bb < b; ++bb)
            for (int64_t tt = 0; tt < t; ++tt)
              for (int64_t h = 0; h < n; ++h)
                for (int64_t e = 0; e < d; ++e) {
                  const int64_t col = (part * n + h) * d + e;
                  const double v = x[static_cast<size_t>((bb * t + tt) * 3 * n * d + col)] +
                                   bias[static_cast<size_t>(col)];
                  o[static_cast<size_t>(((bb * n + h) * t + tt) * d + e)] = part == 0 ? v * rs : v;
                }
          storeDense(out[static_cast<size_t>(part)], o.data());
        }
      },
      1);
  inst->attrs = fmt::format("numHeads={}", numHeads);
  addInput(*inst, "qkv", qkv);
  addInput(*inst, "qkvBias", qkvBias);
  addOutput(*inst, "qOut", qOut);
  addOutput(*inst, "kOut", kOut);
  addOutput(*inst, "vOut", vOut);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(TransformBiasRescaleQkv)

// out: one uint32, 0 when every pair of elements is equal (NaN never equals), else 1.
extern "C" aclnnStatus aclnnPrecisionCompareGetWorkspaceSize(const aclTensor* golden,
                                                             const aclTensor* realdata, aclTensor* out, WS) {
  const char* api = "aclnnPrecisionCompareGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"golden", golden}, {"realdata", realdata}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "golden", golden, kPrecisionCompare)) != kSuccess) return st;
  if ((st = checkInput(api, "realdata", realdata, kPrecisionCompare)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (realdata->desc.dtype != golden->desc.dtype)
    return fail(api, kErrParamInvalid, "realdata must have golden's type");
  if ((st = checkShape(api, "realdata", realdata->desc.shape, golden->desc.shape)) != kSuccess) return st;
  if (out->desc.dtype != ACL_UINT32 || out->desc.numel() != 1) {
    return fail(api, kErrParamInvalid, fmt::format("out must be one uint32, not {}", out->desc.brief()));
  }
  auto inst = newDense(
      kPrecisionCompare,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> g = loadDense<double>(in[0]), r = loadDense<double>(in[1]);
        int64_t differ = 0;
        for (size_t i = 0; i < g.size() && differ == 0; ++i) differ = g[i] == r[i] ? 0 : 1;
        storeDense(out[0], &differ);
      },
      1);
  addInput(*inst, "golden", golden);
  addInput(*inst, "realdata", realdata);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(PrecisionCompare)

// self [L] or [B, L] real; out [(B,) N, T, 2] real, or [(B,) N, T] complex when returnComplex,
// N = nFft / 2 + 1 (onesided) or nFft, T = (L - nFft) / hopLength + 1. A complex self is 161002.
extern "C" aclnnStatus aclStftGetWorkspaceSize(const aclTensor* self, const aclTensor* windowOptional,
                                               aclTensor* out, int64_t nFft, int64_t hopLength,
                                               int64_t winLength, bool normalized, bool onesided,
                                               bool returnComplex, WS) {
  const char* api = "aclStftGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkInput(api, "self", self, kStft)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  const aclDataType sd = self->desc.dtype;
  if (isComplex(sd)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self is complex ({}): the simulator holds no complex values", dtypeName(sd)));
  }
  if (self->desc.rank() < 1 || self->desc.rank() > 2)
    return fail(api, kErrParamInvalid, "self must be [L] or [B, L]");
  const int64_t len = self->desc.shape.back();
  if (nFft <= 0 || nFft > len || hopLength <= 0 || winLength <= 0 || winLength > nFft) {
    return fail(api, kErrParamInvalid,
                fmt::format("nFft {}, hopLength {} and winLength {} do not fit a signal of {}", nFft,
                            hopLength, winLength, len));
  }
  if (windowOptional != nullptr) {
    if ((st = checkTensor(api, "windowOptional", windowOptional->desc)) != kSuccess) return st;
    if (windowOptional->desc.dtype != sd)
      return fail(api, kErrParamInvalid, "windowOptional must have self's type");
    if ((st = checkShape(api, "windowOptional", windowOptional->desc.shape, {winLength})) != kSuccess)
      return st;
  }
  const int64_t freqs = onesided ? nFft / 2 + 1 : nFft, frames = (len - nFft) / hopLength + 1;
  std::vector<int64_t> shape;
  if (self->desc.rank() == 2) shape.push_back(self->desc.shape[0]);
  shape.push_back(freqs);
  shape.push_back(frames);
  if (!returnComplex) shape.push_back(2);
  const aclDataType want = returnComplex ? (sd == ACL_DOUBLE ? ACL_COMPLEX128 : ACL_COMPLEX64) : sd;
  if (out->desc.dtype != want) {
    return fail(api, kErrParamInvalid,
                fmt::format("out must be {}, not {}", dtypeName(want), dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  const bool hasWindow = windowOptional != nullptr;
  auto inst = newDense(
      kStft,
      [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
        const std::vector<double> x = loadDense<double>(in[0]);
        const std::vector<double> w =
            hasWindow ? loadDense<double>(in[1]) : std::vector<double>(winLength, 1.0);
        const int64_t batch = static_cast<int64_t>(x.size()) / len;
        const double pi = std::acos(-1.0), scale = normalized ? 1 / std::sqrt(static_cast<double>(nFft)) : 1;
        std::vector<double> z(static_cast<size_t>(batch * freqs * frames * 2));
        for (int64_t b = 0; b < batch; ++b)
          for (int64_t f = 0; f < freqs; ++f)
            for (int64_t m = 0; m < frames; ++m) {
              double re = 0, im = 0;
              for (int64_t k = 0; k < winLength; ++k) {
                const double v =
                    w[static_cast<size_t>(k)] * x[static_cast<size_t>(b * len + m * hopLength + k)];
                const double ang = -2 * pi * static_cast<double>(f * k) / static_cast<double>(nFft);
                re += v * std::cos(ang);
                im += v * std::sin(ang);
              }
              const size_t at = static_cast<size_t>(((b * freqs + f) * frames + m) * 2);
              z[at] = re * scale;
              z[at + 1] = im * scale;
            }
        storeDense(isComplex(o[0].dtype) ? complexParts(o[0]) : o[0], z.data());
      },
      static_cast<int>(winLength));
  inst->attrs =
      fmt::format("nFft={}, hopLength={}, winLength={}, normalized={}, onesided={}, returnComplex={}", nFft,
                  hopLength, winLength, normalized, onesided, returnComplex);
  addInput(*inst, "self", self);
  if (hasWindow) addInput(*inst, "windowOptional", windowOptional);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

extern "C" aclnnStatus aclStft(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream) {
  return npusim::aclnn::runExecutor("aclStft", workspace, workspaceSize, executor, stream);
}
