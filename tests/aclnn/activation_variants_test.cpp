// The activation variants of activation_variants.cpp: the forward functions against their
// definitions written in the test, the gradients against gradOutput times the central
// difference of the forward function (away from kinks), the element-pair operators (SiluMul,
// Prelu per channel, ReluGradV3/V4), fp32/fp16/bf16, broadcasting, error codes and bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_celu_v2.h"
#include "aclnnop/aclnn_celu_v3.h"
#include "aclnnop/aclnn_elu_grad.h"
#include "aclnnop/aclnn_elu_v2.h"
#include "aclnnop/aclnn_fused_bias_leaky_relu.h"
#include "aclnnop/aclnn_hard_shrink_grad.h"
#include "aclnnop/aclnn_hard_sigmoid_grad_v2.h"
#include "aclnnop/aclnn_hard_swish_v2.h"
#include "aclnnop/aclnn_hardsigmoid_v2.h"
#include "aclnnop/aclnn_leaky_relu_grad_v2.h"
#include "aclnnop/aclnn_leakyrelu_v2.h"
#include "aclnnop/aclnn_logsigmoid_v2.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_relu_grad_v3.h"
#include "aclnnop/aclnn_relu_grad_v4.h"
#include "aclnnop/aclnn_relu_v3.h"
#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "aclnnop/aclnn_silu_mul.h"
#include "aclnnop/aclnn_soft_plus_v2.h"
#include "aclnnop/aclnn_tanh_grad.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using Phase1 = std::function<int(const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;

struct Forward {
  std::string name;
  Phase1 fn;
  std::function<double(double)> ref;
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

std::vector<Forward> forwards() {
  return {
      {"CeluV2 alpha 2",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnCeluV2GetWorkspaceSize(x, 2.0, y, w, e);
       },
       [](double x) { return x > 0 ? x : 2 * (std::exp(x / 2) - 1); }},
      {"CeluV3 alpha 0.5",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnCeluV3GetWorkspaceSize(x, 0.5, y, w, e);
       },
       [](double x) { return x > 0 ? x : 0.5 * (std::exp(x / 0.5) - 1); }},
      {"LeakyreluV2 0.1",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnLeakyreluV2GetWorkspaceSize(x, 0.1, y, w, e);
       },
       [](double x) { return x < 0 ? 0.1 * x : x; }},
      {"HardsigmoidV2",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardsigmoidV2GetWorkspaceSize(x, const_cast<aclTensor*>(y), w, e);
       },
       [](double x) { return x <= -3  ? 0
                             : x >= 3 ? 1
                                      : x / 6 + 0.5; }},
      {"HardSwishV2",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardSwishV2GetWorkspaceSize(x, y, w, e);
       },
       [](double x) { return x <= -3  ? 0
                             : x >= 3 ? x
                                      : x * (x + 3) / 6; }},
      {"LogsigmoidV2",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnLogsigmoidV2GetWorkspaceSize(x, y, w, e);
       },
       [](double x) { return std::log(sigmoid(x)); }},
      {"SoftPlusV2",
       [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnSoftPlusV2GetWorkspaceSize(x, y, w, e);
       },
       [](double x) { return std::log(1 + std::exp(x)); }},
  };
}

}  // namespace

TEST(ActivationVariants, ForwardOnTransposedViews) {
  std::mt19937 g(4);
  for (const Forward& op : forwards()) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
      HostTensorBuf x(dt, {4, 5}, {1, 4}, 0), y(dt, {4, 5});
      x.fillRandom(g, -6, 6);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return op.fn(x.get(), y.get(), ws, ex); }), 0)
          << op.name << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 20; ++i) expectNear(y.get(i), y.stored(op.ref(x.get(i))), dt, op.name);
    }
  }
  // EluV2 with its three scalars; a null scalar is 161001
  HostTensorBuf x(ACL_BF16, {6}), y(ACL_BF16, {6});
  for (int i = 0; i < 6; ++i) x.set(i, -2.5 + i);
  aclScalar *alpha = makeScalar(ACL_FLOAT, 1.5), *scale = makeScalar(ACL_FLOAT, 2),
            *in = makeScalar(ACL_FLOAT, 0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEluV2GetWorkspaceSize(x.get(), alpha, scale, in, y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    const double v = x.get(i);
    expectNear(y.get(i), roundBf16(v > 0 ? 2 * v : 2 * 1.5 * (std::exp(0.5 * v) - 1)), ACL_BF16, "EluV2");
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEluV2GetWorkspaceSize(x.get(), alpha, nullptr, in, y.get(), ws, ex);
            }),
            kParamNull);
  aclDestroyScalar(alpha);
  aclDestroyScalar(scale);
  aclDestroyScalar(in);
  // CeluV2 with alpha 0 is refused; HardsigmoidV2 in place, and on int32 (1 from 3 on, else 0)
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCeluV2GetWorkspaceSize(x.get(), 0.0, y.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf h(ACL_FLOAT, {4}), hi(ACL_INT32, {5}), ho(ACL_INT32, {5});
  for (int i = 0; i < 4; ++i) h.set(i, -3 + 2 * i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceHardsigmoidV2GetWorkspaceSize(h.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    expectNear(h.get(i), std::min(1.0, std::max(0.0, (-3 + 2 * i) / 6.0 + 0.5)), ACL_FLOAT, "inplace");
  for (int i = 0; i < 5; ++i) hi.set(i, i + 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHardsigmoidV2GetWorkspaceSize(hi.get(), ho.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(ho.get(i), i + 1 >= 3 ? 1 : 0);
  HostTensorBuf d(ACL_DOUBLE, {2}), dout(ACL_DOUBLE, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSoftPlusV2GetWorkspaceSize(d.get(), dout.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(ActivationVariants, GradientsAgainstCentralDifferences) {
  using GradFn =
      std::function<int(const aclTensor*, const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;
  struct Grad {
    std::string name;
    GradFn fn;                        // (gradient, x, out)
    std::function<double(double)> f;  // forward function of x (the derivative is taken numerically)
    bool ofOutput = false;            // x is the forward output y (TanhGrad, EluGrad)
  };
  const std::vector<Grad> grads = {
      {"EluGrad",
       [](const aclTensor* g, const aclTensor* a, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnEluGradGetWorkspaceSize(g, a, o, w, e);
       },
       // of the activation a = elu(x): dy/dx as a function of a is min(a, 0) + 1
       [](double a) { return a; }, true},
      {"HardShrinkGrad 0.5",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardShrinkGradGetWorkspaceSize(g, x, 0.5, o, w, e);
       },
       [](double x) { return std::fabs(x) > 0.5 ? x : 0; }},
      {"HardSigmoidGradV2",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardSigmoidGradV2GetWorkspaceSize(g, x, o, w, e);
       },
       [](double x) { return std::min(1.0, std::max(0.0, x / 6 + 0.5)); }},
      {"LeakyReluGradV2 0.2",
       [](const aclTensor* g, const aclTensor* x, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnLeakyReluGradV2GetWorkspaceSize(g, x, 0.2, o, w, e);
       },
       [](double x) { return x > 0 ? x : 0.2 * x; }},
      {"TanhGrad",
       [](const aclTensor* g, const aclTensor* y, const aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnTanhGradGetWorkspaceSize(y, g, o, w, e);
       },
       [](double x) { return std::tanh(x); }, true},
  };
  std::mt19937 gen(8);
  for (const Grad& op : grads) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      if (op.name.rfind("LeakyReluGradV2", 0) == 0 && dt == ACL_BF16) continue;  // fp32/fp16 only
      HostTensorBuf gr(dt, {3, 4}), x(dt, {4}), out(dt, {3, 4});
      gr.fillRandom(gen, -2, 2);
      // away from the kinks at 0, ±0.5, ±3; a forward output of tanh lies in (-1, 1)
      for (int i = 0; i < 4; ++i) x.set(i, op.ofOutput ? -0.8 + 0.5 * i : -2.6 + 1.45 * i);
      ASSERT_EQ(
          run([&](uint64_t* ws, aclOpExecutor** ex) { return op.fn(gr.get(), x.get(), out.get(), ws, ex); }),
          0)
          << op.name << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 12; ++i) {
        const double v = x.get(i % 4);
        double d;
        if (op.name == "EluGrad") {
          // y = elu(x): x = ln(y + 1) below 0, so dy/dx = y + 1 there, 1 above
          d = v < 0 ? v + 1 : 1;
        } else if (op.ofOutput) {
          const double xin = std::atanh(v), h = 1e-5;  // tanh: x from y
          d = (op.f(xin + h) - op.f(xin - h)) / (2 * h);
        } else {
          const double h = 1e-5;
          d = (op.f(v + h) - op.f(v - h)) / (2 * h);
        }
        expectNear(out.get(i), out.stored(gr.get(i) * d), dt, op.name);
      }
    }
  }
  HostTensorBuf a(ACL_FLOAT, {3}), b(ACL_FLOAT, {2}), o(ACL_FLOAT, {3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTanhGradGetWorkspaceSize(a.get(), b.get(), o.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEluGradGetWorkspaceSize(nullptr, a.get(), o.get(), ws, ex);
            }),
            kParamNull);
}

TEST(ActivationVariants, ElementPairsSiluMulPreluReluGrads) {
  std::mt19937 g(6);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {2, 3}), y(dt, {3}), z(dt, {2, 3});
    x.fillRandom(g, -4, 4);
    y.fillRandom(g, -2, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSiluMulGetWorkspaceSize(x.get(), y.get(), z.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 6; ++i)
      expectNear(z.get(i), z.stored(x.get(i) * sigmoid(x.get(i)) * y.get(i % 3)), dt, "SiluMul");
  }
  // Prelu: weight per channel (dim 1) of an NCHW self, and a single weight
  HostTensorBuf s(ACL_FLOAT, {2, 3, 2, 2}), w(ACL_FLOAT, {3}), w1(ACL_FLOAT, {1}), o(ACL_FLOAT, {2, 3, 2, 2});
  s.fillRandom(g, -5, 5);
  for (int c = 0; c < 3; ++c) w.set(c, 0.1 * (c + 1));
  w1.set(0, 0.25);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPreluGetWorkspaceSize(s.get(), w.get(), o.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 24; ++i) {
    const double v = s.get(i), a = 0.1 * ((i / 4) % 3 + 1);
    expectNear(o.get(i), v > 0 ? v : static_cast<float>(a) * v, ACL_FLOAT, "Prelu per channel");
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPreluGetWorkspaceSize(s.get(), w1.get(), o.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 24; ++i)
    expectNear(o.get(i), s.get(i) > 0 ? s.get(i) : 0.25 * s.get(i), ACL_FLOAT, "Prelu one");
  HostTensorBuf w2(ACL_FLOAT, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPreluGetWorkspaceSize(s.get(), w2.get(), o.get(), ws, ex);
            }),
            kParamInvalid);
  // ReluGradV3: z = x > 0 ? y : 0; ReluGradV4: gradOutput where the uint8 mask is set
  HostTensorBuf fx(ACL_FLOAT, {4}), gy(ACL_FLOAT, {4}), gz(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) {
    fx.set(i, i - 1.5);
    gy.set(i, 10 + i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluGradV3GetWorkspaceSize(fx.get(), gy.get(), gz.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(gz.get(i), i - 1.5 > 0 ? 10 + i : 0);
  HostTensorBuf gi(ACL_INT32, {4}), mask(ACL_UINT8, {4}), oi(ACL_INT32, {4}), fmask(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) {
    gi.set(i, -5 + 3 * i);
    mask.set(i, i % 2);
  }
  aclScalar* zero = makeScalar(ACL_INT32, 0);
  aclScalar* one = makeScalar(ACL_INT32, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluGradV4GetWorkspaceSize(gi.get(), mask.get(), zero, oi.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(oi.get(i), i % 2 ? -5 + 3 * i : 0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluGradV4GetWorkspaceSize(gi.get(), mask.get(), one, oi.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluGradV4GetWorkspaceSize(gi.get(), fmask.get(), zero, oi.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyScalar(zero);
  aclDestroyScalar(one);
}

TEST(ActivationVariants, PreluBackwardRReluAndFusedBiasLeakyRelu) {
  std::mt19937 g(19);
  // PreluBackward on NCHW with a weight per channel: gradWeight sums gradOutput * self where self <= 0
  HostTensorBuf go(ACL_FLOAT, {2, 3, 2}), x(ACL_FLOAT, {2, 3, 2}), w(ACL_FLOAT, {3}),
      gi(ACL_FLOAT, {2, 3, 2}), gw(ACL_FLOAT, {3});
  go.fillRandom(g, -1, 1);
  x.fillRandom(g, -3, 3);
  for (int c = 0; c < 3; ++c) w.set(c, 0.25 * (c + 1));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPreluBackwardGetWorkspaceSize(go.get(), x.get(), w.get(), gi.get(), gw.get(), ws,
                                                        ex);
            }),
            0);
  double sums[3] = {0, 0, 0};
  for (int i = 0; i < 12; ++i) {
    const int c = (i / 2) % 3;
    const double a = static_cast<float>(0.25 * (c + 1));
    expectNear(gi.get(i), x.get(i) > 0 ? go.get(i) : a * go.get(i), ACL_FLOAT, "gradInput");
    if (x.get(i) <= 0) sums[c] += go.get(i) * x.get(i);
  }
  for (int c = 0; c < 3; ++c) expectNear(gw.get(c), sums[c], ACL_FLOAT, "gradWeight");
  // RReluWithNoise in evaluation mode: the slope (lower + upper) / 2; training is refused
  HostTensorBuf s(ACL_FLOAT, {4}), noise(ACL_FLOAT, {4}), o(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) s.set(i, i - 2);
  aclScalar *lo = makeScalar(ACL_FLOAT, 0.1), *hi = makeScalar(ACL_FLOAT, 0.3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRReluWithNoiseGetWorkspaceSize(s.get(), noise.get(), lo, hi, false, 0, 0, o.get(),
                                                         ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) expectNear(o.get(i), i - 2 > 0 ? i - 2 : 0.2 * (i - 2), ACL_FLOAT, "rrelu");
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRReluWithNoiseGetWorkspaceSize(s.get(), noise.get(), lo, hi, true, 0, 0, o.get(),
                                                         ws, ex);
            }),
            kParamInvalid);
  aclDestroyScalar(lo);
  aclDestroyScalar(hi);
  // FusedBiasLeakyRelu: scale * leaky(x + bias); a bias of another shape is refused
  HostTensorBuf fx(ACL_FLOAT16, {3, 4}), fb(ACL_FLOAT16, {3, 4}), fy(ACL_FLOAT16, {3, 4}),
      b4(ACL_FLOAT16, {4});
  fx.fillRandom(g, -2, 2);
  fb.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedBiasLeakyReluGetWorkspaceSize(fx.get(), fb.get(), 0.2, 1.5, fy.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 12; ++i) {
    const double t = fx.get(i) + fb.get(i);
    expectNear(fy.get(i), fy.stored(1.5 * (t >= 0 ? t : 0.2 * t)), ACL_FLOAT16, "FusedBiasLeakyRelu");
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedBiasLeakyReluGetWorkspaceSize(fx.get(), b4.get(), 0.2, 1.5, fy.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(ActivationVariants, ReluV3WritesABitMask) {
  std::mt19937 g(29);
  HostTensorBuf x(ACL_FLOAT16, {2, 16}), y(ACL_FLOAT16, {2, 16}), mask(ACL_UINT8, {2, 2});
  x.fillRandom(g, -4, 4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluV3GetWorkspaceSize(x.get(), y.get(), mask.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(y.get(i), x.get(i) > 0 ? x.get(i) : 0);
    const int bit = (static_cast<int>(mask.get(i / 8)) >> (i % 8)) & 1;
    EXPECT_EQ(bit, x.get(i) > 0 ? 1 : 0) << i;
  }
  HostTensorBuf odd(ACL_FLOAT16, {2, 12}), yo(ACL_FLOAT16, {2, 12}), mo(ACL_UINT8, {2, 1});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnReluV3GetWorkspaceSize(odd.get(), yo.get(), mo.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(ActivationVariants, CostIsTheStreamedBytes) {
  // SiluMul of two [128, 512] fp16 tensors: both read once, z written once.
  HostTensorBuf x(ACL_FLOAT16, {128, 512}), y(ACL_FLOAT16, {128, 512}), z(ACL_FLOAT16, {128, 512});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnSiluMulGetWorkspaceSize(x.get(), y.get(), z.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 128 * 512 * 2);
  EXPECT_EQ(c.written, 128u * 512 * 2);
  ASSERT_EQ(aclnnSoftPlusV2GetWorkspaceSize(x.get(), z.get(), &ws, &ex), 0);
  const Charged u = chargedBytes(ex);
  EXPECT_EQ(u.read, 128u * 512 * 2);
  EXPECT_EQ(u.written, 128u * 512 * 2);
}
