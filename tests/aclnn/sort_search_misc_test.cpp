// Sorts, searches and the non-elementwise math of sort_search.cpp and math_misc.cpp: results
// against std::stable_sort / std::lower_bound / loops written in the test, NaN order, carried
// indices, errors and the bytes charged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/acl_stft.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_pdist.h"
#include "aclnnop/aclnn_precision_compare.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_scale.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "aclnnop/aclnn_segsum.h"
#include "aclnnop/aclnn_sign_bits_pack.h"
#include "aclnnop/aclnn_sign_bits_unpack.h"
#include "aclnnop/aclnn_sinkhorn.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_sort_with_index.h"
#include "aclnnop/aclnn_sqrt_backward.h"
#include "aclnnop/aclnn_trace_v2.h"
#include "aclnnop/aclnn_transform_bias_rescale_qkv.h"

using namespace aclnn_test;

namespace {
constexpr int kParamNull = 161001, kParamInvalid = 161002;
}  // namespace

TEST(SortSearch, SortAlongADimWithNaNLast) {
  std::mt19937 g(41);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32}) {
    for (bool desc : {false, true}) {
      // sort [3, 5] along dim 0 (columns), ties and a NaN included for floats
      HostTensorBuf x(dt, {3, 5}), v(dt, {3, 5}), idx(ACL_INT64, {3, 5});
      x.fillRandom(g, -4, 4);
      x.set(0, x.get(5));  // a tie in column 0
      if (dt != ACL_INT32) x.set(6, NAN);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnSortGetWorkspaceSize(x.get(), true, 0, desc, v.get(), idx.get(), ws, ex);
                }),
                0);
      for (int c = 0; c < 5; ++c) {
        std::vector<int> order = {0, 1, 2};
        const auto key = [&](int r) { return x.get(r * 5 + c); };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
          const double ka = key(a), kb = key(b);
          if (desc) return !std::isnan(kb) && (std::isnan(ka) || ka > kb);
          return !std::isnan(ka) && (std::isnan(kb) || ka < kb);
        });
        for (int r = 0; r < 3; ++r) {
          EXPECT_EQ(idx.get(r * 5 + c), order[r]) << "column " << c << (desc ? " descending" : "");
          const double want = key(order[r]);
          if (std::isnan(want))
            EXPECT_TRUE(std::isnan(v.get(r * 5 + c)));
          else
            EXPECT_EQ(v.get(r * 5 + c), want);
        }
      }
    }
  }
  // Argsort along the last dim; SortWithIndex carries its index input
  HostTensorBuf x(ACL_FLOAT, {2, 4}), ai(ACL_INT64, {2, 4}), ci(ACL_INT32, {2, 4}), sv(ACL_FLOAT, {2, 4}),
      si(ACL_INT32, {2, 4});
  const double xv[] = {3, 1, 2, 0, -1, 5, 4, -2};
  for (int i = 0; i < 8; ++i) {
    x.set(i, xv[i]);
    ci.set(i, 100 + i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgsortGetWorkspaceSize(x.get(), -1, false, ai.get(), ws, ex);
            }),
            0);
  const double argWant[] = {3, 1, 2, 0, 3, 0, 2, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ai.get(i), argWant[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSortWithIndexGetWorkspaceSize(x.get(), ci.get(), -1, true, true, sv.get(), si.get(),
                                                        ws, ex);
            }),
            0);
  const double valWant[] = {3, 2, 1, 0, 5, 4, -1, -2}, idxWant[] = {100, 102, 101, 103, 105, 106, 104, 107};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(sv.get(i), valWant[i]);
    EXPECT_EQ(si.get(i), idxWant[i]);
  }
  HostTensorBuf wrongIdx(ACL_INT32, {2, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgsortGetWorkspaceSize(x.get(), -1, false, wrongIdx.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnArgsortGetWorkspaceSize(x.get(), 2, false, ai.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(SortSearch, SearchSortedAndEqual) {
  // rows of a [2, 5] sequence, values [2, 3]; left and right insertion points vs std::lower/upper_bound
  HostTensorBuf seq(ACL_FLOAT, {2, 5}), val(ACL_FLOAT, {2, 3}), out(ACL_INT64, {2, 3}),
      out32(ACL_INT32, {2, 3});
  const double sv[] = {1, 3, 3, 5, 9, -4, -2, 0, 2, 2}, vv[] = {3, 0, 10, 2, -5, 0};
  for (int i = 0; i < 10; ++i) seq.set(i, sv[i]);
  for (int i = 0; i < 6; ++i) val.set(i, vv[i]);
  for (bool right : {false, true}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSearchSortedGetWorkspaceSize(seq.get(), val.get(), false, right, nullptr,
                                                         out.get(), ws, ex);
              }),
              0);
    for (int r = 0; r < 2; ++r)
      for (int k = 0; k < 3; ++k) {
        const double* row = sv + r * 5;
        const double v = vv[r * 3 + k];
        const auto at = right ? std::upper_bound(row, row + 5, v) : std::lower_bound(row, row + 5, v);
        EXPECT_EQ(out.get(r * 3 + k), at - row) << (right ? "right " : "left ") << v;
      }
  }
  // the int32 out must match outInt32; a sorter reorders an unsorted sequence
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSearchSortedGetWorkspaceSize(seq.get(), val.get(), false, false, nullptr,
                                                       out32.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf un(ACL_FLOAT, {4}), sorter(ACL_INT64, {4}), one(ACL_INT64, {1});
  const double uv[] = {7, 1, 5, 3}, order[] = {1, 3, 2, 0};
  for (int i = 0; i < 4; ++i) {
    un.set(i, uv[i]);
    sorter.set(i, order[i]);
  }
  aclScalar* four = makeScalar(ACL_FLOAT, 4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSearchSortedsGetWorkspaceSize(un.get(), four, false, false, sorter.get(), one.get(),
                                                        ws, ex);
            }),
            0);
  EXPECT_EQ(one.get(0), 2);  // 4 goes after 1 and 3
  aclDestroyScalar(four);
  // Equal: same shape and values
  HostTensorBuf a(ACL_FLOAT, {2, 2}), b(ACL_FLOAT, {2, 2}), c(ACL_FLOAT, {4}), eq(ACL_BOOL, {1});
  for (int i = 0; i < 4; ++i) {
    a.set(i, i);
    b.set(i, i);
    c.set(i, i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEqualGetWorkspaceSize(a.get(), b.get(), eq.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(eq.get(0), 1);
  b.set(3, 3.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEqualGetWorkspaceSize(a.get(), b.get(), eq.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(eq.get(0), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEqualGetWorkspaceSize(a.get(), c.get(), eq.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(eq.get(0), 0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEqualGetWorkspaceSize(a.get(), nullptr, eq.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MathMisc, RangeSegsumSignBitsTracePdistSqrtGrad) {
  // Range includes its end: 1, 1.5, ..., 3
  HostTensorBuf r(ACL_FLOAT, {5}), r4(ACL_FLOAT, {4});
  aclScalar *s = makeScalar(ACL_FLOAT, 1), *e = makeScalar(ACL_FLOAT, 3), *st = makeScalar(ACL_FLOAT, 0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRangeGetWorkspaceSize(s, e, st, r.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.get(i), 1 + 0.5 * i);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRangeGetWorkspaceSize(s, e, st, r4.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRangeGetWorkspaceSize(e, s, st, r.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyScalar(s);
  aclDestroyScalar(e);
  aclDestroyScalar(st);

  // ExpSegsum of [1, 1, 4]: exp of the sums between j (excluded) and i (included), 0 above
  HostTensorBuf x(ACL_FLOAT, {1, 1, 4}), y(ACL_FLOAT, {1, 1, 4, 4});
  const double xv[] = {0.5, -1, 2, 0.25};
  for (int i = 0; i < 4; ++i) x.set(i, xv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpSegsumGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double sum = 0;
      for (int k = j + 1; k <= i; ++k) sum += xv[k];
      expectNear(y.get(i * 4 + j), i >= j ? std::exp(sum) : 0, ACL_FLOAT, "ExpSegsum");
    }

  // SignBitsPack then Unpack: 10 values into 2 bytes (the second padded), back to ±1
  HostTensorBuf f(ACL_FLOAT, {10}), packed(ACL_UINT8, {2, 1}), unpacked(ACL_FLOAT, {1, 16});
  const double fv[] = {1, -1, 0, -0.5, 2, 3, -4, 5, -6, 7};
  for (int i = 0; i < 10; ++i) f.set(i, fv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignBitsPackGetWorkspaceSize(f.get(), 2, packed.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(packed.get(0), 1 + 4 + 16 + 32 + 128);  // bits 0, 2, 4, 5, 7: the values >= 0
  EXPECT_EQ(packed.get(1), 2);                      // -6, 7
  HostTensorBuf bytes(ACL_UINT8, {2});
  bytes.set(0, packed.get(0));
  bytes.set(1, packed.get(1));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignBitsUnpackGetWorkspaceSize(bytes.get(), 1, ACL_FLOAT, unpacked.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(unpacked.get(i), i < 10 ? (fv[i] >= 0 ? 1 : -1) : -1) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignBitsPackGetWorkspaceSize(f.get(), 3, packed.get(), ws, ex);
            }),
            kParamInvalid);

  // TraceV2 of a 3 x 4; Pdist p = 1 and p = inf; SqrtBackward dy / (2y)
  HostTensorBuf m(ACL_FLOAT, {3, 4}), tr(ACL_FLOAT, {1});
  for (int i = 0; i < 12; ++i) m.set(i, i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTraceV2GetWorkspaceSize(m.get(), tr.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(tr.get(0), 0 + 5 + 10);
  HostTensorBuf d(ACL_FLOAT, {3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPdistGetWorkspaceSize(m.get(), 1.0f, d.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(d.get(0), 16);  // rows 0 and 1 differ by 4 in each of 4 columns
  EXPECT_EQ(d.get(1), 32);
  EXPECT_EQ(d.get(2), 16);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPdistGetWorkspaceSize(m.get(), INFINITY, d.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(d.get(1), 8);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPdistGetWorkspaceSize(m.get(), -1.0f, d.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf yv(ACL_FLOAT16, {3}), dy(ACL_FLOAT16, {3}), z(ACL_FLOAT16, {3});
  for (int i = 0; i < 3; ++i) {
    yv.set(i, 0.5 + i);
    dy.set(i, 1 - i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSqrtBackwardGetWorkspaceSize(yv.get(), dy.get(), z.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 3; ++i)
    expectNear(z.get(i), roundF16((1 - i) / (2 * (0.5 + i))), ACL_FLOAT16, "SqrtBackward");
}

TEST(MathMisc, ScaleSinkhornQkvAndPrecisionCompare) {
  std::mt19937 g(12);
  // Scale over x's axes [1, 3) of a [2, 3, 4, 5]: scale and bias [3, 4] broadcast over dims 0 and 3
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4, 5}), sc(ACL_FLOAT, {3, 4}), bi(ACL_FLOAT, {3, 4}),
      y(ACL_FLOAT, {2, 3, 4, 5});
  x.fillRandom(g, -2, 2);
  sc.fillRandom(g, -2, 2);
  bi.fillRandom(g, -2, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScaleGetWorkspaceSize(x.get(), sc.get(), bi.get(), 1, 2, true, y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 120; ++i) {
    const int j = (i / 5) % 12;
    expectNear(y.get(i), x.get(i) * sc.get(j) + bi.get(j), ACL_FLOAT, "Scale");
  }
  HostTensorBuf sc5(ACL_FLOAT, {5});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScaleGetWorkspaceSize(x.get(), sc5.get(), nullptr, 1, 2, true, y.get(), ws, ex);
            }),
            kParamInvalid);
  // Sinkhorn: the converged plan's columns sum to 1/C, its rows to 1/R within tol
  HostTensorBuf cost(ACL_FLOAT, {4, 3}), pl(ACL_FLOAT, {4, 3});
  cost.fillRandom(g, -1, 1);
  aclScalar* tol = makeScalar(ACL_FLOAT, 1e-6);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSinkhornGetWorkspaceSize(cost.get(), tol, pl.get(), ws, ex);
            }),
            0);
  aclDestroyScalar(tol);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(pl.get(k) + pl.get(3 + k) + pl.get(6 + k) + pl.get(9 + k), 1.0 / 3, 1e-5);
  for (int r = 0; r < 4; ++r)
    EXPECT_NEAR(pl.get(r * 3) + pl.get(r * 3 + 1) + pl.get(r * 3 + 2), 1.0 / 4, 1e-4);
  // TransformBiasRescaleQkv: B 2, T 3, 2 heads of 4
  HostTensorBuf qkv(ACL_FLOAT, {2, 3, 24}), bias(ACL_FLOAT, {24}), q(ACL_FLOAT, {2, 2, 3, 4}),
      k(ACL_FLOAT, {2, 2, 3, 4}), v(ACL_FLOAT, {2, 2, 3, 4});
  qkv.fillRandom(g, -3, 3);
  bias.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransformBiasRescaleQkvGetWorkspaceSize(qkv.get(), bias.get(), 2, q.get(), k.get(),
                                                                  v.get(), ws, ex);
            }),
            0);
  for (int b = 0; b < 2; ++b)
    for (int h = 0; h < 2; ++h)
      for (int t = 0; t < 3; ++t)
        for (int e = 0; e < 4; ++e) {
          const int o = ((b * 2 + h) * 3 + t) * 4 + e, base = (b * 3 + t) * 24 + h * 4 + e;
          expectNear(q.get(o), (qkv.get(base) + bias.get(h * 4 + e)) / 2, ACL_FLOAT, "q");
          expectNear(k.get(o), qkv.get(base + 8) + bias.get(8 + h * 4 + e), ACL_FLOAT, "k");
          expectNear(v.get(o), qkv.get(base + 16) + bias.get(16 + h * 4 + e), ACL_FLOAT, "v");
        }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransformBiasRescaleQkvGetWorkspaceSize(qkv.get(), bias.get(), 5, q.get(), k.get(),
                                                                  v.get(), ws, ex);
            }),
            kParamInvalid);
  // PrecisionCompare: 0 for equal tensors, 1 once an element differs
  HostTensorBuf a(ACL_FLOAT16, {3, 2}), c(ACL_FLOAT16, {3, 2}), res(ACL_UINT32, {});
  a.fillRandom(g, -5, 5);
  for (int i = 0; i < 6; ++i) c.set(i, a.get(i));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPrecisionCompareGetWorkspaceSize(a.get(), c.get(), res.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(res.at(0)), 0u);
  c.set(4, c.get(4) + 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPrecisionCompareGetWorkspaceSize(a.get(), c.get(), res.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(res.at(0)), 1u);
}

TEST(MathMisc, StftOfRealSignals) {
  // the public example's signal: X[0] = 20, X[1] = -7 - i, X[2] = -2 for one frame
  HostTensorBuf x(ACL_FLOAT, {5}), w(ACL_FLOAT, {4}), out(ACL_FLOAT, {3, 1, 2});
  const double xv[] = {1, 6, 8, 5, 7};
  for (int i = 0; i < 5; ++i) x.set(i, xv[i]);
  for (int i = 0; i < 4; ++i) w.set(i, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclStftGetWorkspaceSize(x.get(), w.get(), out.get(), 4, 2, 4, false, true, false, ws,
                                             ex);
            }),
            0);
  const double want[] = {20, 0, -7, -1, -2, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(out.get(i), want[i], 1e-5) << i;
  // a batch of random signals, a Hann-like window shorter than nFft, all frequencies, normalized
  std::mt19937 g(77);
  const int len = 20, nfft = 8, hop = 3, win = 6, frames = (len - nfft) / hop + 1;
  HostTensorBuf xs(ACL_DOUBLE, {2, len}), ws6(ACL_DOUBLE, {win}), o(ACL_DOUBLE, {2, nfft, frames, 2});
  xs.fillRandom(g, -1, 1);
  for (int k = 0; k < win; ++k) ws6.set(k, 0.5 - 0.5 * std::cos(2 * M_PI * k / win));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclStftGetWorkspaceSize(xs.get(), ws6.get(), o.get(), nfft, hop, win, true, false, false,
                                             ws, ex);
            }),
            0);
  for (int b = 0; b < 2; ++b)
    for (int f = 0; f < nfft; ++f)
      for (int m = 0; m < frames; ++m) {
        double re = 0, im = 0;
        for (int k = 0; k < win; ++k) {
          const double v = ws6.get(k) * xs.get(b * len + m * hop + k);
          re += v * std::cos(2 * M_PI * f * k / nfft);
          im -= v * std::sin(2 * M_PI * f * k / nfft);
        }
        const int at = ((b * nfft + f) * frames + m) * 2;
        EXPECT_NEAR(o.get(at), re / std::sqrt(8.0), 1e-12);
        EXPECT_NEAR(o.get(at + 1), im / std::sqrt(8.0), 1e-12);
      }
  HostTensorBuf bad(ACL_FLOAT, {2, 1, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclStftGetWorkspaceSize(x.get(), w.get(), bad.get(), 4, 2, 4, false, true, false, ws,
                                             ex);
            }),
            kParamInvalid);
}

TEST(SortSearch, CostIsTheStreamedBytes) {
  // Sort of [64, 1024] fp32 along the last dim: values read once, values and int64 indices written.
  HostTensorBuf x(ACL_FLOAT, {64, 1024}), v(ACL_FLOAT, {64, 1024}), i(ACL_INT64, {64, 1024});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnSortGetWorkspaceSize(x.get(), false, -1, false, v.get(), i.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 64u * 1024 * 4);
  EXPECT_EQ(c.written, 64u * 1024 * (4 + 8));
}
