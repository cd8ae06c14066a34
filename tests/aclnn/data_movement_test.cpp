// Data movement (issue 28): the pads and their gradients (pad_map.h), the layout maps
// (layout_maps.cpp), the diagonal maps (diagonal_maps.cpp) and the mask engine (where_op.h),
// each against its definition written out in the test, on strided views and several types;
// the error codes; the bytes charged.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_broadcast_v2.h"
#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad2d_backward.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_circular_pad3d_backward.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_masked_fill.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_pad2d_backward.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad1d_backward.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_reflection_pad3d_backward.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_repeat_interleave_grad.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad1d_backward.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "aclnnop/aclnn_replication_pad3d_backward.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_split.h"
#include "aclnnop/aclnn_stack.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

std::vector<int64_t> unflatten(int64_t f, const std::vector<int64_t>& shape) {
  std::vector<int64_t> p(shape.size());
  for (size_t a = shape.size(); a-- > 0;) {
    p[a] = f % shape[a];
    f /= shape[a];
  }
  return p;
}

int64_t flat(const std::vector<int64_t>& p, const std::vector<int64_t>& shape) {
  int64_t f = 0;
  for (size_t a = 0; a < shape.size(); ++a) f = f * shape[a] + p[a];
  return f;
}

// Where output coordinate o of a dimension of size n padded by `lo` reads, per PyTorch's
// definitions (written as periodic folds, not as the library's loop): -1 is the constant.
int64_t padRead(const std::string& mode, int64_t o, int64_t lo, int64_t n) {
  const int64_t i = o - lo;
  if (mode == "constant") return i >= 0 && i < n ? i : -1;
  if (mode == "replicate") return std::clamp<int64_t>(i, 0, n - 1);
  if (mode == "circular") return ((i % n) + n) % n;
  const int64_t period = 2 * (n - 1), k = ((i % period) + period) % period;  // reflect
  return k < n ? k : period - k;
}

aclIntArray* ints(const std::vector<int64_t>& v) { return aclCreateIntArray(v.data(), v.size()); }

using Phase1 = std::function<int(uint64_t*, aclOpExecutor**)>;

// Expected pad of x (row-major values, shape s) by `padding` (last dim first).
std::vector<double> padDefinition(const std::string& mode, const std::vector<double>& x,
                                  const std::vector<int64_t>& s, const std::vector<int64_t>& padding,
                                  double value, std::vector<int64_t>* outShape) {
  std::vector<int64_t> lo(s.size(), 0);
  *outShape = s;
  for (size_t j = 0; j < padding.size() / 2; ++j) {
    const size_t d = s.size() - 1 - j;
    lo[d] = padding[2 * j];
    (*outShape)[d] += padding[2 * j] + padding[2 * j + 1];
  }
  int64_t n = 1;
  for (int64_t e : *outShape) n *= e;
  std::vector<double> y(static_cast<size_t>(n));
  for (int64_t f = 0; f < n; ++f) {
    std::vector<int64_t> p = unflatten(f, *outShape);
    bool inside = true;
    for (size_t a = 0; a < s.size(); ++a) {
      p[a] = padRead(mode, p[a], lo[a], s[a]);
      inside = inside && p[a] >= 0;
    }
    y[static_cast<size_t>(f)] = inside ? x[static_cast<size_t>(flat(p, s))] : value;
  }
  return y;
}

}  // namespace

// Every forward pad against the definition, on a transposed view, in several types.
TEST(DataMovement, PadsMatchDefinition) {
  std::mt19937 g(28);
  struct Case {
    std::string mode;
    int dims;
    std::function<int(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**)> fn;
  };
  const std::vector<Case> cases = {
      {"reflect", 1, aclnnReflectionPad1dGetWorkspaceSize},
      {"reflect", 2, aclnnReflectionPad2dGetWorkspaceSize},
      {"reflect", 3, aclnnReflectionPad3dGetWorkspaceSize},
      {"replicate", 1, aclnnReplicationPad1dGetWorkspaceSize},
      {"replicate", 2, aclnnReplicationPad2dGetWorkspaceSize},
      {"replicate", 3, aclnnReplicationPad3dGetWorkspaceSize},
      {"circular", 2, aclnnCircularPad2dGetWorkspaceSize},
      {"circular", 3, aclnnCircularPad3dGetWorkspaceSize},
  };
  for (const Case& c : cases) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      // self [2, 3, 4, 5] cut to rank dims+1 or dims+2; its last two dims transposed in memory.
      std::vector<int64_t> s = c.dims == 3 ? std::vector<int64_t>{2, 3, 4, 5} : std::vector<int64_t>{2, 4, 5};
      if (c.dims == 1) s = {3, 6};
      const size_t r = s.size();
      std::vector<int64_t> stored = s;
      std::swap(stored[r - 1], stored[r - 2]);
      std::vector<int64_t> st = denseStrides(stored);
      std::swap(st[r - 1], st[r - 2]);
      HostTensorBuf x(dt, s, st, 0);
      x.fillRandom(g, -9, 9);
      std::vector<double> xv(static_cast<size_t>(x.numel()));
      for (int64_t i = 0; i < x.numel(); ++i) xv[static_cast<size_t>(i)] = x.get(i);
      std::vector<int64_t> padding;
      for (int j = 0; j < c.dims; ++j) {
        const int64_t n = s[s.size() - 1 - static_cast<size_t>(j)];
        padding.push_back(std::min<int64_t>(n - 1, 2 + j));
        padding.push_back(std::min<int64_t>(n - 1, 1));
      }
      std::vector<int64_t> os;
      const std::vector<double> want = padDefinition(c.mode, xv, s, padding, 0, &os);
      HostTensorBuf y(dt, os);
      aclIntArray* pad = ints(padding);
      const std::string what = c.mode + std::to_string(c.dims) + "d dtype " + std::to_string(dt);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.fn(x.get(), pad, y.get(), ws, ex); }), 0)
          << what << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < y.numel(); ++i)
        EXPECT_EQ(y.get(i), want[static_cast<size_t>(i)]) << what << " at " << i;
      aclDestroyIntArray(pad);
    }
  }
}

// ConstantPadNd: value, negative pads (cropping), pads of fewer dimensions than self.
TEST(DataMovement, ConstantPadNd) {
  std::mt19937 g(3);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_BOOL}) {
    for (const std::vector<int64_t>& padding :
         std::vector<std::vector<int64_t>>{{1, 2}, {0, 1, 2, 0}, {-1, 2, 1, -1, 1, 1}, {}}) {
      const std::vector<int64_t> s{2, 3, 4};
      HostTensorBuf x(dt, s);
      x.fillRandom(g, dt == ACL_BOOL ? 0 : -5, dt == ACL_BOOL ? 2 : 5);
      std::vector<double> xv;
      for (int64_t i = 0; i < x.numel(); ++i) xv.push_back(x.get(i));
      const double value = dt == ACL_BOOL ? 1 : 3;
      std::vector<int64_t> os;
      const std::vector<double> want = padDefinition("constant", xv, s, padding, value, &os);
      HostTensorBuf y(dt, os);
      aclIntArray* pad = ints(padding);
      aclScalar* v = makeScalar(ACL_FLOAT, value);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnConstantPadNdGetWorkspaceSize(x.get(), pad, v, y.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t i = 0; i < y.numel(); ++i)
        EXPECT_EQ(y.get(i), want[static_cast<size_t>(i)]) << "dtype " << dt << " at " << i;
      aclDestroyIntArray(pad);
      aclDestroyScalar(v);
    }
  }
}

// A pad's gradient is its adjoint: <gradOutput, pad(x)> = <backward(gradOutput), x> for every
// x and gradOutput. Checked on random fp64 values, then fp32/fp16/bf16 against fp64.
TEST(DataMovement, PadGradientsAreAdjoints) {
  std::mt19937 g(5);
  using Fwd =
      std::function<int(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**)>;
  using Bwd = std::function<int(const aclTensor*, const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*,
                                aclOpExecutor**)>;
  struct Case {
    int dims;
    Fwd fwd;
    Bwd bwd;
  };
  const std::vector<Case> cases = {
      {1, aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad1dBackwardGetWorkspaceSize},
      {2, aclnnReflectionPad2dGetWorkspaceSize, aclnnReflectionPad2dBackwardGetWorkspaceSize},
      {3, aclnnReflectionPad3dGetWorkspaceSize, aclnnReflectionPad3dBackwardGetWorkspaceSize},
      {1, aclnnReplicationPad1dGetWorkspaceSize, aclnnReplicationPad1dBackwardGetWorkspaceSize},
      {2, aclnnReplicationPad2dGetWorkspaceSize, aclnnReplicationPad2dBackwardGetWorkspaceSize},
      {3, aclnnReplicationPad3dGetWorkspaceSize, aclnnReplicationPad3dBackwardGetWorkspaceSize},
      {2, aclnnCircularPad2dGetWorkspaceSize, aclnnCircularPad2dBackwardGetWorkspaceSize},
      {3, aclnnCircularPad3dGetWorkspaceSize, aclnnCircularPad3dBackwardGetWorkspaceSize},
  };
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const std::vector<int64_t> s =
        c.dims == 1 ? std::vector<int64_t>{2, 5} : std::vector<int64_t>{2, 4, 5, 6};
    std::vector<int64_t> padding, os = s;
    for (int j = 0; j < c.dims; ++j) {
      padding.push_back(3 - j);
      padding.push_back(1 + j);
      os[s.size() - 1 - static_cast<size_t>(j)] += 4;
    }
    aclIntArray* pad = ints(padding);
    // Small integers in fp32 (the circular pads take no fp64): every sum below is exact.
    HostTensorBuf x(ACL_FLOAT, s), y(ACL_FLOAT, os), go(ACL_FLOAT, os), gi(ACL_FLOAT, s);
    for (int64_t i = 0; i < x.numel(); ++i) x.set(i, static_cast<double>(g() % 17) - 8);
    for (int64_t i = 0; i < go.numel(); ++i) go.set(i, static_cast<double>(g() % 17) - 8);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.fwd(x.get(), pad, y.get(), ws, ex); }), 0)
        << k << aclGetRecentErrMsg();
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return c.bwd(go.get(), x.get(), pad, gi.get(), ws, ex);
              }),
              0)
        << k << aclGetRecentErrMsg();
    double lhs = 0, rhs = 0;
    for (int64_t i = 0; i < y.numel(); ++i) lhs += go.get(i) * y.get(i);
    for (int64_t i = 0; i < x.numel(); ++i) rhs += gi.get(i) * x.get(i);
    EXPECT_EQ(lhs, rhs) << "case " << k;
    // fp16/bf16 gradients: the fp32 sums rounded once to the type.
    for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
      HostTensorBuf gol(dt, os), xl(dt, s), gil(dt, s);
      for (int64_t i = 0; i < go.numel(); ++i) gol.set(i, go.get(i) / 8);
      HostTensorBuf gof(ACL_FLOAT, os), gif(ACL_FLOAT, s);
      for (int64_t i = 0; i < go.numel(); ++i) gof.set(i, gol.get(i));
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return c.bwd(gol.get(), xl.get(), pad, gil.get(), ws, ex);
                }),
                0);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return c.bwd(gof.get(), x.get(), pad, gif.get(), ws, ex);
                }),
                0);
      for (int64_t i = 0; i < gil.numel(); ++i)
        EXPECT_EQ(gil.get(i), roundTo(dt, gif.get(i))) << "case " << k;
    }
    aclDestroyIntArray(pad);
  }
}

TEST(DataMovement, PadErrorsAndCost) {
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), y(ACL_FLOAT, {2, 5, 6}), h(ACL_FLOAT16, {2, 5, 6}),
      v(ACL_FLOAT, {4});
  aclIntArray* pad = ints({1, 1, 1, 1});
  aclIntArray* big = ints({4, 0, 0, 0});
  aclIntArray* three = ints({1, 1, 1});
  auto refl = [&](const aclTensor* s, const aclIntArray* p, aclTensor* o) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnReflectionPad2dGetWorkspaceSize(s, p, o, ws, ex);
    });
  };
  EXPECT_EQ(refl(nullptr, pad, y.get()), kParamNull);
  EXPECT_EQ(refl(x.get(), nullptr, y.get()), kParamNull);
  EXPECT_EQ(refl(x.get(), pad, nullptr), kParamNull);
  EXPECT_EQ(refl(x.get(), pad, h.get()), kParamInvalid);  // out of another type
  EXPECT_EQ(refl(x.get(), big, y.get()), kParamInvalid);  // pad not below the size
  EXPECT_EQ(refl(x.get(), three, y.get()), kParamInvalid);
  EXPECT_EQ(refl(v.get(), pad, y.get()), kParamInvalid);  // rank 1
  EXPECT_EQ(refl(x.get(), pad, x.get()), kParamInvalid);  // wrong out shape
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnConstantPadNdGetWorkspaceSize(x.get(), pad, nullptr, y.get(), ws, ex);
            }),
            kParamNull);
  // Cost: self read once (96 bytes), out written once (240 bytes).
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReflectionPad2dGetWorkspaceSize(x.get(), pad, y.get(), &ws, &ex), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 96u);
  EXPECT_EQ(ch.written, 240u);
  // Empty batch: nothing to do, success.
  HostTensorBuf e(ACL_FLOAT, {0, 3, 4}), eo(ACL_FLOAT, {0, 5, 6});
  EXPECT_EQ(refl(e.get(), pad, eo.get()), 0);
  for (aclIntArray* a : {pad, big, three}) aclDestroyIntArray(a);
}

// Repeat, Expand, Roll, Flip against index definitions, fp16 and int8 on a transposed view.
TEST(DataMovement, LayoutMapsMatchDefinition) {
  std::mt19937 g(9);
  for (aclDataType dt : {ACL_FLOAT16, ACL_INT8, ACL_BF16}) {
    HostTensorBuf x(dt, {3, 4}, {1, 3}, 0);  // transposed
    x.fillRandom(g, -9, 9);
    const std::string what = "dtype " + std::to_string(dt);
    {  // Repeat [2, 1, 2]: out [2, 3, 8], out[a, i, j] = x[i, j mod 4]
      HostTensorBuf y(dt, {2, 3, 8});
      aclIntArray* rep = ints({2, 1, 2});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnRepeatGetWorkspaceSize(x.get(), rep, y.get(), ws, ex);
                }),
                0);
      for (int64_t f = 0; f < y.numel(); ++f) {
        const auto p = unflatten(f, {2, 3, 8});
        EXPECT_EQ(y.get(f), x.get(p[1] * 4 + p[2] % 4)) << what << " repeat at " << f;
      }
      aclDestroyIntArray(rep);
    }
    {  // Expand a [3, 1] column to [2, 3, 5] (-1 keeps the 3)
      HostTensorBuf col(dt, {3, 1}), y(dt, {2, 3, 5});
      col.fillRandom(g, -9, 9);
      aclIntArray* size = ints({2, -1, 5});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnExpandGetWorkspaceSize(col.get(), size, y.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t f = 0; f < y.numel(); ++f)
        EXPECT_EQ(y.get(f), col.get(unflatten(f, {2, 3, 5})[1])) << what;
      aclDestroyIntArray(size);
    }
    {  // Roll by (1, -1) along (0, 1), and by 5 over the flattened tensor
      HostTensorBuf y(dt, {3, 4}), z(dt, {3, 4});
      aclIntArray *sh = ints({1, -1}), *dims = ints({0, 1}), *sh5 = ints({5}), *none = ints({});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnRollGetWorkspaceSize(x.get(), sh, dims, y.get(), ws, ex);
                }),
                0);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnRollGetWorkspaceSize(x.get(), sh5, none, z.get(), ws, ex);
                }),
                0);
      for (int64_t i = 0; i < 3; ++i) {
        for (int64_t j = 0; j < 4; ++j) {
          EXPECT_EQ(y.get(i * 4 + j), x.get(((i + 2) % 3) * 4 + (j + 1) % 4)) << what;
          EXPECT_EQ(z.get(i * 4 + j), x.get((i * 4 + j + 7) % 12)) << what;
        }
      }
      for (aclIntArray* a : {sh, dims, sh5, none}) aclDestroyIntArray(a);
    }
    {  // Flip dims (-1)
      HostTensorBuf y(dt, {3, 4});
      aclIntArray* dims = ints({-1});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnFlipGetWorkspaceSize(x.get(), dims, y.get(), ws, ex);
                }),
                0);
      for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(y.get(i), x.get(i / 4 * 4 + 3 - i % 4)) << what;
      aclDestroyIntArray(dims);
    }
  }
}

// Stack, Flatten, SliceV2, ChunkCat on the public examples' shapes and more.
TEST(DataMovement, JoinsAndSlices) {
  std::mt19937 g(11);
  HostTensorBuf a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {2, 3}), c(ACL_FLOAT, {1, 3});
  a.fillRandom(g, -4, 4);
  b.fillRandom(g, -4, 4);
  c.fillRandom(g, -4, 4);
  {  // Stack along dim 1: out [2, 2, 3], out[i, k, j] = tensor k [i, j]
    HostTensorBuf y(ACL_FLOAT, {2, 2, 3});
    aclTensor* items[] = {listHandle(a), listHandle(b)};
    aclTensorList* list = aclCreateTensorList(items, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnStackGetWorkspaceSize(list, 1, y.get(), ws, ex);
              }),
              0);
    for (int64_t f = 0; f < 12; ++f) {
      const auto p = unflatten(f, {2, 2, 3});
      EXPECT_EQ(y.get(f), (p[1] == 0 ? a : b).get(p[0] * 3 + p[2]));
    }
    aclDestroyTensorList(list);
  }
  {  // ChunkCat of [2,3] and [1,3] along 0 in 2 chunks: out [2, 6]; the second chunk of c is zeros
    HostTensorBuf y(ACL_FLOAT, {2, 6});
    aclTensor* items[] = {listHandle(a), listHandle(c)};
    aclTensorList* list = aclCreateTensorList(items, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnChunkCatGetWorkspaceSize(list, 0, 2, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t j = 0; j < 3; ++j) {
      EXPECT_EQ(y.get(j), a.get(j));
      EXPECT_EQ(y.get(3 + j), c.get(j));
      EXPECT_EQ(y.get(6 + j), a.get(3 + j));
      EXPECT_EQ(y.get(9 + j), 0.0);
    }
    aclDestroyTensorList(list);
  }
  {  // Flatten [2, 3, 4] at axis 2 -> [6, 4]; axis 0 -> [1, 24]
    HostTensorBuf x(ACL_INT32, {2, 3, 4}, {1, 8, 2}, 0), y(ACL_INT32, {6, 4}), z(ACL_INT32, {1, 24});
    x.fillRandom(g, -50, 50);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFlattenGetWorkspaceSize(x.get(), 2, y.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFlattenGetWorkspaceSize(x.get(), 0, z.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 24; ++i) {
      EXPECT_EQ(y.get(i), x.get(i));
      EXPECT_EQ(z.get(i), x.get(i));
    }
  }
  {  // SliceV2: rows 1..end step 2 and columns -3..100 of a [5, 4]
    HostTensorBuf x(ACL_BF16, {5, 4}), y(ACL_BF16, {2, 3});
    x.fillRandom(g, -4, 4);
    aclIntArray *starts = ints({1, -3}), *ends = ints({5, 100}), *axes = ints({0, 1}), *steps = ints({2, 1});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSliceV2GetWorkspaceSize(x.get(), starts, ends, axes, steps, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(y.get(i * 3 + j), x.get((1 + 2 * i) * 4 + 1 + j));
    }
    for (aclIntArray* v : {starts, ends, axes, steps}) aclDestroyIntArray(v);
  }
}

TEST(DataMovement, Diagonals) {
  std::mt19937 g(13);
  HostTensorBuf v(ACL_FLOAT, {3}), m(ACL_FLOAT16, {3, 4});
  v.fillRandom(g, -4, 4);
  m.fillRandom(g, -4, 4);
  for (int64_t d : {-2, 0, 1}) {  // vector -> (3 + |d|)^2 matrix
    const int64_t n = 3 + std::abs(d);
    HostTensorBuf y(ACL_FLOAT, {n, n}), z(ACL_FLOAT, {n, n});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDiagGetWorkspaceSize(v.get(), d, y.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDiagFlatGetWorkspaceSize(v.get(), d, z.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double want = j - i == d ? v.get(std::min(i, j)) : 0.0;
        EXPECT_EQ(y.get(i * n + j), want) << "diag " << d;
        EXPECT_EQ(z.get(i * n + j), want) << "diagflat " << d;
      }
    }
  }
  for (int64_t d : {-1, 0, 2, 5}) {  // matrix -> its diagonal d
    int64_t len = 0;
    while (len < 3 && len + (d < 0 ? -d : 0) < 3 && len + std::max<int64_t>(d, 0) < 4) ++len;
    HostTensorBuf y(ACL_FLOAT16, {len});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDiagGetWorkspaceSize(m.get(), d, y.get(), ws, ex);
              }),
              0)
        << d << aclGetRecentErrMsg();
    for (int64_t k = 0; k < len; ++k) {
      const int64_t i = d < 0 ? k - d : k;
      EXPECT_EQ(y.get(k), m.get(i * 4 + i + d));
    }
  }
  {  // Eye 3 x 5 in bool and int32
    for (aclDataType dt : {ACL_BOOL, ACL_INT32, ACL_BF16}) {
      HostTensorBuf y(dt, {3, 5});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnEyeGetWorkspaceSize(3, 5, y.get(), ws, ex);
                }),
                0);
      for (int64_t i = 0; i < 15; ++i) EXPECT_EQ(y.get(i), i / 5 == i % 5 ? 1.0 : 0.0);
    }
    HostTensorBuf y(ACL_FLOAT, {3, 5});
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnEyeGetWorkspaceSize(5, 3, y.get(), ws, ex);
              }),
              kParamInvalid);
  }
  {  // FillDiagonal of a tall 7 x 3 matrix, with and without wrap; a 3 x 3 x 3 cube
    for (bool wrap : {false, true}) {
      HostTensorBuf x(ACL_FLOAT, {7, 3});
      for (int64_t i = 0; i < 21; ++i) x.set(i, static_cast<double>(i));
      aclScalar* f = makeScalar(ACL_FLOAT, -1);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnInplaceFillDiagonalGetWorkspaceSize(x.get(), f, wrap, ws, ex);
                }),
                0);
      for (int64_t i = 0; i < 7; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
          // Rows 0-2 hold the diagonal; with wrap it starts again after a gap row (rows 4-6).
          const bool diag = (i < 3 && i == j) || (wrap && i >= 4 && i - 4 == j);
          EXPECT_EQ(x.get(i * 3 + j), diag ? -1.0 : static_cast<double>(i * 3 + j))
              << wrap << " " << i << "," << j;
        }
      }
      aclDestroyScalar(f);
    }
    HostTensorBuf c(ACL_INT32, {3, 3, 3}), bad(ACL_INT32, {3, 3, 2});
    for (int64_t i = 0; i < 27; ++i) c.set(i, 5);
    aclScalar* f = makeScalar(ACL_INT32, 8);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillDiagonalGetWorkspaceSize(c.get(), f, false, ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 27; ++i) EXPECT_EQ(c.get(i), i % 13 == 0 ? 8.0 : 5.0);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceFillDiagonalGetWorkspaceSize(bad.get(), f, false, ws, ex);
              }),
              kParamInvalid);
    aclDestroyScalar(f);
  }
}

TEST(DataMovement, WhereAndMaskedFill) {
  std::mt19937 g(17);
  HostTensorBuf cond(ACL_BOOL, {2, 1, 4}), self(ACL_INT32, {3, 1}),
      other(ACL_FLOAT16, {2, 3, 4}, {1, 8, 2}, 0), out(ACL_FLOAT, {2, 3, 4});
  cond.fillRandom(g, 0, 2);
  self.fillRandom(g, -20, 20);
  other.fillRandom(g, -3, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSWhereGetWorkspaceSize(cond.get(), self.get(), other.get(), out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t f = 0; f < 24; ++f) {
    const std::vector<int64_t> s{2, 3, 4};
    const double want = cond.get(broadcastIndex(s, f, {2, 1, 4})) != 0
                            ? self.get(broadcastIndex(s, f, {3, 1}))
                            : other.get(f);
    EXPECT_EQ(out.get(f), want) << f;
  }
  HostTensorBuf i8(ACL_INT8, {2, 3, 4}), badCond(ACL_FLOAT, {2, 1, 4});
  EXPECT_EQ(
      run([&](uint64_t* ws, aclOpExecutor** ex) {  // int32 and fp16 promote to fp32: int8 cannot hold it
        return aclnnSWhereGetWorkspaceSize(cond.get(), self.get(), other.get(), i8.get(), ws, ex);
      }),
      kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSWhereGetWorkspaceSize(badCond.get(), self.get(), other.get(), out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSWhereGetWorkspaceSize(nullptr, self.get(), other.get(), out.get(), ws, ex);
            }),
            kParamNull);

  for (aclDataType dt : {ACL_FLOAT, ACL_BF16, ACL_INT64, ACL_BOOL}) {
    HostTensorBuf x(dt, {3, 4}), ref(dt, {3, 4}), mask(ACL_BOOL, {4}), value(dt, {});
    x.fillRandom(g, 0, 2);
    for (int64_t i = 0; i < 12; ++i) ref.set(i, x.get(i));
    mask.fillRandom(g, 0, 2);
    value.set(0, 1);
    aclScalar* s = makeScalar(ACL_FLOAT, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.get(), mask.get(), s, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceMaskedFillTensorGetWorkspaceSize(ref.get(), mask.get(), value.get(), ws,
                                                                    ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 12; ++i) {
      if (mask.get(i % 4) != 0) {
        EXPECT_EQ(x.get(i), 1.0);
      }
      EXPECT_EQ(x.get(i), ref.get(i));
    }
    aclDestroyScalar(s);
  }
  HostTensorBuf x(ACL_FLOAT, {3, 4}), wide(ACL_BOOL, {2, 3, 4});
  aclScalar* s = makeScalar(ACL_FLOAT, 1);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {  // mask broadcasts beyond selfRef
              return aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.get(), wide.get(), s, ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.get(), wide.get(), nullptr, ws, ex);
            }),
            kParamNull);
  aclDestroyScalar(s);
}

TEST(DataMovement, LayoutErrorsAndCost) {
  HostTensorBuf x(ACL_FLOAT, {3, 4}), y(ACL_FLOAT, {6, 4}), big(ACL_FLOAT, {2, 8, 3, 4});
  aclIntArray *rep = ints({2, 1}), *shortRep = ints({2}), *neg = ints({-1, 1});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatGetWorkspaceSize(x.get(), shortRep, y.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatGetWorkspaceSize(x.get(), neg, y.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatGetWorkspaceSize(x.get(), nullptr, y.get(), ws, ex);
            }),
            kParamNull);
  aclIntArray* size = ints({2, 8, 3, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpandGetWorkspaceSize(x.get(), size, big.get(), ws, ex);
            }),
            0);
  aclIntArray* bad = ints({6, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExpandGetWorkspaceSize(x.get(), bad, y.get(), ws, ex);
            }),
            kParamInvalid);  // 3 does not expand to 6
  // Cost: Repeat reads self once (48 bytes) and writes out (96); Expand reads self once and
  // writes its 2*8*3*4 elements.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnRepeatGetWorkspaceSize(x.get(), rep, y.get(), &ws, &ex), 0);
  Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 48u);
  EXPECT_EQ(ch.written, 96u);
  ASSERT_EQ(aclnnExpandGetWorkspaceSize(x.get(), size, big.get(), &ws, &ex), 0);
  ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 48u);
  EXPECT_EQ(ch.written, 768u);
  for (aclIntArray* a : {rep, shortRep, neg, size, bad}) aclDestroyIntArray(a);
}

// The experimental Split (split points), BroadcastV2 (elements repeated along an axis) and
// MaskedFill (a scalar into a copy).
TEST(DataMovement, ExperimentalSplitBroadcastMaskedFill) {
  HostTensorBuf x(ACL_INT32, {3, 5}), a(ACL_INT32, {3, 1}), b(ACL_INT32, {3, 3}), c(ACL_INT32, {3, 1});
  for (int64_t i = 0; i < 15; ++i) x.set(i, static_cast<double>(i));
  aclTensor* items[] = {listHandle(a), listHandle(b), listHandle(c)};
  aclTensorList* list = aclCreateTensorList(items, 3);
  aclIntArray* points = ints({1, 4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitGetWorkspaceSize(x.get(), points, 1, list, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t r = 0; r < 3; ++r) {
    EXPECT_EQ(a.get(r), x.get(r * 5));
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(b.get(r * 3 + j), x.get(r * 5 + 1 + j));
    EXPECT_EQ(c.get(r), x.get(r * 5 + 4));
  }
  aclIntArray* tooMany = ints({1, 2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSplitGetWorkspaceSize(x.get(), tooMany, 1, list, ws, ex);
            }),
            kParamInvalid);
  aclDestroyTensorList(list);
  aclDestroyIntArray(points);
  aclDestroyIntArray(tooMany);

  HostTensorBuf v(ACL_FLOAT16, {2, 3}), y(ACL_FLOAT16, {2, 6});
  for (int64_t i = 0; i < 6; ++i) v.set(i, static_cast<double>(i) / 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBroadcastV2GetWorkspaceSize(v.get(), 0, 2, 0, 1, 2, y.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(y.get(i), v.get(i / 6 * 3 + i % 6 / 2)) << i;

  HostTensorBuf m(ACL_BOOL, {3}), z(ACL_FLOAT16, {2, 3});
  m.set(0, 1);
  m.set(1, 0);
  m.set(2, 1);
  aclScalar* s = makeScalar(ACL_FLOAT, -2.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaskedFillGetWorkspaceSize(v.get(), m.get(), s, z.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(z.get(i), i % 3 == 1 ? v.get(i) : -2.5);
  aclDestroyScalar(s);
}

// repeat_interleave along dim 1 with per-column counts, the Int and Tensor forms, and the
// gradient summing each block back.
TEST(DataMovement, RepeatInterleave) {
  HostTensorBuf x(ACL_BF16, {2, 3}), reps(ACL_INT32, {3}), y(ACL_BF16, {2, 6}), g(ACL_BF16, {2, 3});
  for (int64_t i = 0; i < 6; ++i) x.set(i, static_cast<double>(i) - 2.5);
  const double r[] = {2, 0, 4};
  for (int i = 0; i < 3; ++i) reps.set(i, r[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatInterleaveWithDimGetWorkspaceSize(x.get(), reps.get(), 1, 6, y.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const int64_t col[] = {0, 0, 2, 2, 2, 2};
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 6; ++j) EXPECT_EQ(y.get(i * 6 + j), x.get(i * 3 + col[j]));
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatInterleaveGradGetWorkspaceSize(y.get(), reps.get(), 1, g.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_EQ(g.get(i * 3), 2 * x.get(i * 3));
    EXPECT_EQ(g.get(i * 3 + 1), 0.0);
    EXPECT_EQ(g.get(i * 3 + 2), 4 * x.get(i * 3 + 2));
  }
  HostTensorBuf flat(ACL_BF16, {12}), idx(ACL_INT32, {6}), wrong(ACL_BF16, {11});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatInterleaveIntGetWorkspaceSize(x.get(), 2, 12, flat.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(flat.get(i), x.get(i / 2));
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatInterleaveIntGetWorkspaceSize(x.get(), 2, 11, wrong.get(), ws, ex);
            }),
            kParamInvalid);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRepeatInterleaveTensorGetWorkspaceSize(reps.get(), 6, idx.get(), ws, ex);
            }),
            0);
  const double want[] = {0, 0, 2, 2, 2, 2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(idx.get(i), want[i]);
  HostTensorBuf four(ACL_INT32, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {  // 4 repeats for 3 columns
              return aclnnRepeatInterleaveWithDimGetWorkspaceSize(x.get(), four.get(), 1, 6, y.get(), ws, ex);
            }),
            kParamInvalid);
}
