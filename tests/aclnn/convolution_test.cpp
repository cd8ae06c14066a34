// The convolution family (aclnnConvolution, aclnnConvDepthwise2d, aclnnConvTbc,
// aclnnConvolutionBackward, aclnnConvTbcBackward, aclnnCalculateConvolutionWeightSize) on host
// memory against references written here: direct nested loops in fp64 for the forward
// products, and for the gradients the forward reference probed one element at a time (the
// convolution is linear in input and in weight, so each probe gives one gradient exactly).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_deformable_conv2d.h"
#include "aclnnop/aclnn_quant_convolution.h"
#include "aclnnop/aclnn_trans_convolution_weight.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using Shape = std::vector<int64_t>;

struct Conv {
  Shape stride, padLo, padHi, dilation, outputPadding;
  bool transposed = false;
  int64_t groups = 1;
};

int64_t product(const Shape& s, size_t from = 0) {
  int64_t p = 1;
  for (size_t i = from; i < s.size(); ++i) p *= s[i];
  return p;
}

// Row-major multi-index of `flat` in `shape`.
Shape unflatten(int64_t flat, const Shape& shape) {
  Shape idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  return idx;
}

int64_t flatten(const Shape& idx, const Shape& shape) {
  int64_t f = 0;
  for (size_t d = 0; d < shape.size(); ++d) f = f * shape[d] + idx[d];
  return f;
}

Shape outShapeOf(const Shape& xs, const Shape& ws, const Conv& c) {
  Shape o{xs[0], c.transposed ? ws[1] * c.groups : ws[0]};
  for (size_t i = 2; i < xs.size(); ++i) {
    const size_t s = i - 2;
    const int64_t span = c.dilation[s] * (ws[i] - 1) + 1;
    o.push_back(c.transposed ? (xs[i] - 1) * c.stride[s] - 2 * c.padLo[s] + span + c.outputPadding[s]
                             : (xs[i] + c.padLo[s] + c.padHi[s] - span) / c.stride[s] + 1);
  }
  return o;
}

// The index [n, ch, from * stride - pad + k * dilation] in a tensor of shape `limit` that tap k
// of position `from` (an index [n, c, spatial...]) reaches; false if it falls in the padding.
bool reach(const Shape& from, const Shape& k, const Conv& c, const Shape& limit, int64_t n, int64_t ch,
           Shape* to) {
  *to = {n, ch};
  for (size_t s = 0; s + 2 < from.size(); ++s) {
    const int64_t p = from[2 + s] * c.stride[s] - c.padLo[s] + k[s] * c.dilation[s];
    if (p < 0 || p >= limit[2 + s]) return false;
    to->push_back(p);
  }
  return true;
}

// The definition: plain convolution sums input[n, ci, o * stride - pad + k * dilation] *
// weight[co, ci, k] over the group's input channels and the kernel; the transposed one sends
// each input element to out[n, co, i * stride - pad + k * dilation] with weight[ci, co, k].
std::vector<double> refConv(const std::vector<double>& x, const Shape& xs, const std::vector<double>& w,
                            const Shape& ws, const std::vector<double>* bias, const Conv& c) {
  const Shape os = outShapeOf(xs, ws, c);
  std::vector<double> out(static_cast<size_t>(product(os)), 0.0);
  const Shape ks(ws.begin() + 2, ws.end());
  const int64_t kn = product(ks);
  if (!c.transposed) {
    const int64_t cinG = ws[1], coutG = ws[0] / c.groups;
    for (int64_t f = 0; f < static_cast<int64_t>(out.size()); ++f) {
      const Shape o = unflatten(f, os);
      const int64_t g = o[1] / coutG;
      double acc = bias ? (*bias)[static_cast<size_t>(o[1])] : 0.0;
      for (int64_t ci = 0; ci < cinG; ++ci) {
        for (int64_t kf = 0; kf < kn; ++kf) {
          const Shape k = unflatten(kf, ks);
          Shape xi;
          if (!reach(o, k, c, xs, o[0], g * cinG + ci, &xi)) continue;
          Shape wi{o[1], ci};
          wi.insert(wi.end(), k.begin(), k.end());
          acc += x[static_cast<size_t>(flatten(xi, xs))] * w[static_cast<size_t>(flatten(wi, ws))];
        }
      }
      out[static_cast<size_t>(f)] = acc;
    }
    return out;
  }
  const int64_t cinG = ws[0] / c.groups, coutG = ws[1];
  for (int64_t f = 0; f < product(xs); ++f) {
    const Shape i = unflatten(f, xs);
    const int64_t g = i[1] / cinG;
    for (int64_t co = 0; co < coutG; ++co) {
      for (int64_t kf = 0; kf < kn; ++kf) {
        const Shape k = unflatten(kf, ks);
        Shape oi;
        if (!reach(i, k, c, os, i[0], g * coutG + co, &oi)) continue;
        Shape wi{i[1], co};
        wi.insert(wi.end(), k.begin(), k.end());
        out[static_cast<size_t>(flatten(oi, os))] +=
            x[static_cast<size_t>(f)] * w[static_cast<size_t>(flatten(wi, ws))];
      }
    }
  }
  if (bias) {
    const int64_t sp = product(os, 2);
    for (size_t f = 0; f < out.size(); ++f) out[f] += (*bias)[static_cast<size_t>((f / sp) % os[1])];
  }
  return out;
}

std::vector<double> values(HostTensorBuf& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = t.get(i);
  return v;
}

// Tolerance of a K-term fp32-accumulated sum stored in dt.
double sumTol(aclDataType dt, double ref, double absSum) {
  return 4 * tol(dt) * std::max(1.0, std::fabs(ref)) + 1e-6 * absSum;
}

// HF32 keeps 11 fraction bits, rounded to nearest even (computed here on doubles).
double roundHf32(double v) {
  if (v == 0) return v;
  int e;
  std::frexp(v, &e);
  const double ulp = std::ldexp(1.0, e - 12);
  return std::nearbyint(v / ulp) * ulp;
}

struct IntArray {
  aclIntArray* a;
  explicit IntArray(const Shape& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
};

int convolution(HostTensorBuf& x, HostTensorBuf& w, HostTensorBuf* bias, const Conv& c, HostTensorBuf& out,
                int8_t cubeMathType) {
  Shape pad = c.padLo;
  if (c.padHi != c.padLo) {  // the [before, after] form
    pad.clear();
    for (size_t i = 0; i < c.padLo.size(); ++i) pad.insert(pad.end(), {c.padLo[i], c.padHi[i]});
  }
  IntArray stride(c.stride), padding(pad), dilation(c.dilation), outPad(c.outputPadding);
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnConvolutionGetWorkspaceSize(x.get(), w.get(), bias ? bias->get() : nullptr, stride.a,
                                            padding.a, dilation.a, c.transposed, outPad.a, c.groups,
                                            out.get(), cubeMathType, ws, ex);
  });
}

// Runs aclnnConvolution on random data and compares with refConv.
void checkForward(const Shape& xs, const Shape& ws, const Conv& c, aclDataType dt, bool withBias,
                  int8_t cubeMathType, std::mt19937& g) {
  HostTensorBuf x(dt, xs), w(dt, ws), out(dt, outShapeOf(xs, ws, c));
  HostTensorBuf bias(dt, {outShapeOf(xs, ws, c)[1]});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  bias.fillRandom(g, -1, 1);
  ASSERT_EQ(convolution(x, w, withBias ? &bias : nullptr, c, out, cubeMathType), 0) << aclGetRecentErrMsg();
  const std::vector<double> b = values(bias);
  const std::vector<double> ref = refConv(values(x), xs, values(w), ws, withBias ? &b : nullptr, c);
  std::vector<double> absX = values(x), absW = values(w);
  for (double& v : absX) v = std::fabs(v);
  for (double& v : absW) v = std::fabs(v);
  const std::vector<double> mag = refConv(absX, xs, absW, ws, nullptr, c);
  ASSERT_EQ(out.numel(), static_cast<int64_t>(ref.size()));
  for (int64_t i = 0; i < out.numel(); ++i) {
    const auto k = static_cast<size_t>(i);
    ASSERT_NEAR(out.get(i), ref[k], sumTol(dt, ref[k], mag[k]))
        << "element " << i << ", dtype " << static_cast<int>(dt);
  }
}

}  // namespace

TEST(Convolution, Conv2dWithGroupsStrideDilationAndBiasMatchesDirectLoops) {
  std::mt19937 g(28);
  Conv c;
  c.stride = {2, 1};
  c.padLo = c.padHi = {1, 2};
  c.dilation = {1, 2};
  c.groups = 2;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    checkForward({2, 4, 7, 6}, {6, 2, 3, 2}, c, dt, true, dt == ACL_FLOAT ? 0 : 1, g);
  }
}

TEST(Convolution, Conv1dWithAsymmetricPaddingAndConv3dMatchDirectLoops) {
  std::mt19937 g(29);
  Conv c1;
  c1.stride = {2};
  c1.padLo = {2};
  c1.padHi = {0};
  c1.dilation = {1};
  checkForward({3, 2, 9}, {4, 2, 3}, c1, ACL_FLOAT, true, 0, g);
  checkForward({3, 2, 9}, {4, 2, 3}, c1, ACL_FLOAT16, false, 0, g);
  Conv c3;
  c3.stride = {1, 2, 1};
  c3.padLo = c3.padHi = {1, 0, 1};
  c3.dilation = {1, 1, 2};
  c3.groups = 3;
  checkForward({2, 3, 4, 5, 5}, {3, 1, 2, 3, 2}, c3, ACL_FLOAT, true, 0, g);
  checkForward({2, 3, 4, 5, 5}, {3, 1, 2, 3, 2}, c3, ACL_BF16, true, 1, g);
}

TEST(Convolution, TransposedWithOutputPaddingMatchesDirectLoops) {
  std::mt19937 g(30);
  Conv c1;
  c1.transposed = true;
  c1.stride = {3};
  c1.padLo = c1.padHi = {1};
  c1.dilation = {1};
  c1.outputPadding = {2};
  checkForward({2, 4, 5}, {4, 3, 3}, c1, ACL_FLOAT, true, 0, g);
  Conv c2;
  c2.transposed = true;
  c2.stride = {2, 2};
  c2.padLo = c2.padHi = {1, 0};
  c2.dilation = {1, 2};
  c2.outputPadding = {1, 0};
  c2.groups = 2;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    checkForward({2, 4, 3, 4}, {4, 3, 3, 2}, c2, dt, true, dt == ACL_FLOAT ? 0 : 1, g);
  }
  Conv c3;
  c3.transposed = true;
  c3.stride = {2, 1, 2};
  c3.padLo = c3.padHi = {0, 1, 1};
  c3.dilation = {1, 1, 1};
  c3.outputPadding = {1, 0, 0};
  checkForward({1, 2, 3, 3, 2}, {2, 2, 2, 3, 3}, c3, ACL_FLOAT16, false, 0, g);
}

TEST(Convolution, Fp32RunsInFp32WithKeepDtypeAndInHf32WithDownPrecision) {
  std::mt19937 g(31);
  const Shape xs{1, 8, 6, 6}, ws{4, 8, 3, 3};
  Conv c;
  c.stride = c.dilation = {1, 1};
  c.padLo = c.padHi = {1, 1};
  HostTensorBuf x(ACL_FLOAT, xs), w(ACL_FLOAT, ws), keep(ACL_FLOAT, {1, 4, 6, 6}),
      hf32(ACL_FLOAT, {1, 4, 6, 6});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  ASSERT_EQ(convolution(x, w, nullptr, c, keep, 0), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(convolution(x, w, nullptr, c, hf32, 1), 0) << aclGetRecentErrMsg();
  std::vector<double> xv = values(x), wv = values(w);
  const std::vector<double> exact = refConv(xv, xs, wv, ws, nullptr, c);
  for (double& v : xv) v = roundHf32(v);
  for (double& v : wv) v = roundHf32(v);
  const std::vector<double> rounded = refConv(xv, xs, wv, ws, nullptr, c);
  double hf32Off = 0;
  for (int64_t i = 0; i < keep.numel(); ++i) {
    const auto k = static_cast<size_t>(i);
    EXPECT_NEAR(keep.get(i), exact[k], 1e-5) << i;
    EXPECT_NEAR(hf32.get(i), rounded[k], 1e-5) << i;
    hf32Off = std::max(hf32Off, std::fabs(hf32.get(i) - exact[k]));
  }
  EXPECT_GT(hf32Off, 1e-5);  // HF32 operands really lose precision
}

TEST(Convolution, UseFp16RoundsFp32OperandsAndResultToFp16) {
  std::mt19937 g(35);
  const Shape xs{1, 6, 5, 5}, ws{3, 6, 3, 3};
  Conv c;
  c.stride = c.dilation = {1, 1};
  c.padLo = c.padHi = {1, 1};
  HostTensorBuf x(ACL_FLOAT, xs), w(ACL_FLOAT, ws), out(ACL_FLOAT, {1, 3, 5, 5});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  ASSERT_EQ(convolution(x, w, nullptr, c, out, 2), 0) << aclGetRecentErrMsg();
  std::vector<double> xv = values(x), wv = values(w);
  for (double& v : xv) v = roundF16(v);
  for (double& v : wv) v = roundF16(v);
  const std::vector<double> ref = refConv(xv, xs, wv, ws, nullptr, c);
  for (int64_t i = 0; i < out.numel(); ++i) {
    EXPECT_EQ(out.get(i), roundF16(out.get(i))) << "result not in fp16 precision at " << i;
    expectNear(out.get(i), ref[static_cast<size_t>(i)], ACL_FLOAT16, "element " + std::to_string(i));
  }
}

TEST(Convolution, NonContiguousChannelsLastInputGivesTheSameResult) {
  std::mt19937 g(32);
  const Shape xs{2, 3, 4, 5}, ws{2, 3, 2, 2};
  Conv c;
  c.stride = c.dilation = {1, 1};
  c.padLo = c.padHi = {0, 1};
  // NHWC storage seen as NCHW: strides (H*W*C, 1, W*C, C).
  HostTensorBuf x(ACL_FLOAT, xs, {60, 1, 15, 3}, 0), w(ACL_FLOAT, ws), out(ACL_FLOAT, outShapeOf(xs, ws, c));
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  ASSERT_EQ(convolution(x, w, nullptr, c, out, 0), 0) << aclGetRecentErrMsg();
  const std::vector<double> ref = refConv(values(x), xs, values(w), ws, nullptr, c);
  for (int64_t i = 0; i < out.numel(); ++i) EXPECT_NEAR(out.get(i), ref[static_cast<size_t>(i)], 1e-5) << i;
}

TEST(Convolution, EmptyBatchSucceedsAndWritesNothing) {
  Conv c;
  c.stride = c.dilation = {1, 1};
  c.padLo = c.padHi = {0, 0};
  HostTensorBuf x(ACL_FLOAT, {0, 2, 4, 4}), w(ACL_FLOAT, {3, 2, 3, 3}), out(ACL_FLOAT, {0, 3, 2, 2});
  EXPECT_EQ(convolution(x, w, nullptr, c, out, 0), 0) << aclGetRecentErrMsg();
}

TEST(Convolution, DepthwiseMatchesGroupsEqualToChannels) {
  std::mt19937 g(33);
  const Shape xs{2, 3, 6, 5}, ws{6, 1, 3, 2};
  Conv c;
  c.stride = {1, 2};
  c.padLo = c.padHi = {1, 1};
  c.dilation = {2, 1};
  c.groups = 3;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    HostTensorBuf x(dt, xs), w(dt, ws), bias(dt, {6}), out(dt, outShapeOf(xs, ws, c));
    x.fillRandom(g, -1, 1);
    w.fillRandom(g, -1, 1);
    bias.fillRandom(g, -1, 1);
    IntArray kernel({3, 2}), stride(c.stride), padding(c.padLo), dilation(c.dilation);
    ASSERT_EQ(run([&](uint64_t* wsz, aclOpExecutor** ex) {
                return aclnnConvDepthwise2dGetWorkspaceSize(x.get(), w.get(), kernel.a, bias.get(), stride.a,
                                                            padding.a, dilation.a, out.get(),
                                                            dt == ACL_FLOAT ? 0 : 1, wsz, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    const std::vector<double> b = values(bias);
    const std::vector<double> ref = refConv(values(x), xs, values(w), ws, &b, c);
    for (int64_t i = 0; i < out.numel(); ++i) {
      expectNear(out.get(i), ref[static_cast<size_t>(i)], dt, "depthwise element " + std::to_string(i));
    }
  }
  // kernelSize must describe the weight.
  HostTensorBuf x(ACL_FLOAT, xs), w(ACL_FLOAT, ws), out(ACL_FLOAT, outShapeOf(xs, ws, c));
  IntArray kernel({3, 3}), stride(c.stride), padding(c.padLo), dilation(c.dilation);
  EXPECT_EQ(run([&](uint64_t* wsz, aclOpExecutor** ex) {
              return aclnnConvDepthwise2dGetWorkspaceSize(x.get(), w.get(), kernel.a, nullptr, stride.a,
                                                          padding.a, dilation.a, out.get(), 1, wsz, ex);
            }),
            kParamInvalid);
}

TEST(Convolution, ConvTbcIsATimeMajorConvolutionOverTime) {
  std::mt19937 g(34);
  const int64_t T = 6, B = 2, cin = 3, cout = 4, K = 3, pad = 1, To = T + 2 * pad - K + 1;
  HostTensorBuf x(ACL_FLOAT, {T, B, cin}), w(ACL_FLOAT, {K, cin, cout}), bias(ACL_FLOAT, {cout}),
      out(ACL_FLOAT, {To, B, cout});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  bias.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConvTbcGetWorkspaceSize(x.get(), w.get(), bias.get(), pad, out.get(), 0, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t t = 0; t < To; ++t) {
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t co = 0; co < cout; ++co) {
        double ref = bias.get(co);
        for (int64_t k = 0; k < K; ++k) {
          const int64_t ti = t + k - pad;
          if (ti < 0 || ti >= T) continue;
          for (int64_t ci = 0; ci < cin; ++ci)
            ref += x.get((ti * B + b) * cin + ci) * w.get((k * cin + ci) * cout + co);
        }
        EXPECT_NEAR(out.get((t * B + b) * cout + co), ref, 1e-5) << t << "," << b << "," << co;
      }
    }
  }
  // ConvTbc requires its bias.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConvTbcGetWorkspaceSize(x.get(), w.get(), nullptr, pad, out.get(), 0, ws, ex);
            }),
            kParamNull);
}

namespace {

// aclnnConvolutionBackward on random data; each requested gradient is compared with the
// forward reference probed element by element: gradInput[j] = <gradOut, conv(e_j, w)>,
// gradWeight[j] = <gradOut, conv(x, e_j)>, gradBias[c] = <gradOut, conv(0, 0, bias = e_c)>.
void checkBackward(const Shape& xs, const Shape& ws, const Conv& c, aclDataType dt, std::array<bool, 3> mask,
                   std::mt19937& g) {
  const Shape os = outShapeOf(xs, ws, c);
  HostTensorBuf x(dt, xs), w(dt, ws), dy(dt, os), dx(dt, xs), dw(dt, ws), db(dt, {os[1]});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  dy.fillRandom(g, -1, 1);
  for (HostTensorBuf* t : {&dx, &dw, &db}) {
    for (int64_t i = 0; i < t->numel(); ++i) t->set(i, 7);  // untouched unless requested
  }
  IntArray stride(c.stride), padding(c.padLo), dilation(c.dilation), outPad(c.outputPadding),
      biasSizes({os[1]});
  bool maskData[3] = {mask[0], mask[1], mask[2]};
  aclBoolArray* outputMask = aclCreateBoolArray(maskData, 3);
  ASSERT_EQ(run([&](uint64_t* wsz, aclOpExecutor** ex) {
              return aclnnConvolutionBackwardGetWorkspaceSize(
                  dy.get(), x.get(), w.get(), biasSizes.a, stride.a, padding.a, dilation.a, c.transposed,
                  outPad.a, static_cast<int>(c.groups), outputMask, dt == ACL_FLOAT ? 0 : 1,
                  mask[0] ? dx.get() : nullptr, mask[1] ? dw.get() : nullptr, mask[2] ? db.get() : nullptr,
                  wsz, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  aclDestroyBoolArray(outputMask);
  const std::vector<double> xv = values(x), wv = values(w), dyv = values(dy);
  auto dot = [&](const std::vector<double>& y) {
    double s = 0, a = 0;
    for (size_t i = 0; i < y.size(); ++i) s += y[i] * dyv[i], a += std::fabs(y[i] * dyv[i]);
    return std::make_pair(s, a);
  };
  auto probe = [&](HostTensorBuf& grad, bool requested,
                   const std::function<std::vector<double>(size_t)>& conv, const char* what) {
    for (int64_t i = 0; i < grad.numel(); ++i) {
      if (!requested) {
        ASSERT_EQ(grad.get(i), 7) << what << " written though outputMask left it out";
        continue;
      }
      const auto [ref, mag] = dot(conv(static_cast<size_t>(i)));
      ASSERT_NEAR(grad.get(i), ref, sumTol(dt, ref, mag)) << what << " " << i;
    }
  };
  probe(
      dx, mask[0],
      [&](size_t j) {
        std::vector<double> e(xv.size(), 0.0);
        e[j] = 1;
        return refConv(e, xs, wv, ws, nullptr, c);
      },
      "gradInput");
  probe(
      dw, mask[1],
      [&](size_t j) {
        std::vector<double> e(wv.size(), 0.0);
        e[j] = 1;
        return refConv(xv, xs, e, ws, nullptr, c);
      },
      "gradWeight");
  probe(
      db, mask[2],
      [&](size_t j) {
        std::vector<double> e(static_cast<size_t>(os[1]), 0.0);
        e[j] = 1;
        return refConv(std::vector<double>(xv.size(), 0.0), xs, wv, ws, &e, c);
      },
      "gradBias");
}

}  // namespace

TEST(ConvolutionBackward, GradientsOf2dGroupedStridedConvolutionMatchProbedForward) {
  std::mt19937 g(40);
  Conv c;
  c.stride = {2, 1};
  c.padLo = c.padHi = {1, 1};
  c.dilation = {1, 2};
  c.outputPadding = {0, 0};
  c.groups = 2;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
    checkBackward({2, 4, 5, 6}, {4, 2, 3, 2}, c, dt, {true, true, true}, g);
}

TEST(ConvolutionBackward, OutputMaskSelectsTheGradients1dAnd3d) {
  std::mt19937 g(41);
  Conv c1;
  c1.stride = {2};
  c1.padLo = c1.padHi = {1};
  c1.dilation = {1};
  c1.outputPadding = {0};
  checkBackward({3, 2, 9}, {2, 2, 3}, c1, ACL_FLOAT, {false, true, false}, g);
  checkBackward({3, 2, 9}, {2, 2, 3}, c1, ACL_FLOAT, {true, false, true}, g);
  Conv c3;
  c3.stride = {1, 2, 1};
  c3.padLo = c3.padHi = {0, 1, 1};
  c3.dilation = {1, 1, 1};
  c3.outputPadding = {0, 0, 0};
  checkBackward({2, 2, 3, 4, 4}, {3, 2, 2, 2, 3}, c3, ACL_FLOAT, {true, true, true}, g);
  checkBackward({2, 2, 3, 4, 4}, {3, 2, 2, 2, 3}, c3, ACL_FLOAT, {false, false, true}, g);
}

TEST(ConvolutionBackward, GradientsOfTransposedConvolutionMatchProbedForward) {
  std::mt19937 g(42);
  Conv c;
  c.transposed = true;
  c.stride = {2, 2};
  c.padLo = c.padHi = {1, 0};
  c.dilation = {1, 1};
  c.outputPadding = {1, 1};
  c.groups = 2;
  checkBackward({2, 4, 3, 3}, {4, 3, 3, 2}, c, ACL_FLOAT, {true, true, true}, g);
  checkBackward({2, 4, 3, 3}, {4, 3, 3, 2}, c, ACL_FLOAT16, {true, true, true}, g);
}

TEST(ConvolutionBackward, ConvTbcBackwardMatchesTheTimeMajorDefinition) {
  std::mt19937 g(43);
  const int64_t T = 5, B = 2, cin = 3, cout = 2, K = 2, pad = 1, To = T + 2 * pad - K + 1;
  HostTensorBuf x(ACL_FLOAT, {T, B, cin}), w(ACL_FLOAT, {K, cin, cout}), bias(ACL_FLOAT, {cout}),
      dy(ACL_FLOAT, {To, B, cout}), dx(ACL_FLOAT, {T, B, cin}), dw(ACL_FLOAT, {K, cin, cout}),
      db(ACL_FLOAT, {cout});
  for (HostTensorBuf* t : {&x, &w, &bias, &dy}) t->fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConvTbcBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), bias.get(), pad, 0,
                                                          dx.get(), dw.get(), db.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  // out[t, b, co] = bias[co] + sum_{k, ci} x[t + k - pad, b, ci] * w[k, ci, co]: differentiate directly.
  std::vector<double> rdx(static_cast<size_t>(T * B * cin), 0.0),
      rdw(static_cast<size_t>(K * cin * cout), 0.0), rdb(static_cast<size_t>(cout), 0.0);
  for (int64_t t = 0; t < To; ++t) {
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t co = 0; co < cout; ++co) {
        const double d = dy.get((t * B + b) * cout + co);
        rdb[static_cast<size_t>(co)] += d;
        for (int64_t k = 0; k < K; ++k) {
          const int64_t ti = t + k - pad;
          if (ti < 0 || ti >= T) continue;
          for (int64_t ci = 0; ci < cin; ++ci) {
            rdx[static_cast<size_t>((ti * B + b) * cin + ci)] += d * w.get((k * cin + ci) * cout + co);
            rdw[static_cast<size_t>((k * cin + ci) * cout + co)] += d * x.get((ti * B + b) * cin + ci);
          }
        }
      }
    }
  }
  for (int64_t i = 0; i < dx.numel(); ++i) EXPECT_NEAR(dx.get(i), rdx[static_cast<size_t>(i)], 1e-5) << i;
  for (int64_t i = 0; i < dw.numel(); ++i) EXPECT_NEAR(dw.get(i), rdw[static_cast<size_t>(i)], 1e-5) << i;
  for (int64_t i = 0; i < db.numel(); ++i) EXPECT_NEAR(db.get(i), rdb[static_cast<size_t>(i)], 1e-5) << i;
}

TEST(Convolution, BadArgumentsGetTheDocumentedCodes) {
  HostTensorBuf x(ACL_FLOAT, {1, 4, 5, 5}), w(ACL_FLOAT, {2, 4, 3, 3}), out(ACL_FLOAT, {1, 2, 3, 3});
  HostTensorBuf bf(ACL_BF16, {1, 4, 5, 5}), bw(ACL_BF16, {2, 4, 3, 3}), bo(ACL_BF16, {1, 2, 3, 3});
  HostTensorBuf wrongOut(ACL_FLOAT, {1, 2, 4, 4}), wrongBias(ACL_FLOAT, {3});
  IntArray one({1, 1}), zero({0, 0}), three({1, 1, 1}), big({3, 3});
  auto call = [&](const aclTensor* in, const aclTensor* wt, const aclTensor* b, const aclIntArray* s,
                  const aclIntArray* p, const aclIntArray* d, bool tr, const aclIntArray* op, int64_t groups,
                  aclTensor* o, int8_t cube) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnConvolutionGetWorkspaceSize(in, wt, b, s, p, d, tr, op, groups, o, cube, ws, ex);
    });
  };
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, out.get(), 0), 0);
  EXPECT_EQ(call(nullptr, w.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamNull);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, nullptr, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamNull);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, wrongOut.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), w.get(), wrongBias.get(), one.a, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, zero.a, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, three.a, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 3, out.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, big.a, false, zero.a, 1, out.get(), 0),
            kParamInvalid);  // the dilated kernel (7) is larger than the input (5)
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, out.get(), 4),
            kParamInvalid);
  EXPECT_EQ(call(bf.get(), bw.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, bo.get(), 2),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), bw.get(), nullptr, one.a, zero.a, one.a, false, zero.a, 1, out.get(), 0),
            kParamInvalid);
  // Transposed: outputPadding must be below stride or dilation.
  HostTensorBuf tw(ACL_FLOAT, {4, 2, 3, 3}), tout(ACL_FLOAT, {1, 2, 7, 7});
  EXPECT_EQ(call(x.get(), tw.get(), nullptr, one.a, zero.a, one.a, true, zero.a, 1, tout.get(), 0), 0);
  EXPECT_EQ(call(x.get(), tw.get(), nullptr, one.a, zero.a, one.a, true, one.a, 1, tout.get(), 0),
            kParamInvalid);
  EXPECT_EQ(call(x.get(), tw.get(), nullptr, one.a, zero.a, one.a, true, nullptr, 1, tout.get(), 0),
            kParamNull);
  // Backward: a requested gradient must be given; outputMask has three values.
  HostTensorBuf dy(ACL_FLOAT, {1, 2, 3, 3}), dx(ACL_FLOAT, {1, 4, 5, 5});
  bool m3[3] = {true, false, false}, m2[2] = {true, false};
  aclBoolArray* mask3 = aclCreateBoolArray(m3, 3);
  aclBoolArray* mask2 = aclCreateBoolArray(m2, 2);
  auto back = [&](const aclBoolArray* mask, aclTensor* gi) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnConvolutionBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), nullptr, one.a, zero.a,
                                                      one.a, false, zero.a, 1, mask, 0, gi, nullptr, nullptr,
                                                      ws, ex);
    });
  };
  EXPECT_EQ(back(mask3, dx.get()), 0);
  EXPECT_EQ(back(mask3, nullptr), kParamNull);
  EXPECT_EQ(back(mask2, dx.get()), kParamInvalid);
  EXPECT_EQ(back(nullptr, dx.get()), kParamNull);
  aclDestroyBoolArray(mask3);
  aclDestroyBoolArray(mask2);
}

TEST(Convolution, CubeWorkIsTheImplicitGemmOfTheConvolution) {
  // fp16 2-D convolution: 2 x Cout x Ho x Wo x Cin/groups x kh x kw MACs at the fp16 rate, the
  // output written once, input and weight read once; fp32 (KEEP_DTYPE) takes two MAC slots each.
  const int64_t N = 2, cin = 8, cout = 6, H = 9, W = 7, kh = 3, kw = 2, groups = 2;
  Conv c;
  c.stride = c.dilation = {1, 1};
  c.padLo = c.padHi = {1, 0};
  const Shape xs{N, cin, H, W}, ws{cout, cin / groups, kh, kw}, os = outShapeOf(xs, ws, c);
  for (aclDataType dt : {ACL_FLOAT16, ACL_FLOAT}) {
    HostTensorBuf x(dt, xs), w(dt, ws), out(dt, os);
    IntArray stride(c.stride), padding(c.padLo), dilation(c.dilation), outPad({0, 0});
    uint64_t wsz = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnConvolutionGetWorkspaceSize(x.get(), w.get(), nullptr, stride.a, padding.a, dilation.a,
                                               false, outPad.a, groups, out.get(), 0, &wsz, &ex),
              0)
        << aclGetRecentErrMsg();
    uint64_t macs = 0;
    for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) macs += t.cubeMacs;
    const Charged bytes = chargedBytes(ex);
    const uint64_t expected = static_cast<uint64_t>(N * cout * os[2] * os[3] * (cin / groups) * kh * kw);
    EXPECT_EQ(macs, expected * (dt == ACL_FLOAT ? 2 : 1));
    const uint64_t es = elemSize(dt);
    EXPECT_EQ(bytes.written, static_cast<uint64_t>(out.numel()) * es);
    EXPECT_EQ(bytes.read, static_cast<uint64_t>(x.numel() + w.numel()) * es);
  }
}

TEST(Convolution, WeightSizeIsTheFractalZElementCount) {
  uint64_t size = 1;
  // The documented example: [2, 4, 8, 8] in fp16 becomes [64, 1, 16, 16].
  IntArray doc({2, 4, 8, 8});
  ASSERT_EQ(aclnnCalculateConvolutionWeightSize(doc.a, false, 1, ACL_FLOAT16, &size), 0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(size, 64u * 16 * 16);
  // Depthwise 32 x [1, 1, 3, 3]: 16 groups fill one 16-channel block on both sides, two such
  // packs of 9 taps each of 16 x 16.
  IntArray dw({32, 1, 3, 3});
  ASSERT_EQ(aclnnCalculateConvolutionWeightSize(dw.a, false, 32, ACL_FLOAT16, &size), 0);
  EXPECT_EQ(size, 2u * 9 * 16 * 16);
  IntArray empty({0, 4, 3, 3});
  ASSERT_EQ(aclnnCalculateConvolutionWeightSize(empty.a, false, 1, ACL_FLOAT16, &size), 0);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclnnCalculateConvolutionWeightSize(doc.a, true, 1, ACL_FLOAT16, &size), kParamInvalid);
  EXPECT_EQ(aclnnCalculateConvolutionWeightSize(doc.a, false, 1, ACL_FLOAT, &size), kParamInvalid);
  EXPECT_EQ(aclnnCalculateConvolutionWeightSize(nullptr, false, 1, ACL_FLOAT16, &size), kParamNull);
  // The transform itself is not available on the simulated Atlas A2.
  HostTensorBuf w(ACL_FLOAT16, {2, 4, 8, 8}), wo(ACL_FLOAT16, {2, 4, 8, 8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnTransConvolutionWeightGetWorkspaceSize(w.get(), false, 1, wo.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("Atlas A2"), std::string::npos);
}

TEST(QuantConvolution, Int8SumsAreExactThenScaledAndBiasedPerChannel) {
  std::mt19937 g(50);
  Conv c;
  c.stride = {1, 2, 1};
  c.padLo = c.padHi = {1, 0, 1};
  c.dilation = {1, 1, 2};
  const Shape xs{2, 3, 4, 5, 6}, ws{4, 3, 2, 3, 2}, os = outShapeOf(xs, ws, c);
  for (aclDataType outType : {ACL_BF16, ACL_FLOAT16}) {
    HostTensorBuf x(ACL_INT8, xs), w(ACL_INT8, ws), scale(ACL_FLOAT, {4}), bias(ACL_FLOAT, {4}),
        out(outType, os);
    x.fillRandom(g, -128, 128);
    w.fillRandom(g, -128, 128);
    scale.fillRandom(g, 1e-4, 1e-3);
    bias.fillRandom(g, -1, 1);
    IntArray stride(c.stride), padding(c.padLo), dilation(c.dilation);
    ASSERT_EQ(run([&](uint64_t* wsz, aclOpExecutor** ex) {
                return aclnnQuantConvolutionGetWorkspaceSize(x.get(), w.get(), bias.get(), scale.get(),
                                                             nullptr, stride.a, padding.a, dilation.a, false,
                                                             nullptr, 1, 0, nullptr, out.get(), wsz, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    const std::vector<double> sums = refConv(values(x), xs, values(w), ws, nullptr, c);
    const int64_t sp = product(os, 2);
    for (int64_t i = 0; i < out.numel(); ++i) {
      const int64_t ch = (i / sp) % os[1];
      // The integer sum is exact; fp32 dequantisation, then one rounding to the output type.
      const double want =
          roundTo(outType, static_cast<float>(static_cast<float>(sums[static_cast<size_t>(i)]) *
                                                  static_cast<float>(scale.get(ch)) +
                                              static_cast<float>(bias.get(ch))));
      ASSERT_EQ(out.get(i), want) << i;
    }
  }
}

TEST(QuantConvolution, RefusesWhatAtlasA2DoesNotTake) {
  HostTensorBuf x(ACL_INT8, {1, 2, 3, 3, 3}), w(ACL_INT8, {2, 2, 1, 1, 1}), scale(ACL_FLOAT, {2}),
      out(ACL_BF16, {1, 2, 3, 3, 3}), fx(ACL_FLOAT16, {1, 2, 3, 3, 3}), x2(ACL_INT8, {1, 2, 3, 3}),
      w2(ACL_INT8, {2, 2, 1, 1}), out2(ACL_BF16, {1, 2, 3, 3}), wg(ACL_INT8, {2, 1, 1, 1, 1}),
      out32(ACL_FLOAT, {1, 2, 3, 3, 3});
  IntArray one({1, 1, 1}), zero({0, 0, 0}), one2({1, 1}), zero2({0, 0});
  auto call = [&](const aclTensor* in, const aclTensor* wt, const aclTensor* sc, const aclIntArray* s,
                  const aclIntArray* p, int64_t groups, aclTensor* o) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnQuantConvolutionGetWorkspaceSize(in, wt, nullptr, sc, nullptr, s, p, s, false, nullptr,
                                                   groups, 0, nullptr, o, ws, ex);
    });
  };
  EXPECT_EQ(call(x.get(), w.get(), scale.get(), one.a, zero.a, 1, out.get()), 0) << aclGetRecentErrMsg();
  EXPECT_EQ(call(x.get(), w.get(), nullptr, one.a, zero.a, 1, out.get()), kParamNull);
  EXPECT_EQ(call(fx.get(), w.get(), scale.get(), one.a, zero.a, 1, out.get()), kParamInvalid);
  EXPECT_EQ(call(x2.get(), w2.get(), scale.get(), one2.a, zero2.a, 1, out2.get()), kParamInvalid);  // 2-D
  EXPECT_EQ(call(x.get(), wg.get(), scale.get(), one.a, zero.a, 2, out.get()), kParamInvalid);  // groups 2
  EXPECT_EQ(call(x.get(), w.get(), scale.get(), one.a, zero.a, 1, out32.get()),
            kParamInvalid);  // fp32 output
}

TEST(DeformableConv2d, SamplesBilinearlyAtTheOffsetTapsThenConvolves) {
  std::mt19937 g(60);
  const int64_t N = 2, C = 4, H = 5, W = 6, outC = 6, kH = 3, kW = 2, groups = 2, dg = 2;
  const int64_t sH = 2, sW = 1, padT = 1, padB = 1, padL = 0, padR = 1, dH = 1, dW = 2;
  const int64_t oH = (H + padT + padB - (kH - 1) * dH - 1) / sH + 1,
                oW = (W + padL + padR - (kW - 1) * dW - 1) / sW + 1;
  const int64_t K = kH * kW;
  HostTensorBuf x(ACL_FLOAT, {N, C, H, W}), w(ACL_FLOAT, {outC, C / groups, kH, kW}),
      off(ACL_FLOAT, {N, 3 * dg * K, oH, oW}), bias(ACL_FLOAT, {outC}), out(ACL_FLOAT, {N, outC, oH, oW}),
      deform(ACL_FLOAT, {N, C, oH * kH, oW * kW});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  off.fillRandom(g, -1.5, 1.5);
  bias.fillRandom(g, -1, 1);
  IntArray kernel({kH, kW}), stride({1, 1, sH, sW}), padding({padT, padB, padL, padR}),
      dilation({1, 1, dH, dW});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDeformableConv2dGetWorkspaceSize(x.get(), w.get(), off.get(), bias.get(), kernel.a,
                                                           stride.a, padding.a, dilation.a, groups, dg, true,
                                                           out.get(), deform.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  // The doc's formulas: (x0, y0) = floor, weights (x1 - x)(y1 - y) ..., points outside count 0.
  auto pixel = [&](int64_t n, int64_t c, double yy, double xx) {
    if (yy < 0 || xx < 0 || yy >= H || xx >= W) return 0.0;
    return x.get(((n * C + c) * H + static_cast<int64_t>(yy)) * W + static_cast<int64_t>(xx));
  };
  std::vector<double> ref(static_cast<size_t>(deform.numel()));
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t oh = 0; oh < oH; ++oh) {
        for (int64_t ow = 0; ow < oW; ++ow) {
          for (int64_t ki = 0; ki < kH; ++ki) {
            for (int64_t kj = 0; kj < kW; ++kj) {
              const int64_t ch = (c / (C / dg)) * K + ki * kW + kj;
              auto o = [&](int64_t part) {
                return off.get(((n * 3 * dg * K + part * dg * K + ch) * oH + oh) * oW + ow);
              };
              const double yy = oh * sH - padT + ki * dH + o(1), xx = ow * sW - padL + kj * dW + o(0);
              const double y0 = std::floor(yy), x0 = std::floor(xx), y1 = y0 + 1, x1 = x0 + 1;
              const double v =
                  (x1 - xx) * (y1 - yy) * pixel(n, c, y0, x0) + (x1 - xx) * (yy - y0) * pixel(n, c, y1, x0) +
                  (xx - x0) * (y1 - yy) * pixel(n, c, y0, x1) + (xx - x0) * (yy - y0) * pixel(n, c, y1, x1);
              ref[static_cast<size_t>(((n * C + c) * oH * kH + oh * kH + ki) * oW * kW + ow * kW + kj)] =
                  v * o(2);
            }
          }
        }
      }
    }
  }
  for (int64_t i = 0; i < deform.numel(); ++i)
    EXPECT_NEAR(deform.get(i), ref[static_cast<size_t>(i)], 1e-5) << i;
  // out = convolution of deformOut at stride (kH, kW) with the grouped weight, plus bias.
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t co = 0; co < outC; ++co) {
      for (int64_t oh = 0; oh < oH; ++oh) {
        for (int64_t ow = 0; ow < oW; ++ow) {
          double s = bias.get(co);
          const int64_t cg = C / groups, grp = co / (outC / groups);
          for (int64_t ci = 0; ci < cg; ++ci) {
            for (int64_t ki = 0; ki < kH; ++ki) {
              for (int64_t kj = 0; kj < kW; ++kj) {
                const int64_t c = grp * cg + ci;
                s +=
                    w.get(((co * cg + ci) * kH + ki) * kW + kj) *
                    ref[static_cast<size_t>(((n * C + c) * oH * kH + oh * kH + ki) * oW * kW + ow * kW + kj)];
              }
            }
          }
          EXPECT_NEAR(out.get(((n * outC + co) * oH + oh) * oW + ow), s, 1e-4)
              << n << "," << co << "," << oh << "," << ow;
        }
      }
    }
  }
  // modulated must be true; offset is required.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDeformableConv2dGetWorkspaceSize(x.get(), w.get(), off.get(), nullptr, kernel.a,
                                                           stride.a, padding.a, dilation.a, groups, dg, false,
                                                           out.get(), nullptr, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDeformableConv2dGetWorkspaceSize(x.get(), w.get(), nullptr, nullptr, kernel.a,
                                                           stride.a, padding.a, dilation.a, groups, dg, true,
                                                           out.get(), nullptr, ws, ex);
            }),
            kParamNull);
}
