// Region-proposal sorting in custom kernels (docs/kernels.md, "Sorting region proposals"):
// Concat/ProposalConcat, RpSort16, MrgSort4 and Extract against std::stable_sort references on
// random scores with ties, their cost on the vector unit, and misuse ending the kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_extract.h"
#include "aclrtlaunch_k_mrgsort4.h"
#include "aclrtlaunch_k_rpsort16_float.h"
#include "aclrtlaunch_k_rpsort16_half.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/kernels/dev_buffer.h"

using aicore_test::Session;
using kernel_test::Dev;

namespace {

constexpr size_t kFields = 8, kScore = 4, kLabel = 5;

// Scores from a few values, so that ties are common.
std::vector<float> tiedScores(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-6, 6);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(d(rng)) * 0.5f;
  return v;
}

struct Proposal {
  float score, label;
};
// The documented order: larger score first; of equal scores, the one that came first.
void referenceSort(std::vector<Proposal>& v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const Proposal& a, const Proposal& b) { return a.score > b.score; });
}

template <class T>
void checkGroups(const std::vector<float>& scores, const std::vector<T>& out) {
  for (size_t g = 0; g < scores.size() / 16; ++g) {
    std::vector<Proposal> ref;
    for (size_t i = 0; i < 16; ++i) ref.push_back({scores[g * 16 + i], static_cast<float>(g * 16 + i)});
    referenceSort(ref);
    for (size_t i = 0; i < 16; ++i) {
      const size_t p = (g * 16 + i) * kFields;
      ASSERT_EQ(static_cast<float>(out[p + kScore]), ref[i].score) << "group " << g << " rank " << i;
      ASSERT_EQ(static_cast<float>(out[p + kLabel]), ref[i].label) << "group " << g << " rank " << i;
      ASSERT_EQ(static_cast<float>(out[p]), 0.0f);  // the fields Concat did not write keep their value
    }
  }
}

double ghz() { return aicore_test::config().getFloat("aicore.freq_ghz"); }

}  // namespace

TEST(KernelProposalSort, RpSort16SortsEachGroupOf16ByScoreKeepingTiesInOrder) {
  Session s;
  const uint32_t repeats = 40;
  const std::vector<float> scores = tiedScores(repeats * 16, 7);
  std::vector<float> labels(scores.size());
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<float>(i);
  Dev<float> ds(scores), dl(labels), out(scores.size() * kFields);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_rpsort16_float)(1, s.stream, ds.dev, dl.dev, out.dev, repeats), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  checkGroups(scores, out.read());
}

TEST(KernelProposalSort, RpSort16SortsHalfProposals) {
  Session s;
  const uint32_t repeats = 16;
  const std::vector<float> scores = tiedScores(repeats * 16, 11);
  std::vector<_Float16> hs(scores.begin(), scores.end()), hl(scores.size());
  for (size_t i = 0; i < hl.size(); ++i) hl[i] = static_cast<_Float16>(i);  // exact below 2048
  Dev<_Float16> ds(hs), dl(hl), out(scores.size() * kFields);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_rpsort16_half)(1, s.stream, ds.dev, dl.dev, out.dev, repeats), 0u);
  ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  checkGroups(scores, out.read());
}

namespace {
// Four lists, each sorted by score (largest first), stored one after another; label = 1000 x list + i.
std::vector<float> sortedLists(const std::vector<uint32_t>& lengths, uint32_t seed,
                               std::vector<std::vector<Proposal>>* lists) {
  std::vector<float> flat;
  for (size_t q = 0; q < lengths.size(); ++q) {
    std::vector<float> sc = tiedScores(lengths[q], seed + static_cast<uint32_t>(q));
    std::sort(sc.begin(), sc.end(), std::greater<float>());
    std::vector<Proposal> l;
    for (uint32_t i = 0; i < lengths[q]; ++i) {
      l.push_back({sc[i], static_cast<float>(1000 * q + i)});
      std::vector<float> p(kFields, 0.0f);
      p[kScore] = sc[i];
      p[kLabel] = l.back().label;
      flat.insert(flat.end(), p.begin(), p.end());
    }
    lists->push_back(l);
  }
  return flat;
}
// The merge of the lists: all of them in list order, stably sorted (equal scores: lower list first).
std::vector<Proposal> referenceMerge(const std::vector<std::vector<Proposal>>& lists) {
  std::vector<Proposal> all;
  for (const auto& l : lists) all.insert(all.end(), l.begin(), l.end());
  referenceSort(all);
  return all;
}
}  // namespace

namespace {
// k_mrgsort4 over sorted lists of the `stored` lengths (scores from `seed`) stored one after
// another, told lengths `len`: the lists and what dst holds afterwards.
struct Merge {
  std::vector<std::vector<Proposal>> lists;
  std::vector<float> out;
};
Merge runMerge(aclrtStream stream, const std::vector<uint32_t>& stored, uint32_t seed,
               const uint32_t (&len)[4], uint32_t validBit, uint32_t repeats, uint32_t exhausted) {
  Merge m;
  Dev<float> in(sortedLists(stored, seed, &m.lists));
  const uint32_t count = static_cast<uint32_t>(in.host.size() / kFields);
  Dev<float> out(static_cast<size_t>(count) * kFields);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(k_mrgsort4)(1, stream, in.dev, out.dev, len[0], len[1], len[2], len[3],
                                            validBit, repeats, exhausted, count),
            0u);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  m.out = out.read();
  return m;
}
// dst's proposals from `at` on have the reference's scores and labels.
void expectMerged(const std::vector<float>& out, const std::vector<Proposal>& ref, size_t at = 0) {
  for (size_t i = 0; i < ref.size(); ++i) {
    ASSERT_EQ(out[(at + i) * kFields + kScore], ref[i].score) << at + i;
    ASSERT_EQ(out[(at + i) * kFields + kLabel], ref[i].label) << at + i;
  }
}
}  // namespace

TEST(KernelProposalSort, MrgSort4MergesFourSortedListsTiesByListOrder) {
  Session s;
  const Merge m = runMerge(s.stream, {37, 5, 64, 20}, 3, {37, 5, 64, 20}, 0b1111, 1, 0);
  expectMerged(m.out, referenceMerge(m.lists));
}

TEST(KernelProposalSort, MrgSort4MergesTwoListsAndRepeatsOverContiguousGroups) {
  Session s;
  // validBit 0b0011: only the first two lists.
  const Merge two = runMerge(s.stream, {24, 40}, 5, {24, 40, 0, 0}, 0b0011, 1, 0);
  expectMerged(two.out, referenceMerge(two.lists));
  // repeatTimes 3: three groups of four lists of 16, each merged into the next 64 proposals.
  const Merge rep = runMerge(s.stream, std::vector<uint32_t>(12, 16), 9, {16, 16, 16, 16}, 0b1111, 3, 0);
  for (size_t r = 0; r < 3; ++r)
    expectMerged(rep.out, referenceMerge({rep.lists.begin() + 4 * r, rep.lists.begin() + 4 * r + 4}), 64 * r);
}

// With ifExhaustedSuspension the merge stops once a list is used up: the output is the full
// merge up to and including that list's last proposal, and dst is untouched after it.
TEST(KernelProposalSort, MrgSort4WithExhaustedSuspensionStopsAtTheFirstEmptyList) {
  Session s;
  const std::vector<uint32_t> len = {30, 4, 30, 30};
  const Merge m = runMerge(s.stream, len, 21, {30, 4, 30, 30}, 0b1111, 1, 1);
  const std::vector<float>& o = m.out;
  const std::vector<Proposal> ref = referenceMerge(m.lists);
  size_t stop = ref.size();
  for (size_t i = 0, taken[4] = {0, 0, 0, 0}; i < ref.size() && stop == ref.size(); ++i) {
    const size_t q = static_cast<size_t>(ref[i].label) / 1000;
    if (++taken[q] == len[q]) stop = i + 1;
  }
  ASSERT_LT(stop, ref.size());
  for (size_t i = 0; i < stop; ++i) ASSERT_EQ(o[i * kFields + kLabel], ref[i].label) << i;
  for (size_t i = stop; i < ref.size(); ++i) ASSERT_EQ(o[i * kFields + kLabel], -7.0f) << i;
}

TEST(KernelProposalSort, ExtractReadsOneFieldOfEveryProposalInPlace) {
  Session s;
  const uint32_t repeats = 10;
  std::vector<float> p(repeats * 16 * kFields);
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(i) * 0.25f - 3.0f;
  Dev<float> in(p), out(repeats * 16);
  for (uint32_t mode : {4u, 1u}) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_extract)(1, s.stream, in.dev, out.dev, repeats, mode), 0u);
    ASSERT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<float>& o = out.read();
    for (size_t i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], p[i * kFields + mode]) << mode << " " << i;
  }
}

// A merge of n proposals takes n / aicore.mrgsort4_proposals_per_cycle cycles on the vector unit:
// merging 4 x 512 more proposals adds that time, less what the longer copies overlap.
TEST(KernelProposalSort, MrgSort4IsTimedPerProposal) {
  Session s;
  auto timed = [&](uint32_t each) {
    std::vector<std::vector<Proposal>> lists;
    Dev<float> in(sortedLists(std::vector<uint32_t>(4, each), 1, &lists)), out(4 * each * kFields);
    auto warm = [&] {
      ASSERT_EQ(
          ACLRT_LAUNCH_KERNEL(k_mrgsort4)(1, s.stream, in.dev, out.dev, 16, 16, 16, 16, 0b1111, 1, 0, 64),
          0u);
    };
    auto run = [&] {
      ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mrgsort4)(1, s.stream, in.dev, out.dev, each, each, each, each, 0b1111,
                                                1, 0, 4 * each),
                0u);
    };
    return aicore_test::deviceMs(s.stream, warm, run);
  };
  const double small = timed(16), large = timed(16 + 512);
  const npusim::Config& cfg = aicore_test::config();
  const double mergeMs = 4 * 512 / cfg.getFloat("aicore.mrgsort4_proposals_per_cycle") / (ghz() * 1e6);
  // The rest of the difference: 4 x 512 more proposals copied in and out and duplicated.
  const double bytes = 4 * 512 * kFields * sizeof(float);
  const double moveMs = (bytes / cfg.getFloat("aicore.mte_bytes_per_cycle") +
                         bytes / cfg.getFloat("aicore.l2_write_bytes_per_cycle") +
                         bytes / cfg.getFloat("aicore.vector_bytes_per_cycle")) /
                        (ghz() * 1e6);
  std::printf("MrgSort4 4x16: %.4f ms, 4x528: %.4f ms; merge %.4f ms + moves %.4f ms\n", small, large,
              mergeMs, moveMs);
  EXPECT_NEAR(large - small, mergeMs + moveMs, 0.15 * (mergeMs + moveMs));
}

namespace {
// The stream's next synchronisation reports the kernel's fault, naming `what`.
void expectFault(aclrtStream stream, const char* what) {
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find(what), std::string::npos) << aclGetRecentErrMsg();
}
}  // namespace

TEST(KernelProposalSort, InvalidValidBitEndsTheKernel) {
  Session s;
  std::vector<std::vector<Proposal>> lists;
  Dev<float> in(sortedLists({16, 16, 16, 16}, 2, &lists)), out(64 * kFields);
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mrgsort4)(1, s.stream, in.dev, out.dev, 16, 16, 16, 16, 0b0101, 1, 0, 64),
            0u);
  expectFault(s.stream, "validBit must be 0b0011, 0b0111 or 0b1111");
  // repeatTimes > 1 over lists of different lengths is refused the same way.
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_mrgsort4)(1, s.stream, in.dev, out.dev, 16, 8, 16, 16, 0b1111, 2, 0, 64),
            0u);
  expectFault(s.stream, "repeatTimes > 1 needs four lists of equal length");
}
