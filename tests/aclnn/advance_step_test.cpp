// aclnnAdvanceStep / aclnnAdvanceStepV2 (runtime/aclnn/ops/advance_step.cpp): the per-sequence
// step of vLLM against a loop over the docs' formulas written here, padding sequences, the
// speculative form, error codes and bytes charged.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_advance_step.h"
#include "aclnnop/aclnn_advance_step_v2.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002, kShapeTiling = 561002;

}  // namespace

// 6 sequences of which 4 are queries, blocks of 4, a [6, 5] block table of random block ids.
TEST(AdvanceStep, MatchesFormulaAndPadsTheRest) {
  std::mt19937 g(5);
  const int64_t seqs = 6, queries = 4, blockSize = 4, blocks = 5;
  HostTensorBuf tokens(ACL_INT64, {seqs}), sampled(ACL_INT64, {queries, 1}), positions(ACL_INT64, {seqs}),
      lens(ACL_INT64, {seqs}), slots(ACL_INT64, {seqs}), table(ACL_INT64, {seqs, blocks});
  std::vector<int64_t> len0(seqs), tab(seqs * blocks);
  for (int64_t i = 0; i < seqs; ++i) {
    len0[i] = std::uniform_int_distribution<int64_t>(1, blocks * blockSize - 1)(g);
    lens.set(i, static_cast<double>(len0[i]));
    tokens.set(i, 99);
    positions.set(i, 77);
    slots.set(i, 55);
  }
  for (int64_t i = 0; i < queries; ++i) sampled.set(i, static_cast<double>(1000 + i));
  for (int64_t i = 0; i < seqs * blocks; ++i) {
    tab[i] = std::uniform_int_distribution<int64_t>(0, 200)(g);
    table.set(i, static_cast<double>(tab[i]));
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(),
                                                      lens.get(), slots.get(), table.get(), seqs, queries,
                                                      blockSize, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < seqs; ++i) {
    if (i < queries) {
      const int64_t pos = len0[i];
      EXPECT_EQ(tokens.get(i), 1000 + i);
      EXPECT_EQ(positions.get(i), pos);
      EXPECT_EQ(lens.get(i), len0[i] + 1);
      // The doc's formula: the flat table entry pos / blockSize plus the row offset.
      EXPECT_EQ(slots.get(i), (tab[pos / blockSize] + blocks * i) * blockSize + pos % blockSize) << i;
    } else {
      EXPECT_EQ(tokens.get(i), 0);
      EXPECT_EQ(positions.get(i), 0);
      EXPECT_EQ(lens.get(i), len0[i]);  // padding lengths stay
      EXPECT_EQ(slots.get(i), -1);
    }
  }
}

// Two draft tokens per sequence: positions advance by acceptedNum + 1, token 0 is the last
// accepted sampled token (before the first -1), tokens 1.. the draft tokens.
TEST(AdvanceStep, V2SpeculativeTokens) {
  const int64_t seqs = 3, spec = 2, per = spec + 1, blockSize = 8, blocks = 4;
  HostTensorBuf tokens(ACL_INT64, {seqs * per}), sampled(ACL_INT64, {seqs, per}),
      positions(ACL_INT64, {seqs * per}), lens(ACL_INT64, {seqs * per}), slots(ACL_INT64, {seqs * per}),
      table(ACL_INT64, {seqs, blocks}), specToken(ACL_INT64, {seqs, spec}), accepted(ACL_INT64, {seqs});
  const int64_t sampledRows[seqs][per] = {{11, 12, -1}, {21, -1, -1}, {31, 32, 33}};
  const int64_t lastAccepted[seqs] = {12, 21, 33};
  const int64_t acc[seqs] = {1, 0, 2};
  std::vector<int64_t> pos0(seqs * per);
  for (int64_t i = 0; i < seqs; ++i) {
    accepted.set(i, static_cast<double>(acc[i]));
    for (int64_t j = 0; j < per; ++j) {
      sampled.set(i * per + j, static_cast<double>(sampledRows[i][j]));
      pos0[i * per + j] = 5 * i + j + 3;
      positions.set(i * per + j, static_cast<double>(pos0[i * per + j]));
    }
    for (int64_t j = 0; j < spec; ++j) specToken.set(i * spec + j, static_cast<double>(500 + 10 * i + j));
    for (int64_t c = 0; c < blocks; ++c) table.set(i * blocks + c, static_cast<double>(100 * i + 7 * c + 1));
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdvanceStepV2GetWorkspaceSize(tokens.get(), sampled.get(), positions.get(),
                                                        lens.get(), slots.get(), table.get(), specToken.get(),
                                                        accepted.get(), seqs, seqs, blockSize, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < seqs; ++i) {
    EXPECT_EQ(tokens.get(i * per), lastAccepted[i]);
    for (int64_t j = 0; j < spec; ++j) EXPECT_EQ(tokens.get(i * per + 1 + j), 500 + 10 * i + j);
    for (int64_t j = 0; j < per; ++j) {
      const int64_t k = i * per + j, pos = pos0[k] + acc[i] + 1;
      EXPECT_EQ(positions.get(k), pos);
      EXPECT_EQ(lens.get(k), pos + 1);
      EXPECT_EQ(slots.get(k), (100 * i + 7 * (pos / blockSize) + 1) * blockSize + pos % blockSize) << k;
    }
  }
}

TEST(AdvanceStep, ErrorsAndBytes) {
  HostTensorBuf tokens(ACL_INT64, {4}), sampled(ACL_INT64, {2, 1}), positions(ACL_INT64, {4}),
      lens(ACL_INT64, {4}), slots(ACL_INT64, {4}), table(ACL_INT64, {4, 3}), lens32(ACL_INT32, {4});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAdvanceStepGetWorkspaceSize(nullptr, sampled.get(), positions.get(), lens.get(), slots.get(),
                                             table.get(), 4, 2, 2, &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens32.get(),
                                             slots.get(), table.get(), 4, 2, 2, &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens.get(),
                                             slots.get(), table.get(), 4, 2, 0, &ws, &ex),
            kParamInvalid);  // blockSize 0
  EXPECT_EQ(aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens.get(),
                                             slots.get(), table.get(), 2, 2, 2, &ws, &ex),
            kShapeTiling);  // numSeqs must exceed numQueries (and match the tensors)
  EXPECT_EQ(aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens.get(),
                                             slots.get(), table.get(), 4, 3, 2, &ws, &ex),
            kShapeTiling);  // sampledTokenIds has 2 rows, not 3
  EXPECT_EQ(
      aclnnAdvanceStepV2GetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens.get(),
                                         slots.get(), table.get(), sampled.get(), nullptr, 4, 2, 2, &ws, &ex),
      kParamNull);  // specToken without acceptedNum
  // Bytes: every input read once (sampled 16, positions/lens 32 each, table 96), the four
  // outputs written once (4 x 32).
  ASSERT_EQ(aclnnAdvanceStepGetWorkspaceSize(tokens.get(), sampled.get(), positions.get(), lens.get(),
                                             slots.get(), table.get(), 4, 2, 2, &ws, &ex),
            0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 16u + 32u + 32u + 96u);
  EXPECT_EQ(ch.written, 4u * 32u);
}

// A position past the sequence's blocks: the slot is -1 and the launch reports an execution
// error naming the position (the other sequences are still advanced).
TEST(AdvanceStep, BlockOutsideTheTableIsReported) {
  HostTensorBuf tokens(ACL_INT64, {4}), sampled(ACL_INT64, {2, 2}), positions(ACL_INT64, {4}),
      lens(ACL_INT64, {4}), slots(ACL_INT64, {4}), table(ACL_INT64, {2, 2}), spec(ACL_INT64, {2, 1}),
      accepted(ACL_INT64, {2});
  for (int i = 0; i < 4; ++i) {
    table.set(i, 10 + i);
    sampled.set(i, 1);
  }
  const int64_t pos0[4] = {0, 1, 40, 41};  // + 1: sequence 0 in blocks 0 and 1, sequence 1 in block 20
  for (int i = 0; i < 4; ++i) positions.set(i, static_cast<double>(pos0[i]));
  accepted.set(0, 0);
  accepted.set(1, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdvanceStepV2GetWorkspaceSize(tokens.get(), sampled.get(), positions.get(),
                                                        lens.get(), slots.get(), table.get(), spec.get(),
                                                        accepted.get(), 2, 2, 2, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(slots.get(0), 10 * 2 + 1);  // position 1: block 0, offset 1
  EXPECT_EQ(slots.get(1), 11 * 2 + 0);  // position 2: block 1, offset 0
  EXPECT_EQ(slots.get(2), -1);
  EXPECT_EQ(slots.get(3), -1);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("of sequence 1 is outside blockTables"), std::string::npos)
      << aclGetRecentErrMsg();
}
