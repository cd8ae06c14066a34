// The index/scatter engine (runtime/aclnn/ops/scatters.cpp on scatter_op.h) and the masked
// scatter: each operator against a loop over its definition written in the test, with
// duplicate and negative indices, several types, in-place forms, error codes and bytes charged.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "aclnnop/aclnn_embedding_bag.h"
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_inverse.h"
#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_max_unpool2d_backward.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "aclnnop/aclnn_take.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

void copyInto(HostTensorBuf& dst, HostTensorBuf& src) {
  for (int64_t i = 0; i < src.numel(); ++i) dst.set(i, src.get(i));
}

}  // namespace

// torch.scatter_reduce along dim 1 of a [3, 5] self, index [3, 4] with repeats, src [3, 4]:
// every reduction with and without self, against a direct loop.
TEST(Scatter, ElementsMatchDefinition) {
  std::mt19937 g(21);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32}) {
    HostTensorBuf self(dt, {3, 5}), src(dt, {3, 4}), index(ACL_INT64, {3, 4});
    self.fillRandom(g, -4, 4);
    src.fillRandom(g, -4, 4);
    for (int64_t i = 0; i < 12; ++i)
      index.set(i, static_cast<double>(g() % 5) - (i == 5 ? 5 : 0));  // one negative
    for (int64_t reduce = 0; reduce <= 5; ++reduce) {
      for (bool includeSelf : {true, false}) {
        if (reduce == 0 && !includeSelf) continue;
        std::vector<double> want(15), count(15, includeSelf ? 1 : 0);
        std::vector<bool> hit(15, false);
        for (int64_t i = 0; i < 15; ++i) want[i] = self.get(i);
        for (int64_t r = 0; r < 3; ++r) {
          for (int64_t c = 0; c < 4; ++c) {
            int64_t j = static_cast<int64_t>(index.get(r * 4 + c));
            if (j < 0) j += 5;
            const size_t d = static_cast<size_t>(r * 5 + j);
            const double v = src.get(r * 4 + c);
            double& w = want[d];
            if (!includeSelf && !hit[d]) {
              w = v;
            } else {
              switch (reduce) {
                case 0:
                  w = v;
                  break;
                case 1:
                case 5:
                  w += v;
                  break;
                case 2:
                  w *= v;
                  break;
                case 3:
                  w = std::max(w, v);
                  break;
                default:
                  w = std::min(w, v);
                  break;
              }
            }
            hit[d] = true;
            count[d] += 1;
          }
        }
        HostTensorBuf out(dt, {3, 5});
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnScatterReduceGetWorkspaceSize(self.get(), -1, index.get(), src.get(), reduce,
                                                              includeSelf, out.get(), ws, ex);
                  }),
                  0)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < 15; ++i) {
          double w = want[static_cast<size_t>(i)];
          if (reduce == 5 && hit[static_cast<size_t>(i)]) {
            w /= count[static_cast<size_t>(i)];
            if (dt == ACL_INT32) w = std::floor(w);
          }
          expectNear(out.get(i), out.stored(w), dt,
                     "reduce " + std::to_string(reduce) + " self " + std::to_string(includeSelf) + " dtype " +
                         std::to_string(dt) + " at " + std::to_string(i));
        }
      }
    }
    // Scatter (reduce none = 0, add = 1) and ScatterAdd agree with ScatterReduce including self.
    HostTensorBuf a(dt, {3, 5}), b(dt, {3, 5}), inplace(dt, {3, 5});
    copyInto(inplace, self);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnScatterGetWorkspaceSize(self.get(), 1, index.get(), src.get(), 1, a.get(), ws,
                                                    ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnScatterAddGetWorkspaceSize(self.get(), 1, index.get(), src.get(), b.get(), ws,
                                                       ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceScatterGetWorkspaceSize(inplace.get(), 1, index.get(), src.get(), 1, ws,
                                                           ex);
              }),
              0);
    for (int64_t i = 0; i < 15; ++i) {
      EXPECT_EQ(a.get(i), b.get(i));
      EXPECT_EQ(a.get(i), inplace.get(i));
    }
  }
}

TEST(Scatter, ValueAndErrors) {
  HostTensorBuf self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3}), index(ACL_INT64, {1, 3}),
      fidx(ACL_FLOAT, {1, 3}), big(ACL_INT64, {3, 3}), half(ACL_FLOAT16, {2, 3});
  for (int64_t i = 0; i < 6; ++i) self.set(i, static_cast<double>(i));
  const double idx[] = {1, 0, 1};
  for (int i = 0; i < 3; ++i) index.set(i, idx[i]);
  aclScalar* v = makeScalar(ACL_FLOAT, 9);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScatterValueGetWorkspaceSize(self.get(), 0, index.get(), v, 0, out.get(), ws, ex);
            }),
            0);
  const double want[] = {0, 9, 2, 9, 4, 9};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), want[i]) << i;
  auto scatter = [&](const aclTensor* s, const aclTensor* ix, int64_t dim, int64_t reduce, aclTensor* o) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnScatterValueGetWorkspaceSize(s, dim, ix, v, reduce, o, ws, ex);
    });
  };
  EXPECT_EQ(scatter(nullptr, index.get(), 0, 0, out.get()), kParamNull);
  EXPECT_EQ(scatter(self.get(), nullptr, 0, 0, out.get()), kParamNull);
  EXPECT_EQ(scatter(self.get(), fidx.get(), 0, 0, out.get()), kParamInvalid);  // float index
  EXPECT_EQ(scatter(self.get(), big.get(), 1, 0, out.get()),
            kParamInvalid);  // index taller than self off dim
  EXPECT_EQ(scatter(self.get(), index.get(), 2, 0, out.get()), kParamInvalid);   // dim
  EXPECT_EQ(scatter(self.get(), index.get(), 0, 3, out.get()), kParamInvalid);   // reduce (Scatter: 0..2)
  EXPECT_EQ(scatter(self.get(), index.get(), 0, 0, half.get()), kParamInvalid);  // out type
  // Cost: self (24 B) + index (24 B) read, out (24 B) written.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnScatterValueGetWorkspaceSize(self.get(), 0, index.get(), v, 0, out.get(), &ws, &ex), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 48u);
  EXPECT_EQ(ch.written, 24u);
  aclDestroyScalar(v);
}

// IndexAdd / IndexCopy / IndexFill(Tensor) along dim 0 and 1, with a repeated index.
TEST(Scatter, SlicesAlongDim) {
  std::mt19937 g(23);
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16, ACL_INT64}) {
    HostTensorBuf self(dt, {4, 3}), source(dt, {4, 2}), index(ACL_INT32, {2}), out(dt, {4, 3});
    self.fillRandom(g, -5, 5);
    source.fillRandom(g, -5, 5);
    index.set(0, 2);
    index.set(1, -1);  // = 2 as well: both source columns add into column 2
    aclScalar* alpha = makeScalar(ACL_FLOAT, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIndexAddGetWorkspaceSize(self.get(), 1, index.get(), source.get(), alpha,
                                                     out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t r = 0; r < 4; ++r) {
      for (int64_t c = 0; c < 3; ++c) {
        double w = self.get(r * 3 + c);
        if (c == 2) w += 2 * (source.get(r * 2) + source.get(r * 2 + 1));
        expectNear(out.get(r * 3 + c), out.stored(w), dt, "index add");
      }
    }
    // IndexCopy of rows 3 and 0 in place; IndexFillTensor of column 0 and 2.
    HostTensorBuf rows(dt, {2, 3}), ref(dt, {4, 3}), rowIndex(ACL_INT64, {2});
    rows.fillRandom(g, -5, 5);
    copyInto(ref, self);
    rowIndex.set(0, 3);
    rowIndex.set(1, 0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceIndexCopyGetWorkspaceSize(ref.get(), 0, rowIndex.get(), rows.get(), ws,
                                                             ex);
              }),
              0);
    for (int64_t c = 0; c < 3; ++c) {
      EXPECT_EQ(ref.get(9 + c), rows.get(c));
      EXPECT_EQ(ref.get(c), rows.get(3 + c));
      EXPECT_EQ(ref.get(3 + c), self.get(3 + c));
    }
    const int64_t cols[] = {0, 2};
    aclIntArray* colIndex = aclCreateIntArray(cols, 2);
    aclScalar* fill = makeScalar(ACL_FLOAT, -7);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIndexFillTensorGetWorkspaceSize(self.get(), 1, colIndex, fill, out.get(), ws, ex);
              }),
              0);
    HostTensorBuf same(dt, {4, 3});
    copyInto(same, self);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceIndexFillGetWorkspaceSize(same.get(), 1, rowIndex.get(), fill, ws, ex);
              }),
              0);  // index 3 is outside the 3 columns: skipped; column 0 filled
    for (int64_t i = 0; i < 12; ++i) {
      EXPECT_EQ(out.get(i), i % 3 == 1 ? self.get(i) : -7.0);
      EXPECT_EQ(same.get(i), i % 3 == 0 ? -7.0 : self.get(i));
    }
    aclDestroyIntArray(colIndex);
    aclDestroyScalar(fill);
    aclDestroyScalar(alpha);
  }
  HostTensorBuf self(ACL_FLOAT, {4, 3}), wrong(ACL_FLOAT, {3, 3}), index(ACL_INT64, {2}),
      out(ACL_FLOAT, {4, 3});
  aclScalar* alpha = makeScalar(ACL_FLOAT, 1);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {  // source must have 2 rows for 2 indices
              return aclnnIndexAddGetWorkspaceSize(self.get(), 0, index.get(), wrong.get(), alpha, out.get(),
                                                   ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIndexAddGetWorkspaceSize(self.get(), 0, index.get(), wrong.get(), nullptr,
                                                   out.get(), ws, ex);
            }),
            kParamNull);
  aclDestroyScalar(alpha);
}

// ScatterNd / ScatterNdUpdate / TfScatterAdd / InplacePut on the public examples' shapes.
TEST(Scatter, IndexRows) {
  std::mt19937 g(29);
  HostTensorBuf var(ACL_FLOAT, {2, 3, 7}), indices(ACL_INT64, {2, 2}), updates(ACL_FLOAT, {2, 7}),
      ref(ACL_FLOAT, {2, 3, 7});
  var.fillRandom(g, -3, 3);
  updates.fillRandom(g, -3, 3);
  copyInto(ref, var);
  const double rows[] = {1, 2, 0, 1};  // (1, 2) and (0, 1)
  for (int i = 0; i < 4; ++i) indices.set(i, rows[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScatterNdUpdateGetWorkspaceSize(var.get(), indices.get(), updates.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 42; ++i) {
    const int64_t row = i / 7, c = i % 7;
    const double w = row == 5 ? updates.get(c) : row == 1 ? updates.get(7 + c) : ref.get(i);
    EXPECT_EQ(var.get(i), w) << i;
  }
  HostTensorBuf data(ACL_INT32, {8}), idx(ACL_INT32, {4, 1}), upd(ACL_INT32, {4}), out(ACL_INT32, {8});
  for (int64_t i = 0; i < 8; ++i) data.set(i, 100 + i);
  const double pos[] = {4, 3, 1, 7};
  for (int i = 0; i < 4; ++i) {
    idx.set(i, pos[i]);
    upd.set(i, i + 1);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScatterNdGetWorkspaceSize(data.get(), idx.get(), upd.get(), out.get(), ws, ex);
            }),
            0);
  const double wantNd[] = {100, 3, 102, 2, 1, 105, 106, 4};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out.get(i), wantNd[i]);

  HostTensorBuf v(ACL_FLOAT16, {3, 2}), ti(ACL_INT64, {2, 3}), tu(ACL_FLOAT16, {2, 3, 2});
  for (int64_t i = 0; i < 6; ++i) v.set(i, 1);
  const double tiv[] = {0, 1, 0, 2, 2, 0};
  for (int i = 0; i < 6; ++i) ti.set(i, tiv[i]);
  for (int64_t i = 0; i < 12; ++i) tu.set(i, static_cast<double>(i) / 4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTfScatterAddGetWorkspaceSize(v.get(), ti.get(), tu.get(), ws, ex);
            }),
            0);
  std::vector<double> wantTf(6, 1);
  for (int64_t k = 0; k < 6; ++k) {
    for (int64_t c = 0; c < 2; ++c)
      wantTf[static_cast<size_t>(tiv[k] * 2 + c)] += static_cast<double>(k * 2 + c) / 4;
  }
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v.get(i), wantTf[i]) << i;

  for (bool accumulate : {false, true}) {
    HostTensorBuf s(ACL_FLOAT, {4, 2}), pi(ACL_INT64, {2, 2}), src(ACL_FLOAT, {4});
    for (int64_t i = 0; i < 8; ++i) s.set(i, 10);
    const double flat[] = {7, -1, 0, 3};  // -1 is element 7 again
    for (int i = 0; i < 4; ++i) {
      pi.set(i, flat[i]);
      src.set(i, i + 1);
    }
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplacePutGetWorkspaceSize(s.get(), pi.get(), src.get(), accumulate, ws, ex);
              }),
              0);
    EXPECT_EQ(s.get(7), accumulate ? 13.0 : 2.0);  // both writes land; the later one wins unaccumulated
    EXPECT_EQ(s.get(0), accumulate ? 13.0 : 3.0);
    EXPECT_EQ(s.get(3), accumulate ? 14.0 : 4.0);
    EXPECT_EQ(s.get(1), 10.0);
  }
  HostTensorBuf badUpd(ACL_FLOAT, {2, 6});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScatterNdUpdateGetWorkspaceSize(var.get(), indices.get(), badUpd.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Scatter, MaskedScatterAndComplexRoll) {
  HostTensorBuf self(ACL_BF16, {2, 4}), mask(ACL_BOOL, {4}), source(ACL_BF16, {5});
  for (int64_t i = 0; i < 8; ++i) self.set(i, -1);
  const double m[] = {1, 0, 0, 1};
  for (int i = 0; i < 4; ++i) mask.set(i, m[i]);
  for (int64_t i = 0; i < 5; ++i) source.set(i, static_cast<double>(i + 1));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask.get(), source.get(), ws, ex);
            }),
            0);
  const double want[] = {1, -1, -1, 2, 3, -1, -1, 4};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(self.get(i), want[i]) << i;
  HostTensorBuf other(ACL_FLOAT, {5});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask.get(), other.get(), ws, ex);
            }),
            kParamInvalid);

  // Complex64 elements move whole: roll [2, 3] by one along dim 1.
  std::vector<float> x = {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6}, y(12, 0);
  const std::vector<int64_t> shape{2, 3}, strides{3, 1};
  aclTensor* xt = aclCreateTensor(shape.data(), 2, ACL_COMPLEX64, strides.data(), 0, ACL_FORMAT_ND,
                                  shape.data(), 2, x.data());
  aclTensor* yt = aclCreateTensor(shape.data(), 2, ACL_COMPLEX64, strides.data(), 0, ACL_FORMAT_ND,
                                  shape.data(), 2, y.data());
  const int64_t one = 1;
  aclIntArray *sh = aclCreateIntArray(&one, 1), *dims = aclCreateIntArray(&one, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRollGetWorkspaceSize(xt, sh, dims, yt, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const std::vector<float> wantRoll = {3, -3, 1, -1, 2, -2, 6, -6, 4, -4, 5, -5};
  EXPECT_EQ(y, wantRoll);
  aclDestroyIntArray(sh);
  aclDestroyIntArray(dims);
  aclDestroyTensor(xt);
  aclDestroyTensor(yt);
}

// Embedding weight gradient: rows accumulate by index, the padding row stays zero, and with
// scaleGradByFreq each row is divided by its index's count.
TEST(Scatter, EmbeddingDenseBackward) {
  std::mt19937 g(37);
  for (bool scale : {false, true}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
      HostTensorBuf grad(dt, {2, 3, 4}), indices(ACL_INT64, {2, 3}), out(dt, {5, 4});
      grad.fillRandom(g, -2, 2);
      const double idx[] = {1, 3, 1, 0, 1, 3};
      for (int i = 0; i < 6; ++i) indices.set(i, idx[i]);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.get(), indices.get(), 5, 3, scale,
                                                                     out.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      const double count[] = {1, 3, 0, 2, 0};
      for (int64_t w = 0; w < 5; ++w) {
        for (int64_t c = 0; c < 4; ++c) {
          double want = 0;
          for (int i = 0; i < 6; ++i) {
            if (idx[i] == static_cast<double>(w) && w != 3)
              want += grad.get(i * 4 + c) / (scale ? count[w] : 1.0);
          }
          expectNear(out.get(w * 4 + c), want, dt, "row " + std::to_string(w));
        }
      }
    }
  }
  HostTensorBuf grad(ACL_FLOAT, {3, 4}), indices(ACL_INT64, {2}), out(ACL_FLOAT, {5, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {  // 2 indices for 3 rows of grad
              return aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.get(), indices.get(), 5, 0, false,
                                                                 out.get(), ws, ex);
            }),
            kParamInvalid);
}

// Results of data-dependent size: the coordinates or values written densely and out's view
// shape set to the count (aclGetViewShape reports it).
TEST(Scatter, NonzeroAndMaskedSelect) {
  HostTensorBuf x(ACL_FLOAT16, {2, 3}, {1, 2}, 0);  // transposed view
  const double v[] = {0, 1.5, 0, -2, 3, 0};
  for (int i = 0; i < 6; ++i) x.set(i, v[i]);
  HostTensorBuf rows(ACL_INT64, {6, 2}), cols(ACL_INT64, {2, 6});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNonzeroGetWorkspaceSize(x.get(), rows.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNonzeroV2GetWorkspaceSize(x.get(), cols.get(), ws, ex);
            }),
            0);
  int64_t* dims = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(rows.get(), &dims, &n), 0);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(dims[0], 3);
  EXPECT_EQ(dims[1], 2);
  delete[] dims;
  const int64_t want[3][2] = {{0, 1}, {1, 0}, {1, 1}};  // nonzeros at flat 1, 3, 4
  for (int k = 0; k < 3; ++k) {
    for (int a = 0; a < 2; ++a) {
      EXPECT_EQ(static_cast<int64_t>(decode(ACL_INT64, rows.raw().data() + (k * 2 + a) * 8)), want[k][a]);
      EXPECT_EQ(static_cast<int64_t>(decode(ACL_INT64, cols.raw().data() + (a * 3 + k) * 8)), want[k][a]);
    }
  }
  HostTensorBuf mask(ACL_BOOL, {3}), out(ACL_FLOAT16, {6});
  mask.set(0, 1);
  mask.set(1, 0);
  mask.set(2, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaskedSelectGetWorkspaceSize(x.get(), mask.get(), out.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(aclGetViewShape(out.get(), &dims, &n), 0);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(dims[0], 4);
  delete[] dims;
  const double sel[] = {0, 0, -2, 0};  // columns 0 and 2 of both rows
  for (int i = 0; i < 4; ++i) EXPECT_EQ(decode(ACL_FLOAT16, out.raw().data() + i * 2), sel[i]);
  HostTensorBuf badOut(ACL_INT32, {6, 2}), wrongRank(ACL_INT64, {6, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNonzeroGetWorkspaceSize(x.get(), badOut.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNonzeroGetWorkspaceSize(x.get(), wrongRank.get(), ws, ex);
            }),
            kParamInvalid);
}

// Advanced indexing: x[:, i, j] (adjacent index tensors, B in their place) and x[i, :, j]
// (separated, B in front), with broadcasting and a negative index.
TEST(Scatter, AdvancedIndex) {
  HostTensorBuf x(ACL_INT32, {2, 3, 4});
  for (int64_t k = 0; k < 24; ++k) x.set(k, static_cast<double>(k));
  HostTensorBuf i(ACL_INT64, {2, 1}), j(ACL_INT32, {3});
  i.set(0, 2);
  i.set(1, -3);  // = 0
  j.set(0, 1);
  j.set(1, 3);
  j.set(2, 0);
  // x[:, i, j]: out [2, 2, 3], out[a, p, q] = x[a, i[p], j[q]]
  {
    aclTensor* items[] = {nullptr, listHandle(i), listHandle(j)};
    aclTensorList* list = aclCreateTensorList(items, 3);
    HostTensorBuf out(ACL_INT32, {2, 2, 3});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIndexGetWorkspaceSize(x.get(), list, out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    const int64_t iv[] = {2, 0};
    for (int64_t a = 0; a < 2; ++a) {
      for (int64_t p = 0; p < 2; ++p) {
        for (int64_t q = 0; q < 3; ++q)
          EXPECT_EQ(out.get((a * 2 + p) * 3 + q), x.get((a * 3 + iv[p]) * 4 + j.get(q)));
      }
    }
    aclDestroyTensorList(list);
  }
  // x[k, :, j] with k = [1]: B = broadcast([1], [3]) = [3] goes in front: out [3, 3]
  {
    HostTensorBuf k(ACL_INT64, {1});
    k.set(0, 1);
    aclTensor* items[] = {listHandle(k), nullptr, listHandle(j)};
    aclTensorList* list = aclCreateTensorList(items, 3);
    HostTensorBuf out(ACL_INT32, {3, 3});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIndexGetWorkspaceSize(x.get(), list, out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t q = 0; q < 3; ++q) {
      for (int64_t m = 0; m < 3; ++m) EXPECT_EQ(out.get(q * 3 + m), x.get((12 + m * 4) + j.get(q)));
    }
    HostTensorBuf wrong(ACL_INT32, {3, 4});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIndexGetWorkspaceSize(x.get(), list, wrong.get(), ws, ex);
              }),
              kParamInvalid);
    aclDestroyTensorList(list);
  }
}

namespace {
std::vector<int64_t> viewShape(const aclTensor* t) {
  int64_t* dims = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(t, &dims, &n), 0);
  std::vector<int64_t> v(dims, dims + n);
  delete[] dims;
  return v;
}
}  // namespace

// unique (sorted, inverse), unique_consecutive (flattened with dim 1000, counts) and
// unique along dim 0, against PyTorch's results for the same inputs worked by hand.
TEST(Scatter, Unique) {
  HostTensorBuf x(ACL_INT32, {2, 4}), value(ACL_INT32, {8}), inverse(ACL_INT64, {2, 4}),
      counts(ACL_INT64, {8});
  const double v[] = {3, 1, 1, 2, 3, 3, 0, 1};
  for (int i = 0; i < 8; ++i) x.set(i, v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnUniqueGetWorkspaceSize(x.get(), true, true, value.get(), inverse.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(viewShape(value.get()), (std::vector<int64_t>{4}));
  EXPECT_EQ(viewShape(inverse.get()), (std::vector<int64_t>{2, 4}));
  const double uniq[] = {0, 1, 2, 3}, inv[] = {3, 1, 1, 2, 3, 3, 0, 1};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(decode(ACL_INT32, value.raw().data() + i * 4), uniq[i]);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(decode(ACL_INT64, inverse.raw().data() + i * 8), inv[i]);

  HostTensorBuf value2(ACL_INT32, {8}), counts2(ACL_INT64, {8}), inverse2(ACL_INT64, {2, 4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnUniqueConsecutiveGetWorkspaceSize(x.get(), true, true, 1000, value2.get(),
                                                            inverse2.get(), counts2.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(viewShape(value2.get()), (std::vector<int64_t>{6}));
  const double runs[] = {3, 1, 2, 3, 0, 1}, lens[] = {1, 2, 1, 2, 1, 1};
  EXPECT_EQ(viewShape(counts2.get()), (std::vector<int64_t>{6}));
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(decode(ACL_INT32, value2.raw().data() + i * 4), runs[i]);
    EXPECT_EQ(decode(ACL_INT64, counts2.raw().data() + i * 8), lens[i]);
  }

  HostTensorBuf rows(ACL_FLOAT, {4, 2}), value3(ACL_FLOAT, {4, 2}), counts3(ACL_INT64, {4});
  const double r[] = {1, 3, 0, 1, 1, 3, 1, 2};
  for (int i = 0; i < 8; ++i) rows.set(i, r[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnUniqueDimGetWorkspaceSize(rows.get(), true, false, 0, value3.get(), nullptr,
                                                    counts3.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(viewShape(value3.get()), (std::vector<int64_t>{3, 2}));
  const double sortedRows[] = {0, 1, 1, 2, 1, 3}, rowCounts[] = {1, 1, 2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(decode(ACL_FLOAT, value3.raw().data() + i * 4), sortedRows[i]);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(decode(ACL_INT64, counts3.raw().data() + i * 8), rowCounts[i]);
  HostTensorBuf wrongType(ACL_FLOAT, {8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnUniqueGetWorkspaceSize(x.get(), true, false, wrongType.get(), nullptr, ws, ex);
            }),
            kParamInvalid);
}

// MaxUnpool2dBackward: out[n, c, i] = gradOutput[n, c, indices[n, c, i]] over the flattened
// H*W; an index past gradOutput's plane gives 0.
TEST(Scatter, MaxUnpool2dBackwardGathers) {
  HostTensorBuf grad(ACL_FLOAT16, {2, 1, 2, 3}), self(ACL_FLOAT16, {2, 1, 2, 2}),
      idx(ACL_INT64, {2, 1, 2, 2}), out(ACL_FLOAT16, {2, 1, 2, 2});
  for (int64_t i = 0; i < 12; ++i) grad.set(i, static_cast<double>(i) / 4);
  const double ix[] = {5, 0, 3, 9, 1, 1, 4, 2};  // 9 is past the 6 elements of a plane
  for (int i = 0; i < 8; ++i) idx.set(i, ix[i]);
  const int64_t sizes[] = {2, 3};
  aclIntArray* outputSize = aclCreateIntArray(sizes, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxUnpool2dBackwardGetWorkspaceSize(grad.get(), self.get(), idx.get(), outputSize,
                                                              out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t i = 0; i < 4; ++i) {
      const double k = ix[n * 4 + i];
      EXPECT_EQ(out.get(n * 4 + i), k < 6 ? grad.get(n * 6 + static_cast<int64_t>(k)) : 0.0) << n << "," << i;
    }
  }
  const int64_t wrong[] = {3, 3};
  aclIntArray* wrongSize = aclCreateIntArray(wrong, 2);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxUnpool2dBackwardGetWorkspaceSize(grad.get(), self.get(), idx.get(), wrongSize,
                                                              out.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyIntArray(outputSize);
  aclDestroyIntArray(wrongSize);
}

// GatherV2 (index of any shape, negative indices), Take, and the order statistics: lower
// median with NaN propagation or skipping, k-th value with its index.
TEST(Scatter, GatherV2TakeAndOrderStatistics) {
  HostTensorBuf x(ACL_FLOAT, {3, 4}), index(ACL_INT32, {2, 2}), out(ACL_FLOAT, {3, 2, 2});
  for (int64_t i = 0; i < 12; ++i) x.set(i, static_cast<double>(i));
  const double ix[] = {-1, 0, 2, -4};  // columns 3, 0, 2, 0
  for (int i = 0; i < 4; ++i) index.set(i, ix[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGatherV2GetWorkspaceSize(x.get(), 1, index.get(), out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const int64_t col[] = {3, 0, 2, 0};
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(out.get(r * 4 + j), x.get(r * 4 + col[j]));
  }
  HostTensorBuf flat(ACL_FLOAT, {2, 2});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTakeGetWorkspaceSize(x.get(), index.get(), flat.get(), ws, ex);
            }),
            0);
  const double taken[] = {11, 0, 2, 8};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(flat.get(i), taken[i]);

  HostTensorBuf y(ACL_FLOAT, {2, 5}), values(ACL_FLOAT, {2}), indices(ACL_INT64, {2}), one(ACL_FLOAT, {1});
  const double v[] = {4, 1, NAN, 1, 3, 9, 2, 7, 2, 5};
  for (int i = 0; i < 10; ++i) y.set(i, v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMedianDimGetWorkspaceSize(y.get(), 1, false, values.get(), indices.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(values.get(0)));  // a NaN in the row
  EXPECT_EQ(indices.get(0), 2.0);
  EXPECT_EQ(values.get(1), 5.0);  // sorted 2 2 5 7 9: lower median 5 at index 9 - 5
  EXPECT_EQ(indices.get(1), 4.0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNanMedianDimGetWorkspaceSize(y.get(), 1, false, values.get(), indices.get(), ws,
                                                       ex);
            }),
            0);
  EXPECT_EQ(values.get(0), 1.0);  // 1 1 3 4 without the NaN: rank 1 is the second 1 (stable order)
  EXPECT_EQ(indices.get(0), 3.0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnKthvalueGetWorkspaceSize(y.get(), 2, -1, false, values.get(), indices.get(), ws,
                                                   ex);
            }),
            0);
  EXPECT_EQ(values.get(1), 2.0);  // the second 2 (stable order): index 3 along the row
  EXPECT_EQ(indices.get(1), 3.0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNanMedianGetWorkspaceSize(y.get(), one.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(one.get(0), 3.0);  // 1 1 2 2 3 4 5 7 9
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnKthvalueGetWorkspaceSize(y.get(), 6, 1, false, values.get(), indices.get(), ws, ex);
            }),
            kParamInvalid);
}

// Inverse: A * inv(A) = I for a batch of random well-conditioned matrices (fp64 and fp32, and
// fp16 within its precision); a non-square self is refused.
TEST(Scatter, InverseTimesSelfIsIdentity) {
  std::mt19937 g(43);
  for (aclDataType dt : {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16}) {
    const int64_t b = 3, n = 4;
    HostTensorBuf a(dt, {b, n, n}), inv(dt, {b, n, n});
    std::uniform_real_distribution<double> u(-1, 1);
    for (int64_t i = 0; i < b * n * n; ++i)
      a.set(i, u(g) + ((i % (n * n)) % (n + 1) == 0 ? 4.0 : 0.0));  // diagonally dominant
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInverseGetWorkspaceSize(a.get(), inv.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    const double tolerance = dt == ACL_FLOAT16 ? 1e-2 : dt == ACL_FLOAT ? 1e-6 : 1e-12;
    for (int64_t k = 0; k < b; ++k) {
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t c = 0; c < n; ++c) {
          double sum = 0;
          for (int64_t j = 0; j < n; ++j)
            sum += a.get(k * n * n + r * n + j) * inv.get(k * n * n + j * n + c);
          EXPECT_NEAR(sum, r == c ? 1.0 : 0.0, tolerance) << "dtype " << dt << " batch " << k;
        }
      }
    }
  }
  HostTensorBuf rect(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3}), i8(ACL_INT8, {2, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInverseGetWorkspaceSize(rect.get(), out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInverseGetWorkspaceSize(i8.get(), i8.get(), ws, ex);
            }),
            kParamInvalid);
}

// ExpandIntoJaggedPermute on the public example's data: tables 1, 0, 2 of sizes 2, 2, 2
// starting at 3, 0, 5 -> 3 4 0 1 5 6.
TEST(Scatter, ExpandIntoJaggedPermute) {
  HostTensorBuf perm(ACL_INT32, {3}), inOff(ACL_INT32, {4}), outOff(ACL_INT32, {4}), out(ACL_INT32, {6});
  const double p[] = {1, 0, 2}, in[] = {0, 3, 5, 8}, o[] = {0, 2, 4, 6};
  for (int i = 0; i < 3; ++i) perm.set(i, p[i]);
  for (int i = 0; i < 4; ++i) {
    inOff.set(i, in[i]);
    outOff.set(i, o[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(perm.get(), inOff.get(), outOff.get(), 6,
                                                                  out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const double want[] = {3, 4, 0, 1, 5, 6};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), want[i]);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(perm.get(), inOff.get(), outOff.get(), 7,
                                                                  out.get(), ws, ex);
            }),
            kParamInvalid);
}

// EmbeddingBag in its three modes: bags [0, 2), [2, 4), [4, 5), [5, 6) of the indices, the
// padding row left out, per-sample weights in sum mode, the max's row per column.
TEST(Scatter, EmbeddingBag) {
  HostTensorBuf w(ACL_FLOAT, {3, 2}), idx(ACL_INT64, {6}), off(ACL_INT64, {4}), psw(ACL_FLOAT, {6});
  const double wv[] = {1, -1, 2, 5, 3, 0}, iv[] = {1, 2, 0, 2, 2, 1}, ov[] = {0, 2, 4, 5};
  for (int i = 0; i < 6; ++i) {
    w.set(i, wv[i]);
    idx.set(i, iv[i]);
    psw.set(i, i + 1);
  }
  for (int i = 0; i < 4; ++i) off.set(i, ov[i]);
  for (int64_t mode : {0, 1, 2}) {
    HostTensorBuf out(ACL_FLOAT, {4, 2}), o2b(ACL_INT64, {6}), size(ACL_INT64, {4}),
        maxIdx(ACL_INT64, mode == 2 ? std::vector<int64_t>{4, 2} : std::vector<int64_t>{4});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnEmbeddingBagGetWorkspaceSize(w.get(), idx.get(), off.get(), false, mode, false,
                                                         mode == 0 ? psw.get() : nullptr, false, 1, out.get(),
                                                         o2b.get(), size.get(), maxIdx.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    // Rows per bag without the padding row 1: {2}, {0, 2}, {2}, {} ; sum weights 2, (3, 4), 5.
    const double sum[] = {2 * 3, 2 * 0, 3 * 1 + 4 * 3, 3 * -1 + 4 * 0, 5 * 3, 5 * 0, 0, 0};
    const double mean[] = {3, 0, 2, -0.5, 3, 0, 0, 0};
    const double mx[] = {3, 0, 3, 0, 3, 0, 0, 0};
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(out.get(i), mode == 0 ? sum[i] : mode == 1 ? mean[i] : mx[i]) << mode << " " << i;
    const double bag[] = {0, 0, 1, 1, 2, 3}, count[] = {1, 2, 1, 0};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(o2b.get(i), bag[i]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(size.get(i), count[i]);
    if (mode == 2) {
      const double arg[] = {2, 2, 2, 2, 2, 2, 0, 0};  // bag 1: row 2 beats row 0 in both columns
      for (int i = 0; i < 8; ++i) EXPECT_EQ(maxIdx.get(i), arg[i]) << i;
    }
  }
  HostTensorBuf out(ACL_FLOAT, {4, 2}), o2b(ACL_INT64, {6}), size(ACL_INT64, {4}), maxIdx(ACL_INT64, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {  // weights outside sum mode
              return aclnnEmbeddingBagGetWorkspaceSize(w.get(), idx.get(), off.get(), false, 1, false,
                                                       psw.get(), false, 1, out.get(), o2b.get(), size.get(),
                                                       maxIdx.get(), ws, ex);
            }),
            kParamInvalid);
}

// ApplyTopKTopP on an unsorted row: top-2 keeps 5 and 9; of their softmax (0.018, 0.982) the
// running sum from the smallest, 0.018, is at most 1 - 0.5, so only 9 stays; with p alone
// (0.99) the small ones whose running sum stays under 0.01 go.
TEST(Scatter, ApplyTopKTopP) {
  HostTensorBuf logits(ACL_FLOAT, {1, 4}), p(ACL_FLOAT, {1}), k(ACL_INT32, {1}), out(ACL_FLOAT, {1, 4});
  const double row[] = {1, 9, 5, 0};
  for (int i = 0; i < 4; ++i) logits.set(i, row[i]);
  p.set(0, 0.5);
  k.set(0, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnApplyTopKTopPGetWorkspaceSize(logits.get(), p.get(), k.get(), out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.get(i), i == 1 ? 9.0 : -INFINITY) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnApplyTopKTopPGetWorkspaceSize(logits.get(), nullptr, k.get(), out.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.get(i), i == 1 || i == 2 ? row[i] : -INFINITY) << i;
  p.set(0, 0.99);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnApplyTopKTopPGetWorkspaceSize(logits.get(), p.get(), nullptr, out.get(), ws, ex);
            }),
            0);
  // softmax of (0, 1, 5, 9): 1.1e-4, 3.3e-4, 0.018, 0.982; running 1.1e-4, 4.5e-4 <= 0.01 go.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.get(i), i == 1 || i == 2 ? row[i] : -INFINITY) << i;
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnApplyTopKTopPGetWorkspaceSize(logits.get(), nullptr, nullptr, out.get(), ws, ex);
            }),
            kParamNull);
}
