// aclnnScatterList (runtime/aclnn/ops/scatter_list.cpp): slices of updates written into the
// tensors of a list, against a loop over the definition written here: start offsets and
// (start, length) pairs, a mask, several types, a strided var, error codes and bytes charged.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_scatter_list.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

char kUpdate[] = "update";

// Phase 1 then the kernel on host memory; the list holds second handles on the vars' memory.
int scatterList(std::vector<std::unique_ptr<HostTensorBuf>>& vars, HostTensorBuf& indice,
                HostTensorBuf& updates, HostTensorBuf* mask, int64_t axis) {
  std::vector<aclTensor*> handles;
  for (auto& v : vars) handles.push_back(listHandle(*v));
  aclTensorList* list = aclCreateTensorList(handles.data(), handles.size());
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnScatterListGetWorkspaceSize(list, indice.get(), updates.get(), mask ? mask->get() : nullptr,
                                            kUpdate, axis, ws, ex);
  });
  aclDestroyTensorList(list);
  return st;
}

}  // namespace

// var: 3 tensors [2, 5, 3]; updates [3, 2, 2, 3] along axis -2 (var's dimension 1).
TEST(ScatterList, StartOffsetsAndPairsWithMask) {
  std::mt19937 g(8);
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16, ACL_INT8, ACL_INT16}) {
    for (bool pairs : {false, true}) {
      std::vector<std::unique_ptr<HostTensorBuf>> vars;
      for (int b = 0; b < 3; ++b) {
        vars.push_back(std::make_unique<HostTensorBuf>(dt, std::vector<int64_t>{2, 5, 3}));
        vars.back()->fillRandom(g, 0, 100);
      }
      HostTensorBuf updates(dt, {3, 2, 2, 3}), mask(ACL_UINT8, {3});
      updates.fillRandom(g, 0, 100);
      HostTensorBuf indice(ACL_INT64, pairs ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{3});
      const int64_t start[3] = {3, 0, 1}, length[3] = {2, 1, 2};
      for (int b = 0; b < 3; ++b) {
        if (pairs) {
          indice.set(2 * b, static_cast<double>(start[b]));
          indice.set(2 * b + 1, static_cast<double>(length[b]));
        } else {
          indice.set(b, static_cast<double>(start[b]));
        }
      }
      mask.set(0, 1);
      mask.set(1, 1);
      mask.set(2, 0);  // var[2] stays
      std::vector<std::vector<double>> want(3);
      for (int b = 0; b < 3; ++b) {
        for (int64_t i = 0; i < 30; ++i) want[b].push_back(vars[b]->get(i));
        if (b == 2) continue;
        const int64_t len = pairs ? length[b] : 2;
        for (int64_t x = 0; x < 2; ++x)
          for (int64_t j = 0; j < len; ++j)
            for (int64_t y = 0; y < 3; ++y)
              want[b][(x * 5 + start[b] + j) * 3 + y] = updates.get(((b * 2 + x) * 2 + j) * 3 + y);
      }
      ASSERT_EQ(scatterList(vars, indice, updates, &mask, -2), 0) << aclGetRecentErrMsg();
      for (int b = 0; b < 3; ++b)
        for (int64_t i = 0; i < 30; ++i)
          EXPECT_EQ(vars[b]->get(i), want[b][i]) << b << " " << i << " " << pairs;
    }
  }
}

// The example's case: axis -1 of a [4, 6] var with int32 pairs; var viewed through a
// transposed (non-contiguous) layout.
TEST(ScatterList, LastAxisStridedVar) {
  std::mt19937 g(9);
  std::vector<std::unique_ptr<HostTensorBuf>> vars;
  vars.push_back(std::make_unique<HostTensorBuf>(ACL_FLOAT16, std::vector<int64_t>{4, 6},
                                                 std::vector<int64_t>{1, 4}, 0));  // column-major [4, 6]
  vars[0]->fillRandom(g, -1, 1);
  std::vector<double> before;
  auto at = [](int64_t r, int64_t c) { return r * 6 + c; };  // row-major index of the view
  for (int64_t i = 0; i < 24; ++i) before.push_back(vars[0]->get(i));
  HostTensorBuf updates(ACL_FLOAT16, {1, 4, 3}), indice(ACL_INT32, {1, 2});
  updates.fillRandom(g, -1, 1);
  indice.set(0, 2);
  indice.set(1, 3);
  // A second handle with the buffer's column-major strides (the list destroys what it holds).
  std::vector<int64_t> shape{4, 6}, strides{1, 4}, storage{24};
  aclTensor* view = aclCreateTensor(shape.data(), 2, ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_ND,
                                    storage.data(), 1, vars[0]->raw().data());
  aclTensorList* list = aclCreateTensorList(&view, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScatterListGetWorkspaceSize(list, indice.get(), updates.get(), nullptr, kUpdate, -1,
                                                      ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  aclDestroyTensorList(list);
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 6; ++c) {
      const double want = c >= 2 && c < 5 ? updates.get(r * 3 + (c - 2)) : before[at(r, c)];
      EXPECT_EQ(vars[0]->get(at(r, c)), want) << r << "," << c;
    }
}

TEST(ScatterList, ErrorsAndBytes) {
  HostTensorBuf var(ACL_FLOAT, {2, 4, 3}), updates(ACL_FLOAT, {1, 2, 2, 3}), indice(ACL_INT64, {1}),
      indiceF(ACL_FLOAT, {1}), updates16(ACL_FLOAT16, {1, 2, 2, 3}), tooWide(ACL_FLOAT, {1, 2, 5, 3});
  aclTensor* h = listHandle(var);
  aclTensorList* list = aclCreateTensorList(&h, 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  char sum[] = "add";
  EXPECT_EQ(
      aclnnScatterListGetWorkspaceSize(nullptr, indice.get(), updates.get(), nullptr, kUpdate, -2, &ws, &ex),
      kParamNull);
  EXPECT_EQ(aclnnScatterListGetWorkspaceSize(list, indice.get(), nullptr, nullptr, kUpdate, -2, &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnScatterListGetWorkspaceSize(list, indice.get(), updates.get(), nullptr, sum, -2, &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(
      aclnnScatterListGetWorkspaceSize(list, indiceF.get(), updates.get(), nullptr, kUpdate, -2, &ws, &ex),
      kParamInvalid);
  EXPECT_EQ(
      aclnnScatterListGetWorkspaceSize(list, indice.get(), updates16.get(), nullptr, kUpdate, -2, &ws, &ex),
      kParamInvalid);  // type differs from var's
  EXPECT_EQ(
      aclnnScatterListGetWorkspaceSize(list, indice.get(), tooWide.get(), nullptr, kUpdate, -2, &ws, &ex),
      kParamInvalid);  // 5 rows do not fit var's 4
  EXPECT_EQ(
      aclnnScatterListGetWorkspaceSize(list, indice.get(), updates.get(), nullptr, kUpdate, 0, &ws, &ex),
      kParamInvalid);  // axis may not be the list dimension
  // Bytes: updates (48) and indice (8) read, updates' 48 bytes written.
  ASSERT_EQ(
      aclnnScatterListGetWorkspaceSize(list, indice.get(), updates.get(), nullptr, kUpdate, -2, &ws, &ex), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 48u + 8u);
  EXPECT_EQ(ch.written, 48u);
  aclDestroyTensorList(list);
}

// A (start, length) pair that runs past var: that tensor is left as it was and the launch
// reports an execution error; the other tensor of the list is still written.
TEST(ScatterList, SliceOutsideVarIsReported) {
  std::vector<std::unique_ptr<HostTensorBuf>> vars;
  for (int b = 0; b < 2; ++b) {
    vars.push_back(std::make_unique<HostTensorBuf>(ACL_INT32, std::vector<int64_t>{4, 2}));
    for (int64_t i = 0; i < 8; ++i) vars.back()->set(i, -1);
  }
  HostTensorBuf updates(ACL_INT32, {2, 3, 2}), indice(ACL_INT32, {2, 2});
  for (int64_t i = 0; i < 12; ++i) updates.set(i, static_cast<double>(i));
  indice.set(0, 1);  // rows 1..3 of var[0]
  indice.set(1, 3);
  indice.set(2, 2);  // rows 2..4 of var[1]: past its 4 rows
  indice.set(3, 3);
  ASSERT_EQ(scatterList(vars, indice, updates, nullptr, 1), 0) << aclGetRecentErrMsg();
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 2; ++c) {
      EXPECT_EQ(vars[0]->get(r * 2 + c), r == 0 ? -1 : (r - 1) * 2 + c) << r << "," << c;
      EXPECT_EQ(vars[1]->get(r * 2 + c), -1);
    }
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("slice 1 (start 2, length 3)"), std::string::npos)
      << aclGetRecentErrMsg();
}
