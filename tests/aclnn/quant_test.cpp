// The quantisation operators on host memory against references written here: per-token dynamic
// quantisation (int8, packed int4, smooth scales per group, asymmetric), AscendQuant with the
// rounding modes and an axis, AscendAntiQuant and DequantBias; formats 910B lacks are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "aclnnop/aclnn_dequant_bias.h"
#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "aclnnop/aclnn_group_quant.h"
#include "aclnnop/aclnn_quantize.h"
#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "aclnnop/aclnn_trans_quant_param_v3.h"

using namespace aclnn_test;

TEST(Quant, DynamicQuantPerTokenInt8WithSmoothScales) {
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    std::mt19937 g(11);
    const int64_t R = 3, H = 16;
    HostTensorBuf x(dt, {R, H}), smooth(dt, {H}), y(ACL_INT8, {R, H}), scale(ACL_FLOAT, {R});
    x.fillRandom(g, -5, 5);
    smooth.fillRandom(g, 0.5, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDynamicQuantGetWorkspaceSize(x.get(), smooth.get(), y.get(), scale.get(), ws, ex);
              }),
              0);
    for (int64_t r = 0; r < R; ++r) {
      double m = 0;
      for (int64_t h = 0; h < H; ++h) m = std::max(m, std::fabs(x.get(r * H + h) * smooth.get(h)));
      EXPECT_NEAR(scale.get(r), m / 127, 1e-6 * m);
      for (int64_t h = 0; h < H; ++h) {
        const double want = std::nearbyint(x.get(r * H + h) * smooth.get(h) / (m / 127));
        EXPECT_NEAR(y.get(r * H + h), want, 1.0) << r << "," << h;  // fp32 rounding may move a half by one
        EXPECT_LE(std::fabs(y.get(r * H + h)), 127);
      }
    }
  }
}

TEST(Quant, DynamicQuantPacksInt4EightToAnInt32) {
  const int64_t R = 2, H = 16;
  HostTensorBuf x(ACL_FLOAT16, {R, H}), y(ACL_INT32, {R, H / 8}), scale(ACL_FLOAT, {R});
  for (int64_t i = 0; i < R * H; ++i) x.set(i, (i % 15) - 7);  // exact multiples of max/7
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, y.get(), scale.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    EXPECT_DOUBLE_EQ(scale.get(r), 1.0);
    for (int64_t w = 0; w < H / 8; ++w) {
      const uint32_t word = static_cast<uint32_t>(static_cast<int32_t>(y.get(r * 2 + w)));
      for (int i = 0; i < 8; ++i) {
        int v = static_cast<int>((word >> (4 * i)) & 0xF);
        if (v >= 8) v -= 16;
        EXPECT_EQ(v, x.get(r * H + w * 8 + i));
      }
    }
  }
  HostTensorBuf y8(ACL_FLOAT8_E4M3FN, {R, H}), yOdd(ACL_INT32, {R, 3});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, y8.get(), scale.get(), &ws, &ex), 161002);
  HostTensorBuf yInt4(ACL_INT4, {R, H});  // a 4-bit element type the simulator's tensors do not have
  EXPECT_EQ(aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, yInt4.get(), scale.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, yOdd.get(), scale.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, nullptr, scale.get(), &ws, &ex), 161001);
}

TEST(Quant, DynamicQuantV2AsymmetricWithGroupedSmoothScales) {
  std::mt19937 g(12);
  const int64_t R = 5, H = 8, G = 2;
  HostTensorBuf x(ACL_FLOAT16, {R, H}), smooth(ACL_FLOAT16, {G, H}), groups(ACL_INT32, {G});
  HostTensorBuf y(ACL_INT8, {R, H}), scale(ACL_FLOAT, {R}), offset(ACL_FLOAT, {R});
  x.fillRandom(g, -3, 5);
  smooth.fillRandom(g, 0.5, 1.5);
  groups.set(0, 2);  // rows 0-1 use group 0, rows 2-4 group 1
  groups.set(1, 5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDynamicQuantV2GetWorkspaceSize(x.get(), smooth.get(), groups.get(), ACL_INT8,
                                                         y.get(), scale.get(), offset.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    const int64_t grp = r < 2 ? 0 : 1;
    double hi = -1e30, lo = 1e30;
    for (int64_t h = 0; h < H; ++h) {
      const double v = x.get(r * H + h) * smooth.get(grp * H + h);
      hi = std::max(hi, v);
      lo = std::min(lo, v);
    }
    const double s = (hi - lo) / 255, o = 127 - hi / s;
    EXPECT_NEAR(scale.get(r), s, 1e-6 * s);
    EXPECT_NEAR(offset.get(r), o, 1e-4);
    for (int64_t h = 0; h < H; ++h) {
      const double v = x.get(r * H + h) * smooth.get(grp * H + h);
      EXPECT_NEAR(y.get(r * H + h), std::nearbyint(v / s + o), 1.0);
      EXPECT_GE(y.get(r * H + h), -128);
    }
  }
}

TEST(Quant, AscendQuantRoundingModesAndAxis) {
  const int64_t R = 2, C = 4;
  HostTensorBuf x(ACL_FLOAT, {R, C}), scale(ACL_FLOAT, {C}), offset(ACL_FLOAT, {C}), y(ACL_INT8, {R, C});
  const double xs[8] = {0.25, -0.25, 1.5, 100, -2.5, 0.75, -1.5, -100};
  for (int i = 0; i < 8; ++i) x.set(i, xs[i]);
  for (int c = 0; c < C; ++c) {
    scale.set(c, 2);
    offset.set(c, c == 3 ? 0 : 0.5);
  }
  struct Case {
    const char* mode;
    double (*f)(double);
  };
  const Case cases[] = {{"round", [](double v) { return std::round(v); }},
                        {"floor", [](double v) { return std::floor(v); }},
                        {"ceil", [](double v) { return std::ceil(v); }},
                        {"trunc", [](double v) { return std::trunc(v); }}};
  for (const Case& cs : cases) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAscendQuantGetWorkspaceSize(x.get(), scale.get(), offset.get(), false, cs.mode,
                                                        ACL_INT8, y.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 8; ++i) {
      const double v = cs.f(xs[i] * 2 + (i % C == 3 ? 0 : 0.5));
      EXPECT_EQ(y.get(i), std::min(127.0, std::max(-128.0, v))) << cs.mode << " " << i;
    }
  }
  // V3 along axis 0 in sqrt mode: row r scaled by scale[r]^2.
  HostTensorBuf rowScale(ACL_FLOAT, {R}), y3(ACL_INT8, {R, C});
  rowScale.set(0, 2);
  rowScale.set(1, 0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAscendQuantV3GetWorkspaceSize(x.get(), rowScale.get(), nullptr, true, "round",
                                                        ACL_INT8, 0, y3.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 8; ++i) {
    const double s = i < C ? 4 : 0.25;
    EXPECT_EQ(y3.get(i), std::min(127.0, std::max(-128.0, std::round(xs[i] * s))));
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAscendQuantGetWorkspaceSize(x.get(), scale.get(), nullptr, false, "nearest", ACL_INT8,
                                             y.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnAscendQuantGetWorkspaceSize(x.get(), scale.get(), nullptr, false, "round", ACL_HIFLOAT8,
                                             y.get(), &ws, &ex),
            161002);
}

TEST(Quant, AntiQuantAndDequantBias) {
  std::mt19937 g(13);
  const int64_t M = 3, N = 5;
  HostTensorBuf q(ACL_INT8, {M, N}), sc(ACL_FLOAT, {N}), off(ACL_FLOAT, {N}), y(ACL_BF16, {M, N});
  q.fillRandom(g, -128, 127);
  sc.fillRandom(g, 0.01, 0.1);
  off.fillRandom(g, -3, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAscendAntiQuantGetWorkspaceSize(q.get(), sc.get(), off.get(), ACL_BF16, false,
                                                          y.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < M * N; ++i) {
    expectNear(y.get(i), (q.get(i) + off.get(i % N)) * sc.get(i % N), ACL_BF16, "anti-quant");
  }
  HostTensorBuf acc(ACL_INT32, {M, N}), ws_(ACL_FLOAT, {N}), as(ACL_FLOAT, {M}), bi(ACL_INT32, {N}),
      bf(ACL_FLOAT, {N});
  HostTensorBuf out(ACL_FLOAT16, {M, N}), out2(ACL_FLOAT16, {M, N});
  acc.fillRandom(g, -5000, 5000);
  ws_.fillRandom(g, 1e-3, 1e-2);
  as.fillRandom(g, 0.5, 2);
  bi.fillRandom(g, -100, 100);
  bf.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* w, aclOpExecutor** ex) {
              return aclnnDequantBiasGetWorkspaceSize(acc.get(), ws_.get(), as.get(), bi.get(), ACL_FLOAT16,
                                                      out.get(), w, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* w, aclOpExecutor** ex) {
              return aclnnDequantBiasGetWorkspaceSize(acc.get(), ws_.get(), nullptr, bf.get(), ACL_FLOAT16,
                                                      out2.get(), w, ex);
            }),
            0);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      const double a = acc.get(m * N + n);
      expectNear(out.get(m * N + n), (a + bi.get(n)) * ws_.get(n) * as.get(m), ACL_FLOAT16, "int bias");
      expectNear(out2.get(m * N + n), a * ws_.get(n) + bf.get(n), ACL_FLOAT16, "float bias");
    }
  }
  uint64_t w = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnDequantBiasGetWorkspaceSize(acc.get(), ws_.get(), nullptr, nullptr, ACL_FLOAT, out.get(), &w, &ex),
      161002);
}

TEST(Quant, QuantizeAlongAnAxisSaturatesToTheOutputType) {
  std::mt19937 g(14);
  const int64_t R = 3, C = 4;
  HostTensorBuf x(ACL_FLOAT, {R, C}), sc(ACL_FLOAT, {R}), zp(ACL_INT32, {R});
  x.fillRandom(g, -300, 300);
  for (int64_t r = 0; r < R; ++r) {
    sc.set(r, 0.5 * (r + 1));
    zp.set(r, r * 10 - 10);
  }
  for (aclDataType dt : {ACL_INT8, ACL_UINT8, ACL_INT32}) {
    HostTensorBuf out(dt, {R, C});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnQuantizeGetWorkspaceSize(x.get(), sc.get(), zp.get(), dt, 0, out.get(), ws, ex);
              }),
              0);
    const double lo = dt == ACL_INT8 ? -128 : dt == ACL_UINT8 ? 0 : -2147483648.0;
    const double hi = dt == ACL_INT8 ? 127 : dt == ACL_UINT8 ? 255 : 2147483647.0;
    for (int64_t i = 0; i < R * C; ++i) {
      const int64_t r = i / C;
      const double want = std::min(hi, std::max(lo, std::nearbyint(x.get(i) / sc.get(r) + zp.get(r))));
      EXPECT_EQ(out.get(i), want) << i;
    }
  }
  HostTensorBuf out8(ACL_FLOAT8_E4M3FN, {R, C}), out(ACL_INT8, {R, C}), scBad(ACL_FLOAT, {2});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnQuantizeGetWorkspaceSize(x.get(), sc.get(), nullptr, ACL_FLOAT8_E4M3FN, 0, out8.get(), &ws, &ex),
      161002);
  EXPECT_EQ(aclnnQuantizeGetWorkspaceSize(x.get(), scBad.get(), nullptr, ACL_INT8, 0, out.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnQuantizeGetWorkspaceSize(x.get(), sc.get(), nullptr, ACL_INT8, 2, out.get(), &ws, &ex),
            161002);
}

TEST(Quant, FakeQuantClampsToTheRangeAndMasksWhatFellOutside) {
  std::mt19937 g(15);
  const int64_t R = 2, C = 5;
  HostTensorBuf x(ACL_FLOAT, {R, C}), sc(ACL_FLOAT, {C}), zp(ACL_INT32, {C}), out(ACL_FLOAT, {R, C}),
      mask(ACL_BOOL, {R, C});
  x.fillRandom(g, -4, 4);
  for (int64_t c = 0; c < C; ++c) {
    sc.set(c, 0.25 * (c + 1));
    zp.set(c, c - 2);
  }
  const int64_t qmin = -3, qmax = 4;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(
                  x.get(), sc.get(), zp.get(), 1, qmin, qmax, out.get(), mask.get(), ws, ex);
            }),
            0);
  int inRange = 0;
  for (int64_t i = 0; i < R * C; ++i) {
    const int64_t c = i % C;
    const double q = std::nearbyint(x.get(i) / sc.get(c)) + zp.get(c);
    const bool in = q >= qmin && q <= qmax;
    inRange += in;
    EXPECT_EQ(mask.get(i), in ? 1 : 0) << i;
    EXPECT_NEAR(out.get(i), (std::min<double>(qmax, std::max<double>(qmin, q)) - zp.get(c)) * sc.get(c),
                1e-6);
  }
  EXPECT_GT(inRange, 0);
  EXPECT_LT(inRange, R * C);  // the data exercise both sides of the mask
  // Per tensor, disabled: a copy with an all-true mask.
  HostTensorBuf s1(ACL_FLOAT, {1}), z1(ACL_INT32, {1});
  s1.set(0, 0.5);
  z1.set(0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
                  x.get(), s1.get(), z1.get(), 0.0f, qmin, qmax, out.get(), mask.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < R * C; ++i) {
    EXPECT_EQ(out.get(i), x.get(i));
    EXPECT_EQ(mask.get(i), 1);
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 1.0f, qmin,
                                                                   qmax, out.get(), mask.get(), &ws, &ex),
            161002);  // five scales for a per-tensor call
  EXPECT_EQ(aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 1, 5, 4,
                                                                    out.get(), mask.get(), &ws, &ex),
            161002);  // quantMin above quantMax
}

TEST(Quant, TransQuantParamPacksScaleAndOffsetBits) {
  // Expected words written out by hand: 1.0f is 0x3F800000, 0.3f is 0x3E99999A (its upper 19
  // bits 0x3E998000 truncated, 0x3E99A000 rounded); bit 46 set; offsets -3 -> 0x1FD, 300 -> 255
  // in bits 37..45.
  const float scales[2] = {1.0f, 0.3f}, offsets[2] = {1.0f, -3.0f};
  uint64_t* words = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclnnTransQuantParam(scales, 2, offsets, 2, &words, &count), 0);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(words[0], 0x40203F800000ull);
  EXPECT_EQ(words[1], 0x7FA03E998000ull);
  std::free(words);
  HostTensorBuf sc(ACL_FLOAT, {1}), off(ACL_FLOAT, {1}), out(ACL_UINT64, {1});
  sc.set(0, 0.3);
  off.set(0, 300);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransQuantParamV3GetWorkspaceSize(sc.get(), off.get(), 1, out.get(), ws, ex);
            }),
            0);
  uint64_t w;
  std::memcpy(&w, out.at(0), 8);
  EXPECT_EQ(w, 0x5FE03E99A000ull);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransQuantParamV2GetWorkspaceSize(sc.get(), nullptr, out.get(), ws, ex);
            }),
            0);
  std::memcpy(&w, out.at(0), 8);
  EXPECT_EQ(w, 0x40003E998000ull);  // no offset: scale bits and bit 46 only
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnTransQuantParamV3GetWorkspaceSize(sc.get(), nullptr, 2, out.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnTransQuantParam(nullptr, 2, offsets, 2, &words, &count), 161001);
}

TEST(Quant, SwiGluQuantPerGroupDynamicAndStatic) {
  std::mt19937 g(16);
  const int64_t R = 5, H = 8, G = 2;
  HostTensorBuf x(ACL_BF16, {R, 2 * H}), smooth(ACL_FLOAT, {G, H}), groups(ACL_INT32, {G}),
      y(ACL_INT8, {R, H});
  HostTensorBuf scale(ACL_FLOAT, {R});
  x.fillRandom(g, -3, 3);
  smooth.fillRandom(g, 0.5, 2);
  groups.set(0, 2);  // counts: rows 0-1 group 0, rows 2-4 group 1
  groups.set(1, 3);
  char dynamic[] = "dynamic", stat[] = "static";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSwiGluQuantV2GetWorkspaceSize(x.get(), smooth.get(), nullptr, groups.get(), true,
                                                        dynamic, 1, ACL_INT8, y.get(), scale.get(), ws, ex);
            }),
            0);
  auto act = [&](int64_t r, int64_t i, bool left) {
    const double a = x.get(r * 2 * H + i), b = x.get(r * 2 * H + H + i);
    return left ? a / (1 + std::exp(-a)) * b : a * b / (1 + std::exp(-b));
  };
  for (int64_t r = 0; r < R; ++r) {
    const int64_t grp = r < 2 ? 0 : 1;
    double m = 0;
    for (int64_t i = 0; i < H; ++i) m = std::max(m, std::fabs(act(r, i, true) * smooth.get(grp * H + i)));
    EXPECT_NEAR(scale.get(r), 127 / m, 1e-4 * 127 / m);
    for (int64_t i = 0; i < H; ++i) {
      EXPECT_NEAR(y.get(r * H + i), std::nearbyint(act(r, i, true) * smooth.get(grp * H + i) * 127 / m), 1.0);
    }
  }
  // Static per tensor, the right half activated: y = rint(act * s + o).
  HostTensorBuf s1(ACL_FLOAT, {1}), o1(ACL_FLOAT, {1});
  s1.set(0, 20);
  o1.set(0, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSwiGluQuantGetWorkspaceSize(x.get(), s1.get(), o1.get(), nullptr, false, stat,
                                                      y.get(), scale.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    for (int64_t i = 0; i < H; ++i) {
      EXPECT_NEAR(y.get(r * H + i),
                  std::min(127.0, std::max(-128.0, std::nearbyint(act(r, i, false) * 20 + 3))), 1.0);
    }
  }
  char bad[] = "dynamic_msd";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnSwiGluQuantGetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, true, bad, y.get(),
                                             scale.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnSwiGluQuantV2GetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, true, dynamic, 0, ACL_INT4,
                                               y.get(), scale.get(), &ws, &ex),
            161002);
}

TEST(Quant, GroupQuantScalesEachGroupOfRowsByItsOwnRow) {
  std::mt19937 g(17);
  const int64_t M = 6, K = 16, E = 3;
  HostTensorBuf x(ACL_FLOAT16, {M, K}), sc(ACL_FLOAT16, {E, K}), gi(ACL_INT64, {E}), off(ACL_FLOAT16, {1});
  HostTensorBuf y(ACL_INT8, {M, K}), y4(ACL_INT32, {M, K / 8});
  x.fillRandom(g, -4, 4);
  sc.fillRandom(g, 1, 20);
  off.set(0, 0.5);
  const int64_t ends[E] = {1, 4, 5};  // row 5 is in no group
  for (int64_t e = 0; e < E; ++e) gi.set(e, ends[e]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gi.get(), off.get(), ACL_INT8,
                                                     y.get(), ws, ex);
            }),
            0);
  for (int64_t m = 0; m < M; ++m) {
    const int64_t grp = m < 1 ? 0 : m < 4 ? 1 : m < 5 ? 2 : -1;
    for (int64_t k = 0; k < K; ++k) {
      const double want =
          grp < 0 ? 0
                  : std::min(127.0,
                             std::max(-128.0, std::nearbyint(x.get(m * K + k) * sc.get(grp * K + k) + 0.5)));
      EXPECT_NEAR(y.get(m * K + k), want, 1.0) << m << "," << k;
    }
  }
  // int4 packed eight to an int32: each nibble is the int4-saturated value.
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gi.get(), nullptr, ACL_INT32,
                                                     y4.get(), ws, ex);
            }),
            0);
  for (int64_t m = 0; m < 5; ++m) {
    const int64_t grp = m < 1 ? 0 : m < 4 ? 1 : 2;
    for (int64_t k = 0; k < K; ++k) {
      const uint32_t word = static_cast<uint32_t>(static_cast<int32_t>(y4.get(m * (K / 8) + k / 8)));
      int v = static_cast<int>((word >> (4 * (k % 8))) & 0xF);
      if (v >= 8) v -= 16;
      EXPECT_NEAR(v, std::min(7.0, std::max(-8.0, std::nearbyint(x.get(m * K + k) * sc.get(grp * K + k)))),
                  1.0);
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gi.get(), nullptr, ACL_HIFLOAT8, y.get(), &ws, &ex),
      161002);
}

TEST(Quant, DynamicBlockQuantOneScalePerBlock) {
  std::mt19937 g(18);
  const int64_t M = 5, N = 6, rb = 2, cb = 4;
  HostTensorBuf x(ACL_FLOAT16, {M, N}), y(ACL_INT8, {M, N}), scale(ACL_FLOAT, {3, 2});
  x.fillRandom(g, -3, 3);
  char rint[] = "rint";
  for (double minScale : {0.0, 100.0}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return minScale == 0
                           ? aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), minScale, rint, ACL_INT8, rb, cb,
                                                                    y.get(), scale.get(), ws, ex)
                           : aclnnDynamicBlockQuantV2GetWorkspaceSize(x.get(), minScale, rint, ACL_INT8, rb,
                                                                      cb, 0.0, y.get(), scale.get(), ws, ex);
              }),
              0);
    for (int64_t bi = 0; bi < 3; ++bi) {
      for (int64_t bj = 0; bj < 2; ++bj) {
        double amax = 0;
        for (int64_t m = bi * rb; m < std::min(M, (bi + 1) * rb); ++m) {
          for (int64_t n = bj * cb; n < std::min(N, (bj + 1) * cb); ++n)
            amax = std::max(amax, std::fabs(x.get(m * N + n)));
        }
        const double s = minScale > 0 ? std::min(amax / 127, 1 / minScale) : amax / 127;
        EXPECT_NEAR(scale.get(bi * 2 + bj), s, 1e-6 * s);
        for (int64_t m = bi * rb; m < std::min(M, (bi + 1) * rb); ++m) {
          for (int64_t n = bj * cb; n < std::min(N, (bj + 1) * cb); ++n) {
            EXPECT_NEAR(y.get(m * N + n),
                        std::min(127.0, std::max(-128.0, std::nearbyint(x.get(m * N + n) / s))), 1.0);
          }
        }
      }
    }
  }
  HostTensorBuf yf8(ACL_FLOAT8_E4M3FN, {M, N}), badScale(ACL_FLOAT, {2, 2});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), 0, rint, ACL_FLOAT8_E4M3FN, rb, cb, yf8.get(),
                                                   scale.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), 0, rint, ACL_INT8, rb, cb, y.get(),
                                                   badScale.get(), &ws, &ex),
            161002);
}
