// The mc2 operators (a matmul fused with a collective): each rank's results against sums over
// the ranks computed here from the inputs, the documented error codes, and the time of the fused
// operator against its matmul and its collective run alone.
#include <thread>

#include "aclnnop/aclnn_all_gather_matmul.h"
#include "aclnnop/aclnn_inplace_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "aclnnop/aclnn_matmul_all_reduce_add_rms_norm.h"
#include "aclnnop/aclnn_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_matmul_reduce_scatter.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v3.h"
#include "aclnnop/aclnn_weight_quant_matmul_all_reduce.h"
#include "tests/aclnn/aclnn_test_util.h"
#include "tests/hccl/hccl_test_util.h"

using aclnn_test::decode;
using aclnn_test::elemSize;
using aclnn_test::encode;
using aclnn_test::roundTo;
using npusim::test::Ranks;

namespace {

// A tensor on one rank's device, filled from doubles (rounded to its type) and read back.
struct RankTensor {
  aclDataType dt = ACL_FLOAT16;
  std::vector<int64_t> shape;
  std::vector<double> values;  // as stored (rounded)
  void* dev = nullptr;
  aclTensor* t = nullptr;

  RankTensor(Ranks& k, uint32_t r, aclDataType type, std::vector<int64_t> s, std::vector<double> v)
      : dt(type), shape(std::move(s)), values(std::move(v)) {
    std::vector<unsigned char> bytes(values.size() * elemSize(dt));
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = roundTo(dt, values[i]);
      encode(dt, values[i], bytes.data() + i * elemSize(dt));
    }
    dev = k.alloc(r, bytes.size(), bytes.data());
    const std::vector<int64_t> st = aclnn_test::denseStrides(shape);
    t = aclCreateTensor(shape.data(), shape.size(), dt, st.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), dev);
  }
  ~RankTensor() {
    aclDestroyTensor(t);
    if (view != nullptr) aclDestroyTensor(view);
    aclrtFree(dev);
  }
  // The 2-D storage read as its transpose (a strided view, as a transposed weight is passed).
  aclTensor* transposed() {
    if (view == nullptr) {
      const std::vector<int64_t> sh{shape[1], shape[0]}, st{1, shape[1]};
      view = aclCreateTensor(sh.data(), 2, dt, st.data(), 0, ACL_FORMAT_ND, shape.data(), 2, dev);
    }
    return view;
  }
  aclTensor* view = nullptr;
  std::vector<double> read(Ranks& k, uint32_t r) const {
    std::vector<uint8_t> b = k.read(r, dev, values.size() * elemSize(dt));
    std::vector<double> v(values.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = decode(dt, b.data() + i * elemSize(dt));
    return v;
  }
};

using Tensors = std::vector<std::unique_ptr<RankTensor>>;

std::vector<double> randoms(std::mt19937& g, size_t n, double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(g);
  return v;
}

// Small integers in [-bound, bound], as doubles: int8 operands whose products sum exactly.
std::vector<double> smallInts(std::mt19937& g, size_t n, int bound) {
  std::uniform_int_distribution<int> d(-bound, bound);
  std::vector<double> v(n);
  for (double& x : v) x = d(g);
  return v;
}

std::vector<double> zeros(size_t n) { return std::vector<double>(n, 0.0); }

// a [m, k] @ b [k, n] (+ bias [n]) in double, rounded to dt as the cube's result is.
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b,
                            const std::vector<double>* bias, int64_t m, int64_t k, int64_t n,
                            aclDataType dt) {
  std::vector<double> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = bias != nullptr ? (*bias)[j] : 0.0;
      for (int64_t p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = roundTo(dt, s);
    }
  return c;
}

// Summing n rounded terms in the communication type: each partial sum may round once more.
void expectNear(const std::vector<double>& got, const std::vector<double>& want,
                const std::vector<double>& scale, aclDataType dt, const std::string& what) {
  const double eps = dt == ACL_BF16 ? 1.0 / 128 : 1.0 / 1024;
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 4 * eps * scale[i] + 1e-6) << what << " element " << i;
}

// Makes rank r's device current and returns its communicator's name (the operators' group).
std::string useRank(Ranks& k, uint32_t r) {
  EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
  char name[128] = {};
  EXPECT_EQ(HcclGetCommName(k.comms[r], name), HCCL_SUCCESS);
  return name;
}

uint64_t workspace(Ranks& k, uint32_t r, uint64_t bytes, std::vector<void*>& keep) {
  if (bytes == 0) return 0;
  keep.push_back(k.alloc(r, bytes));
  return bytes;
}

// MatmulAllReduce[V2] on `n` ranks, each called from its own thread as the public examples do.
void matmulAllReduce(uint32_t n, aclDataType dt, bool withX3) {
  npusim::test::configure("");
  Ranks k(n);
  const int64_t b = 2, s = 3, kk = 40, nn = 24, m = b * s;
  std::mt19937 g(7);
  const std::vector<double> w = randoms(g, kk * nn), bias = randoms(g, nn);
  // V2 takes x2 as a transposed view of an (n, k) weight, which the document allows.
  std::vector<double> wT(w.size()), wRounded(w.size());
  for (int64_t p = 0; p < kk; ++p)
    for (int64_t j = 0; j < nn; ++j) {
      wT[j * kk + p] = w[p * nn + j];
      wRounded[p * nn + j] = roundTo(dt, w[p * nn + j]);
    }
  Tensors x1, x2, bs, x3, out;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, kk}, randoms(g, m * kk)));
    x2.push_back(withX3 ? std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{nn, kk}, wT)
                        : std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{kk, nn}, w));
    bs.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{nn}, bias));
    x3.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, nn}, randoms(g, m * nn)));
    out.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, nn}, zeros(m * nn)));
  }
  std::vector<void*> keep(n);
  std::vector<int> status(n, -1);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      aclrtSetDevice(static_cast<int32_t>(r));
      char name[128] = {};
      HcclGetCommName(k.comms[r], name);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      int st = withX3
                   ? aclnnMatmulAllReduceV2GetWorkspaceSize(x1[r]->t, x2[r]->transposed(), bs[r]->t, x3[r]->t,
                                                            name, "sum", 0, 1, out[r]->t, &ws, &ex)
                   : aclnnMatmulAllReduceGetWorkspaceSize(x1[r]->t, x2[r]->t, bs[r]->t, name, "sum", 0, 1,
                                                          out[r]->t, &ws, &ex);
      if (st == 0) {
        if (ws > 0) aclrtMalloc(&keep[r], ws, ACL_MEM_MALLOC_HUGE_FIRST);
        st = withX3 ? aclnnMatmulAllReduceV2(keep[r], ws, ex, k.streams[r])
                    : aclnnMatmulAllReduce(keep[r], ws, ex, k.streams[r]);
      }
      if (st == 0) st = aclrtSynchronizeStream(k.streams[r]);
      status[r] = st;
    });
  }
  for (auto& t : threads) t.join();
  for (uint32_t r = 0; r < n; ++r) ASSERT_EQ(status[r], 0) << "rank " << r;

  std::vector<double> want(static_cast<size_t>(m * nn), 0.0), scale(want.size(), 0.0);
  for (uint32_t r = 0; r < n; ++r) {
    std::vector<double> p = product(x1[r]->values, wRounded, &bs[r]->values, m, kk, nn, dt);
    if (withX3)
      for (size_t i = 0; i < p.size(); ++i) p[i] = roundTo(dt, p[i] + x3[r]->values[i]);
    for (size_t i = 0; i < p.size(); ++i) {
      want[i] += p[i];
      scale[i] += std::fabs(p[i]);
    }
  }
  for (uint32_t r = 0; r < n; ++r)
    expectNear(out[r]->read(k, r), want, scale, dt, "rank " + std::to_string(r));
  for (uint32_t r = 0; r < n; ++r) aclrtFree(keep[r]);
  k.destroy();
}

TEST(Mc2, MatmulAllReduceSumsEveryRanksProductPlusBiasFp16) { matmulAllReduce(4, ACL_FLOAT16, false); }
TEST(Mc2, MatmulAllReduceSumsEveryRanksProductPlusBiasBf16) { matmulAllReduce(8, ACL_BF16, false); }
TEST(Mc2, MatmulAllReduceV2AddsX3BeforeTheReductionWithATransposedX2) {
  matmulAllReduce(4, ACL_FLOAT16, true);
}

TEST(Mc2, MatmulReduceScatterLeavesEachRankItsRowsOfTheSum) {
  npusim::test::configure("");
  const uint32_t n = 4;
  Ranks k(n);
  const int64_t m = 8, kk = 256, nn = 12;
  const aclDataType dt = ACL_BF16;
  std::mt19937 g(11);
  Tensors x1, x2, out;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m, kk}, randoms(g, m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{kk, nn}, randoms(g, kk * nn)));
    out.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m / n, nn}, zeros(m / n * nn)));
  }
  std::vector<void*> keep;
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    const char* name = group.c_str();
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMatmulReduceScatterGetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr, name, "sum", 0, 1,
                                                       out[r]->t, &ws, &ex),
              0);
    EXPECT_GE(ws, static_cast<uint64_t>(m * nn * 2));  // the whole product, before the scatter
    workspace(k, r, ws, keep);
    ASSERT_EQ(aclnnMatmulReduceScatter(keep.back(), ws, ex, k.streams[r]), 0);
  }
  k.syncAll();
  std::vector<double> want(static_cast<size_t>(m * nn), 0.0), scale(want.size(), 0.0);
  for (uint32_t r = 0; r < n; ++r) {
    const std::vector<double> p = product(x1[r]->values, x2[r]->values, nullptr, m, kk, nn, dt);
    for (size_t i = 0; i < p.size(); ++i) want[i] += p[i], scale[i] += std::fabs(p[i]);
  }
  const size_t rows = static_cast<size_t>(m / n * nn);
  for (uint32_t r = 0; r < n; ++r) {
    const std::vector<double> part(want.begin() + r * rows, want.begin() + (r + 1) * rows),
        sc(scale.begin() + r * rows, scale.begin() + (r + 1) * rows);
    expectNear(out[r]->read(k, r), part, sc, dt, "rank " + std::to_string(r));
  }
  for (void* p : keep) aclrtFree(p);
  k.destroy();
}

void allGatherMatmul(bool withGatherOut) {
  npusim::test::configure("");
  const uint32_t n = 4;
  Ranks k(n);
  const int64_t m = 3, kk = 256, nn = 8;
  const aclDataType dt = ACL_FLOAT16;
  std::mt19937 g(5);
  const std::vector<double> w = randoms(g, kk * nn), bias = randoms(g, nn);
  Tensors x1, x2, bs, out, gathered;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m, kk}, randoms(g, m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{kk, nn}, w));
    bs.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{nn}, bias));
    out.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m * n, nn}, zeros(m * n * nn)));
    gathered.push_back(
        std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m * n, kk}, zeros(m * n * kk)));
  }
  std::vector<void*> keep;
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    const char* name = group.c_str();
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAllGatherMatmulGetWorkspaceSize(x1[r]->t, x2[r]->t, bs[r]->t, name, 0, 0, 1, out[r]->t,
                                                   withGatherOut ? gathered[r]->t : nullptr, &ws, &ex),
              0);
    EXPECT_EQ(ws > 0, !withGatherOut);  // without gatherOut the gathered x1 lives in the workspace
    ASSERT_EQ(aclnnAllGatherMatmul(ws ? k.alloc(r, ws) : nullptr, ws, ex, k.streams[r]), 0);
  }
  k.syncAll();
  std::vector<double> all;
  for (uint32_t r = 0; r < n; ++r) all.insert(all.end(), x1[r]->values.begin(), x1[r]->values.end());
  const std::vector<double> want = product(all, x2[0]->values, &bs[0]->values, m * n, kk, nn, dt);
  for (uint32_t r = 0; r < n; ++r) {
    const std::vector<double> got = out[r]->read(k, r);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(got[i], want[i], std::fabs(want[i]) / 512 + 1e-3) << "rank " << r << " element " << i;
    if (withGatherOut) {
      EXPECT_EQ(gathered[r]->read(k, r), all) << "rank " << r;
    }
  }
  k.destroy();
}

TEST(Mc2, AllGatherMatmulMultipliesTheGatheredRowsAndReturnsThem) { allGatherMatmul(true); }
TEST(Mc2, AllGatherMatmulWithoutGatherOutGathersIntoTheWorkspace) { allGatherMatmul(false); }

void addRmsNorm(bool inplace, aclDataType dt) {
  npusim::test::configure("");
  const uint32_t n = 2;
  Ranks k(n);
  const int64_t b = 2, s = 2, m = b * s, kk = 32, nn = 16;
  const double eps = 1e-6;
  std::mt19937 g(3);
  const std::vector<double> w = randoms(g, kk * nn), gam = randoms(g, nn, 0.5, 1.5), res = randoms(g, m * nn);
  Tensors x1, x2, residual, gamma, y, norm;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{m, kk}, randoms(g, m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{kk, nn}, w));
    residual.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, nn}, res));
    gamma.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{nn}, gam));
    y.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, nn}, zeros(m * nn)));
    norm.push_back(std::make_unique<RankTensor>(k, r, dt, std::vector<int64_t>{b, s, nn}, zeros(m * nn)));
  }
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    const char* name = group.c_str();
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (inplace) {
      ASSERT_EQ(aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr,
                                                                      residual[r]->t, gamma[r]->t, eps, name,
                                                                      "sum", 0, 1, norm[r]->t, &ws, &ex),
                0);
      ASSERT_EQ(aclnnInplaceMatmulAllReduceAddRmsNorm(k.alloc(r, ws), ws, ex, k.streams[r]), 0);
    } else {
      ASSERT_EQ(aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr, residual[r]->t,
                                                               gamma[r]->t, eps, name, "sum", 0, 1, y[r]->t,
                                                               norm[r]->t, &ws, &ex),
                0);
      ASSERT_EQ(aclnnMatmulAllReduceAddRmsNorm(k.alloc(r, ws), ws, ex, k.streams[r]), 0);
    }
  }
  k.syncAll();
  // y = sum of the ranks' rounded products + residual; normOut = y / rms(y) * gamma per row.
  std::vector<double> sum(static_cast<size_t>(m * nn), 0.0), scale(sum.size(), 0.0);
  for (uint32_t r = 0; r < n; ++r) {
    const std::vector<double> p = product(x1[r]->values, x2[r]->values, nullptr, m, kk, nn, dt);
    for (size_t i = 0; i < p.size(); ++i) sum[i] += p[i], scale[i] += std::fabs(p[i]);
  }
  std::vector<double> wantY(sum.size()), wantNorm(sum.size());
  for (size_t i = 0; i < sum.size(); ++i) {
    wantY[i] = sum[i] + residual[0]->values[i];
    scale[i] += std::fabs(residual[0]->values[i]);
  }
  for (int64_t row = 0; row < m; ++row) {
    double ms = 0;
    for (int64_t j = 0; j < nn; ++j) ms += wantY[row * nn + j] * wantY[row * nn + j];
    const double rstd = 1.0 / std::sqrt(ms / nn + eps);
    for (int64_t j = 0; j < nn; ++j)
      wantNorm[row * nn + j] = wantY[row * nn + j] * rstd * gamma[0]->values[j];
  }
  const std::vector<double> normScale(wantNorm.size(), 8.0);  // |normOut| is at most |gamma| * sqrt(n)
  for (uint32_t r = 0; r < n; ++r) {
    const std::string who = "rank " + std::to_string(r);
    expectNear((inplace ? residual : y)[r]->read(k, r), wantY, scale, dt, who + " y");
    expectNear(norm[r]->read(k, r), wantNorm, normScale, dt, who + " normOut");
  }
  k.destroy();
}

TEST(Mc2, MatmulAllReduceAddRmsNormNormalisesTheSumPlusResidualFp16) { addRmsNorm(false, ACL_FLOAT16); }
TEST(Mc2, MatmulAllReduceAddRmsNormBf16) { addRmsNorm(false, ACL_BF16); }
TEST(Mc2, InplaceMatmulAllReduceAddRmsNormWritesYIntoResidual) { addRmsNorm(true, ACL_FLOAT16); }

// The int8 form (fp32 dequant scales with per-token scales): each rank's product (x1 @ x2 + bias) *
// dequantScale * pertokenScale rounded to fp16, + x3, summed over the ranks; the weight-quantised form: x1 @
// ((x2 + offset) * scale) + bias.
void quantAllReduce(bool weightQuant) {
  npusim::test::configure("");
  const uint32_t n = 2;
  Ranks k(n);
  const int64_t m = 4, kk = 64, nn = 16;
  const aclDataType h = ACL_FLOAT16;
  std::mt19937 g(9);
  auto ints = [&](size_t count) { return smallInts(g, count, 8); };
  std::vector<double> scale = randoms(g, nn, 0.01, 0.02);
  for (double& v : scale) v = static_cast<float>(v);
  Tensors x1, x2, bias, deq, tok, x3, out, aScale, aOffset;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, weightQuant ? h : ACL_INT8, std::vector<int64_t>{m, kk},
                                              weightQuant ? randoms(g, m * kk) : ints(m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, ACL_INT8, std::vector<int64_t>{kk, nn}, ints(kk * nn)));
    bias.push_back(std::make_unique<RankTensor>(k, r, weightQuant ? h : ACL_INT32, std::vector<int64_t>{nn},
                                                weightQuant ? randoms(g, nn) : ints(nn)));
    deq.push_back(std::make_unique<RankTensor>(k, r, ACL_FLOAT, std::vector<int64_t>{nn}, scale));
    tok.push_back(
        std::make_unique<RankTensor>(k, r, ACL_FLOAT, std::vector<int64_t>{m}, randoms(g, m, 0.5, 2)));
    aScale.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{nn}, scale));
    aOffset.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{nn}, ints(nn)));
    x3.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, nn}, randoms(g, m * nn)));
    out.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, nn}, zeros(m * nn)));
  }
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (weightQuant) {
      ASSERT_EQ(aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(x1[r]->t, x2[r]->t, bias[r]->t, aScale[r]->t,
                                                                aOffset[r]->t, x3[r]->t, group.c_str(), "sum",
                                                                0, 1, 0, out[r]->t, &ws, &ex),
                0);
      ASSERT_EQ(aclnnWeightQuantMatmulAllReduce(k.alloc(r, ws), ws, ex, k.streams[r]), 0);
    } else {
      ASSERT_EQ(aclnnQuantMatmulAllReduceV2GetWorkspaceSize(x1[r]->t, x2[r]->t, bias[r]->t, x3[r]->t,
                                                            deq[r]->t, tok[r]->t, group.c_str(), "sum", 0, 1,
                                                            out[r]->t, &ws, &ex),
                0)
          << aclGetRecentErrMsg();
      ASSERT_EQ(aclnnQuantMatmulAllReduceV2(k.alloc(r, ws), ws, ex, k.streams[r]), 0);
    }
  }
  k.syncAll();
  std::vector<double> want(static_cast<size_t>(m * nn), 0.0), mag(want.size(), 0.0);
  for (uint32_t r = 0; r < n; ++r) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < nn; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < kk; ++p) {
          const double w = x2[r]->values[p * nn + j];
          acc += x1[r]->values[i * kk + p] *
                 (weightQuant ? roundTo(h, roundTo(h, w + aOffset[r]->values[j]) * scale[j]) : w);
        }
        const double v = weightQuant ? acc + bias[r]->values[j]
                                     : (acc + bias[r]->values[j]) * scale[j] * tok[r]->values[i];
        const double term = roundTo(h, roundTo(h, v) + x3[r]->values[i * nn + j]);
        want[i * nn + j] += term;
        mag[i * nn + j] += std::fabs(term);
      }
  }
  for (uint32_t r = 0; r < n; ++r) expectNear(out[r]->read(k, r), want, mag, h, "rank " + std::to_string(r));
  k.destroy();
}

TEST(Mc2, QuantMatmulAllReduceV2DequantisesEachRanksInt8Product) { quantAllReduce(false); }
TEST(Mc2, WeightQuantMatmulAllReduceDequantisesTheWeight) { quantAllReduce(true); }

// V3's int8 communication on 4 ranks: each rank's fp16 result quantised by commQuantScale1,
// AlltoAll'd, summed per rows block and requantised by scale1 / scale2, AllGather'd and
// dequantised by commQuantScale2 (the document's case 3, with the kernels' rounding points:
// fp16 then int8, ties to even, saturated).
TEST(Mc2, QuantMatmulAllReduceV3ReducesThroughInt8Communication) {
  npusim::test::configure("");
  const uint32_t n = 4;
  Ranks k(n);
  const int64_t m = 8, kk = 64, nn = 16;
  const aclDataType h = ACL_FLOAT16;
  std::mt19937 g(21);
  auto ints = [&](size_t count) { return smallInts(g, count, 4); };
  const std::vector<double> deq(nn, 0.001953125), s1v = randoms(g, nn, 0.01, 0.02),
                                                  s2v = randoms(g, nn, 0.01, 0.02);
  Tensors x1, x2, dq, s1, s2, out;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, ACL_INT8, std::vector<int64_t>{m, kk}, ints(m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, ACL_INT8, std::vector<int64_t>{kk, nn}, ints(kk * nn)));
    dq.push_back(std::make_unique<RankTensor>(k, r, ACL_FLOAT, std::vector<int64_t>{nn}, deq));
    s1.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{nn}, s1v));
    s2.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{nn}, s2v));
    out.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, nn}, zeros(m * nn)));
  }
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnQuantMatmulAllReduceV3GetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr, nullptr, dq[r]->t,
                                                          nullptr, s1[r]->t, s2[r]->t, group.c_str(), "sum",
                                                          0, 1, out[r]->t, &ws, &ex),
              0)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclnnQuantMatmulAllReduceV3(k.alloc(r, ws), ws, ex, k.streams[r]), 0);
  }
  k.syncAll();
  auto toInt8 = [](double v) { return std::clamp(std::nearbyint(roundTo(ACL_FLOAT16, v)), -128.0, 127.0); };
  std::vector<double> want(static_cast<size_t>(m * nn)), sum(want.size(), 0.0);
  for (uint32_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < nn; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < kk; ++p) acc += x1[r]->values[i * kk + p] * x2[r]->values[p * nn + j];
        const double term = roundTo(h, acc * deq[j]);
        sum[i * nn + j] += toInt8(term / s1[0]->values[j]);
      }
  for (size_t e = 0; e < want.size(); ++e) {
    const size_t j = e % nn;
    const float ratio = static_cast<float>(s1[0]->values[j]) / static_cast<float>(s2[0]->values[j]);
    want[e] = roundTo(h, toInt8(static_cast<float>(sum[e]) * ratio) * s2[0]->values[j]);
  }
  int nonZero = 0;
  for (double v : want) nonZero += v != 0;
  EXPECT_GT(nonZero, static_cast<int>(want.size() / 2));  // the data is not all rounded away
  for (uint32_t r = 0; r < n; ++r) {
    const std::vector<double> got = out[r]->read(k, r);
    for (size_t e = 0; e < want.size(); ++e)
      ASSERT_NEAR(got[e], want[e], 1e-6) << "rank " << r << " element " << e;
  }
  k.destroy();
}

TEST(Mc2, BadArgumentsGetTheDocumentedCodes) {
  npusim::test::configure("");
  Ranks k(2);
  const std::string group = useRank(k, 0);
  const char* name = group.c_str();
  const aclDataType h = ACL_FLOAT16;
  RankTensor x1(k, 0, h, {4, 256}, zeros(4 * 256)), x2(k, 0, h, {256, 8}, zeros(256 * 8)),
      out(k, 0, h, {4, 8}, zeros(32)), half(k, 0, h, {2, 8}, zeros(16)), bad(k, 0, h, {4, 9}, zeros(36)),
      f32(k, 0, ACL_FLOAT, {4, 8}, zeros(32)), x1Odd(k, 0, h, {3, 256}, zeros(3 * 256)),
      x1SmallK(k, 0, h, {4, 16}, zeros(64)), x2SmallK(k, 0, h, {16, 8}, zeros(128));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto allReduce = [&](const aclTensor* a, const aclTensor* o, const char* group, const char* op,
                       int64_t mode) {
    return aclnnMatmulAllReduceGetWorkspaceSize(a, x2.t, nullptr, group, op, 0, mode, o, &ws, &ex);
  };
  EXPECT_EQ(allReduce(nullptr, out.t, name, "sum", 1), 161001);
  EXPECT_EQ(allReduce(x1.t, nullptr, name, "sum", 1), 161001);
  EXPECT_EQ(allReduce(x1.t, out.t, nullptr, "sum", 1), 161001);
  EXPECT_EQ(allReduce(x1.t, out.t, "no_such_group", "sum", 1), 161002);
  EXPECT_EQ(allReduce(x1.t, out.t, name, "max", 1), 161002);
  EXPECT_EQ(allReduce(x1.t, out.t, name, "sum", 0), 161002);
  EXPECT_EQ(allReduce(x1.t, bad.t, name, "sum", 1), 161002);
  EXPECT_EQ(allReduce(x1.t, f32.t, name, "sum", 1), 161002);
  EXPECT_EQ(aclnnMatmulAllReduceGetWorkspaceSize(x1.t, x2.t, nullptr, name, "sum", 1, 1, out.t, &ws, &ex),
            161002);
  // The int8 forms: x1 and x2 int8, dequantScale required; V3's two scales together or not at all.
  RankTensor q1(k, 0, ACL_INT8, {4, 256}, zeros(4 * 256)), q2(k, 0, ACL_INT8, {256, 8}, zeros(256 * 8)),
      deq(k, 0, ACL_FLOAT, {8}, zeros(8)), cq(k, 0, h, {8}, zeros(8));
  EXPECT_EQ(aclnnQuantMatmulAllReduceV2GetWorkspaceSize(q1.t, q2.t, nullptr, nullptr, nullptr, nullptr, name,
                                                        "sum", 0, 1, out.t, &ws, &ex),
            161001);
  EXPECT_EQ(aclnnQuantMatmulAllReduceV2GetWorkspaceSize(x1.t, x2.t, nullptr, nullptr, deq.t, nullptr, name,
                                                        "sum", 0, 1, out.t, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnQuantMatmulAllReduceV3GetWorkspaceSize(q1.t, q2.t, nullptr, nullptr, deq.t, nullptr, cq.t,
                                                        nullptr, name, "sum", 0, 1, out.t, &ws, &ex),
            161002);
  // Reduce-scatter: m a multiple of the ranks, output (m / n, n), k in [256, 65535).
  EXPECT_EQ(
      aclnnMatmulReduceScatterGetWorkspaceSize(x1Odd.t, x2.t, nullptr, name, "sum", 0, 1, half.t, &ws, &ex),
      161002);
  EXPECT_EQ(aclnnMatmulReduceScatterGetWorkspaceSize(x1.t, x2.t, nullptr, name, "sum", 0, 1, out.t, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMatmulReduceScatterGetWorkspaceSize(x1SmallK.t, x2SmallK.t, nullptr, name, "sum", 0, 1,
                                                     half.t, &ws, &ex),
            161002);
  EXPECT_EQ(
      aclnnMatmulReduceScatterGetWorkspaceSize(x1.t, x2.t, nullptr, name, "sum", 0, 1, half.t, &ws, &ex), 0);
  aclDestroyAclOpExecutor(ex);
  // All-gather: output (m * n, n); gatherIndex 0 only.
  EXPECT_EQ(
      aclnnAllGatherMatmulGetWorkspaceSize(x1.t, x2.t, nullptr, name, 0, 0, 1, out.t, nullptr, &ws, &ex),
      161002);
  RankTensor outAll(k, 0, h, {8, 8}, zeros(64));
  EXPECT_EQ(
      aclnnAllGatherMatmulGetWorkspaceSize(x1.t, x2.t, nullptr, name, 1, 0, 1, outAll.t, nullptr, &ws, &ex),
      161002);
  EXPECT_EQ(aclnnAllGatherMatmulGetWorkspaceSize(nullptr, x2.t, nullptr, name, 0, 0, 1, outAll.t, nullptr,
                                                 &ws, &ex),
            161001);
  // Add + RmsNorm: residual 3-D, epsilon in (0, 1).
  RankTensor res(k, 0, h, {2, 2, 8}, zeros(32)), gam(k, 0, h, {8}, zeros(8)),
      y(k, 0, h, {2, 2, 8}, zeros(32)), no(k, 0, h, {2, 2, 8}, zeros(32));
  EXPECT_EQ(aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(x1.t, x2.t, nullptr, res.t, nullptr, 1e-6, name,
                                                           "sum", 0, 1, y.t, no.t, &ws, &ex),
            161001);
  EXPECT_EQ(aclnnMatmulAllReduceAddRmsNormGetWorkspaceSize(x1.t, x2.t, nullptr, out.t, gam.t, 1e-6, name,
                                                           "sum", 0, 1, y.t, no.t, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnInplaceMatmulAllReduceAddRmsNormGetWorkspaceSize(x1.t, x2.t, nullptr, res.t, gam.t, 0.0,
                                                                  name, "sum", 0, 1, no.t, &ws, &ex),
            161002);
  k.destroy();
}

// A repeatable executor runs again on tensors moved with aclSet*TensorAddr: new x1, new output.
TEST(Mc2, RepeatableExecutorFollowsMovedTensors) {
  npusim::test::configure("");
  const uint32_t n = 2;
  Ranks k(n);
  const int64_t m = 4, kk = 16, nn = 8;
  const aclDataType h = ACL_FLOAT16;
  std::mt19937 g(13);
  Tensors x1, x1b, x2, out, outB;
  for (uint32_t r = 0; r < n; ++r) {
    x1.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, kk}, randoms(g, m * kk)));
    x1b.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, kk}, randoms(g, m * kk)));
    x2.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{kk, nn}, randoms(g, kk * nn)));
    out.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, nn}, zeros(m * nn)));
    outB.push_back(std::make_unique<RankTensor>(k, r, h, std::vector<int64_t>{m, nn}, zeros(m * nn)));
  }
  std::vector<aclOpExecutor*> ex(n);
  std::vector<uint64_t> ws(n);
  std::vector<void*> w(n);
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    ASSERT_EQ(aclnnMatmulAllReduceGetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr, group.c_str(), "sum", 0, 1,
                                                   out[r]->t, &ws[r], &ex[r]),
              0);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex[r]), 0);
    w[r] = k.alloc(r, ws[r]);
  }
  auto runAll = [&] {
    for (uint32_t r = 0; r < n; ++r) {
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      ASSERT_EQ(aclnnMatmulAllReduce(w[r], ws[r], ex[r], k.streams[r]), 0);
    }
    k.syncAll();
  };
  runAll();
  for (uint32_t r = 0; r < n; ++r) {
    ASSERT_EQ(aclSetInputTensorAddr(ex[r], 0, x1[r]->t, x1b[r]->dev), 0);
    ASSERT_EQ(aclSetOutputTensorAddr(ex[r], 0, out[r]->t, outB[r]->dev), 0);
  }
  runAll();
  auto sumOf = [&](const Tensors& a) {
    std::vector<double> want(static_cast<size_t>(m * nn), 0.0), mag(want.size(), 0.0);
    for (uint32_t r = 0; r < n; ++r) {
      const std::vector<double> p = product(a[r]->values, x2[r]->values, nullptr, m, kk, nn, h);
      for (size_t i = 0; i < p.size(); ++i) want[i] += p[i], mag[i] += std::fabs(p[i]);
    }
    return std::make_pair(want, mag);
  };
  const auto [first, firstMag] = sumOf(x1);
  const auto [second, secondMag] = sumOf(x1b);
  for (uint32_t r = 0; r < n; ++r) {
    expectNear(out[r]->read(k, r), first, firstMag, h, "first launch, rank " + std::to_string(r));
    expectNear(outB[r]->read(k, r), second, secondMag, h, "second launch, rank " + std::to_string(r));
  }
  for (uint32_t r = 0; r < n; ++r) {
    aclDestroyAclOpExecutor(ex[r]);
    aclrtFree(w[r]);
  }
  k.destroy();
}

// Phase 2 resolves the group again and passes HCCL's refusals on: a stream of another device
// than the rank's, a communicator destroyed since phase 1.
TEST(Mc2, PhaseTwoRefusesAForeignStreamAndAGoneCommunicator) {
  npusim::test::configure("");
  Ranks k(2);
  const aclDataType h = ACL_FLOAT16;
  RankTensor x1(k, 0, h, {4, 16}, zeros(64)), x2(k, 0, h, {16, 8}, zeros(128)),
      out(k, 0, h, {4, 8}, zeros(32));
  const std::string group = useRank(k, 0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(
      aclnnMatmulAllReduceGetWorkspaceSize(x1.t, x2.t, nullptr, group.c_str(), "sum", 0, 1, out.t, &ws, &ex),
      0);
  void* w = k.alloc(0, ws);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclnnMatmulAllReduce(w, ws, ex, k.streams[1]), 361001);  // rank 0's buffers, device 1's stream
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("HcclAllReduce"), std::string::npos)
      << aclGetRecentErrMsg();
  ASSERT_EQ(
      aclnnMatmulAllReduceGetWorkspaceSize(x1.t, x2.t, nullptr, group.c_str(), "sum", 0, 1, out.t, &ws, &ex),
      0);
  k.destroy();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclnnMatmulAllReduce(w, ws, ex, k.streams[0]), 161002);
  aclrtFree(w);
}

// The fused operator runs its matmul, then its collective: it lasts what the two take alone, and
// the AllReduce cannot beat the bytes each rank must send over its PCIe link.
TEST(Mc2, MatmulAllReduceLastsItsMatmulPlusItsAllReduce) {
  npusim::test::configure("sim.functional=false");
  const uint32_t n = 4;
  Ranks k(n);
  const int64_t m = 1024, kk = 1024, nn = 1024;
  const aclDataType dt = ACL_FLOAT16;
  std::vector<std::unique_ptr<aclnn_test::DeviceBuf>> x1, x2, out;
  std::vector<void*> ws(n, nullptr);
  for (uint32_t r = 0; r < n; ++r) {
    ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    x1.push_back(std::make_unique<aclnn_test::DeviceBuf>(dt, std::vector<int64_t>{m, kk}));
    x2.push_back(std::make_unique<aclnn_test::DeviceBuf>(dt, std::vector<int64_t>{kk, nn}));
    out.push_back(std::make_unique<aclnn_test::DeviceBuf>(dt, std::vector<int64_t>{m, nn}));
  }
  // Simulated ms of `launch(r)` on every rank (all launched before any is waited for): the slowest.
  auto timed = [&](const std::function<int(uint32_t)>& launch, uint32_t ranks) {
    std::vector<aclrtEvent> a(ranks), b(ranks);
    for (uint32_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      EXPECT_EQ(aclrtCreateEvent(&a[r]), ACL_SUCCESS);
      EXPECT_EQ(aclrtCreateEvent(&b[r]), ACL_SUCCESS);
      EXPECT_EQ(aclrtRecordEvent(a[r], k.streams[r]), ACL_SUCCESS);
      EXPECT_EQ(launch(r), 0) << "rank " << r;
      EXPECT_EQ(aclrtRecordEvent(b[r], k.streams[r]), ACL_SUCCESS);
    }
    float worst = 0;
    for (uint32_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(k.streams[r]), ACL_SUCCESS);
      float ms = 0;
      EXPECT_EQ(aclrtEventElapsedTime(&ms, a[r], b[r]), ACL_SUCCESS);
      worst = std::max(worst, ms);
    }
    return worst;
  };
  // Phase 1 first, so that the timed part is the launches (one host thread calls every rank).
  std::vector<aclOpExecutor*> mmEx(n), fusedEx(n);
  std::vector<uint64_t> fusedWs(n);
  for (uint32_t r = 0; r < n; ++r) {
    const std::string group = useRank(k, r);
    uint64_t size = 0;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(x1[r]->t, x2[r]->t, out[r]->t, 0, &size, &mmEx[r]), 0);
    ASSERT_EQ(aclnnMatmulAllReduceGetWorkspaceSize(x1[r]->t, x2[r]->t, nullptr, group.c_str(), "sum", 0, 1,
                                                   out[r]->t, &fusedWs[r], &fusedEx[r]),
              0);
    ASSERT_EQ(aclrtMalloc(&ws[r], fusedWs[r], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  const float mm = timed([&](uint32_t r) { return aclnnMm(nullptr, 0, mmEx[r], k.streams[r]); }, 1);
  for (uint32_t r = 1; r < n; ++r) aclDestroyAclOpExecutor(mmEx[r]);
  const float ar = timed(
      [&](uint32_t r) {
        return static_cast<int>(HcclAllReduce(ws[r], out[r]->dev, static_cast<uint64_t>(m * nn),
                                              HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, k.comms[r],
                                              k.streams[r]));
      },
      n);
  const float fused =
      timed([&](uint32_t r) { return aclnnMatmulAllReduce(ws[r], fusedWs[r], fusedEx[r], k.streams[r]); }, n);
  // Ring AllReduce: each rank sends 2 (n - 1) / n of the buffer over its x16 Gen4 link
  // (16 GT/s x 16 lanes x 128/130 = 31.5 GB/s at most, before any protocol overhead).
  const double bytes = static_cast<double>(m * nn * 2);
  const double linkMs = 2.0 * (n - 1) / n * bytes / 31.5e9 * 1e3;
  std::printf("mm %.4f ms, AllReduce %.4f ms (link bound %.4f ms), MatmulAllReduce %.4f ms\n", mm, ar, linkMs,
              fused);
  EXPECT_GT(ar, linkMs) << "AllReduce " << ar << " ms";
  EXPECT_GT(mm, 0.0f);
  // Serial steps: at least both, and no more than both plus a 5 % margin for the extra launch
  // and the ranks' arrival skew.
  EXPECT_GE(fused, 0.98 * (mm + ar)) << "mm " << mm << " ms, AllReduce " << ar << " ms, fused " << fused
                                     << " ms";
  EXPECT_LE(fused, 1.05 * (mm + ar)) << "mm " << mm << " ms, AllReduce " << ar << " ms, fused " << fused
                                     << " ms";
  for (uint32_t r = 0; r < n; ++r) aclrtFree(ws[r]);
  k.destroy();
}

}  // namespace
