#ifndef NPUSIM_PROPOSAL_SORT_H_
#define NPUSIM_PROPOSAL_SORT_H_
// Region-proposal sorting of the 910A-generation Ascend C API (docs/kernels.md, "Sorting region
// proposals"): ProposalConcat/Concat, ProposalExtract/Extract, RpSort16 and MrgSort4. A region
// proposal is 8 consecutive elements of a half or float tensor, [x1, y1, x2, y2, score, label,
// reserved, reserved]; the sorts order whole proposals by their score, largest first. Included by
// kernel_operator.h after LocalTensor.
#include <cstdint>

#include "npusim_kernel_abi.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

template <class T, class U>
struct IsSameType {
  static constexpr bool value = false;
};
template <class T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};

namespace proposal {
constexpr uint32_t kFields = 8;      // elements per region proposal
constexpr uint32_t kScore = 4;       // the score's position in a proposal
constexpr uint32_t kPerRepeat = 16;  // proposals one Concat/Extract/RpSort16 repeat handles

template <class T>
void checkType() {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "region proposals hold half or float elements");
}
inline void checkRepeat(int32_t repeatTimes, const char* call) {
  if (repeatTimes < 0 || repeatTimes > 255) detail::fault(call);
}
inline void checkMode(int32_t modeNumber) {
  if (modeNumber < 0 || modeNumber > 5)
    detail::fault("ProposalConcat/ProposalExtract: modeNumber outside 0..5 (x1, y1, x2, y2, score, label)");
}
// Copies position modeNumber of 16 x repeatTimes proposals to or from as many consecutive elements
// (ProposalConcat: to the proposals, backwards; ProposalExtract: from them, forwards, so that the
// elements may start where the proposals do) and records the cost.
template <class T>
void copyField(const LocalTensor<T>& elements, const LocalTensor<T>& proposals, int32_t repeatTimes,
               int32_t modeNumber, bool concat) {
  checkType<T>();
  checkRepeat(repeatTimes, "ProposalConcat/ProposalExtract: repeatTimes outside 0..255");
  checkMode(modeNumber);
  const uint64_t n = uint64_t{kPerRepeat} * static_cast<uint64_t>(repeatTimes);
  detail::checkCount(n, elements.GetSize(),
                     "ProposalConcat/ProposalExtract beyond the elements' LocalTensor");
  detail::checkCount(n * kFields, proposals.GetSize(),
                     "ProposalConcat/ProposalExtract beyond the proposals' LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_VECTOR, n * (kFields + 1) * sizeof(T), nullptr);
  T* e = elements.GetPhyAddr();
  T* p = proposals.GetPhyAddr() + modeNumber;
  if (concat) {
    for (uint64_t i = n; i-- > 0;) p[i * kFields] = e[i];
  } else {
    for (uint64_t i = 0; i < n; ++i) e[i] = p[i * kFields];
  }
}
}  // namespace proposal

// Writes 16 consecutive elements of src into position modeNumber of 16 proposals per repeat; the
// proposals' other elements are left as they were.
template <class T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t repeatTimes, const int32_t modeNumber) {
  proposal::copyField(src, dst, repeatTimes, modeNumber, true);
}
// The name of the first Ascend C releases.
template <class T>
__aicore__ inline void Concat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes,
                              const int32_t modeNumber) {
  ProposalConcat(dst, src, repeatTimes, modeNumber);
}

// Reads position modeNumber of 16 proposals per repeat into 16 consecutive elements of dst. In
// place (dst at or before src, as TopK extracts scores over the proposals) works: element i is
// read before anything at or after it is written.
template <class T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                       const int32_t repeatTimes, const int32_t modeNumber) {
  proposal::copyField(dst, src, repeatTimes, modeNumber, false);
}
template <class T>
__aicore__ inline void Extract(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const int32_t repeatTimes, const int32_t modeNumber) {
  ProposalExtract(dst, src, repeatTimes, modeNumber);
}

namespace proposal {
template <class T>
struct Item {
  T field[kFields];
};
// Orders proposals by score, largest first; equal scores keep their order (the documented rule:
// of two equal scores the one that came first is taken first).
template <class T>
bool before(const Item<T>& a, const Item<T>& b) {
  return static_cast<float>(a.field[kScore]) > static_cast<float>(b.field[kScore]);
}
}  // namespace proposal

// Sorts each group of 16 proposals by score, largest first (equal scores keep their order).
// Timed by aicore.rpsort16_cycles_per_repeat.
template <class T>
__aicore__ inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const int32_t repeatTimes) {
  proposal::checkType<T>();
  proposal::checkRepeat(repeatTimes, "RpSort16: repeatTimes outside 0..255");
  const uint64_t n = uint64_t{proposal::kPerRepeat} * static_cast<uint64_t>(repeatTimes);
  detail::checkCount(n * proposal::kFields, src.GetSize(), "RpSort16 beyond the source LocalTensor");
  detail::checkCount(n * proposal::kFields, dst.GetSize(), "RpSort16 beyond the destination LocalTensor");
  npusimKernelRecord(NPUSIM_KERNEL_PROPOSAL_SORT16, static_cast<uint64_t>(repeatTimes), nullptr);
  using Item = proposal::Item<T>;
  for (int32_t r = 0; r < repeatTimes; ++r) {
    Item group[proposal::kPerRepeat];
    std::memcpy(group, src.GetPhyAddr() + static_cast<uint64_t>(r) * proposal::kPerRepeat * proposal::kFields,
                sizeof group);
    // Insertion sort: stable, and 16 items.
    for (uint32_t i = 1; i < proposal::kPerRepeat; ++i) {
      Item x = group[i];
      uint32_t j = i;
      for (; j > 0 && proposal::before(x, group[j - 1]); --j) group[j] = group[j - 1];
      group[j] = x;
    }
    std::memcpy(dst.GetPhyAddr() + static_cast<uint64_t>(r) * proposal::kPerRepeat * proposal::kFields, group,
                sizeof group);
  }
}

struct MrgSort4Info {
  __aicore__ MrgSort4Info() {}
  __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN],
                          const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
                          const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0, 0, 0, 0};  // proposals in each list
  bool ifExhaustedSuspension = false;                            // stop as soon as one list is used up
  uint16_t validBit = 0;  // lists taking part: 0b0011, 0b0111 or 0b1111
  uint16_t repeatTimes = 1;
};

template <class T>
struct MrgSortSrcList {
  __aicore__ MrgSortSrcList() {}
  __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                            const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1, src2, src3, src4;
};

// Merges up to four lists of proposals, each sorted by score (largest first), into dst. Of equal
// scores the lower-numbered list's proposal goes first (so a merge keeps the order of lists that
// were one sorted run). With repeatTimes > 1 (four equal, contiguous lists, no suspension, as the
// documentation requires) each repeat merges the next four lists into the next part of dst.
// Timed by aicore.mrgsort4_proposals_per_cycle.
template <class T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src,
                                const MrgSort4Info& params) {
  proposal::checkType<T>();
  const uint16_t valid = params.validBit;
  if (valid != 0b0011 && valid != 0b0111 && valid != 0b1111)
    detail::fault("MrgSort4: validBit must be 0b0011, 0b0111 or 0b1111 (two, three or four lists)");
  if (params.repeatTimes < 1 || params.repeatTimes > 255)
    detail::fault("MrgSort4: repeatTimes outside 1..255");
  const LocalTensor<T>* lists[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  uint64_t len[4] = {}, total = 0;
  for (int q = 0; q < 4; ++q) {
    if (!(valid & (1u << q))) continue;
    len[q] = params.elementLengths[q];
    total += len[q];
  }
  if (params.repeatTimes > 1) {
    const uint64_t l = len[0];
    const T* base = src.src1.GetPhyAddr();
    bool ok = valid == 0b1111 && !params.ifExhaustedSuspension;
    for (int q = 1; q < 4 && ok; ++q)
      ok = len[q] == l && lists[q]->GetPhyAddr() == base + q * l * proposal::kFields;
    if (!ok)
      detail::fault(
          "MrgSort4: repeatTimes > 1 needs four lists of equal length stored one after another and "
          "ifExhaustedSuspension false");
  }
  const uint64_t repeats = params.repeatTimes;
  for (int q = 0; q < 4; ++q) {
    if (!(valid & (1u << q))) continue;
    const uint64_t need = ((repeats - 1) * total + len[q]) * proposal::kFields;
    detail::checkCount(q == 0 ? need : len[q] * proposal::kFields, lists[q]->GetSize(),
                       "MrgSort4 beyond a source LocalTensor");
  }
  detail::checkCount(repeats * total * proposal::kFields, dst.GetSize(),
                     "MrgSort4 beyond the destination LocalTensor");
  using Item = proposal::Item<T>;
  Item* out = new Item[repeats * total];  // the sources may overlap dst
  uint64_t written = 0;
  for (uint64_t r = 0; r < repeats; ++r) {
    const Item* head[4] = {};
    uint64_t left[4] = {};
    for (int q = 0; q < 4; ++q) {
      if (!(valid & (1u << q))) continue;
      head[q] = reinterpret_cast<const Item*>(lists[q]->GetPhyAddr()) + r * total;
      left[q] = len[q];
    }
    for (;;) {
      int best = -1;
      bool exhausted = false;
      for (int q = 0; q < 4; ++q) {
        if (!(valid & (1u << q))) continue;
        if (left[q] == 0) {
          exhausted = true;
          continue;
        }
        if (best < 0 || proposal::before(*head[q], *head[best])) best = q;
      }
      if (best < 0 || (exhausted && params.ifExhaustedSuspension)) break;
      out[written++] = *head[best]++;
      --left[best];
    }
  }
  std::memcpy(dst.GetPhyAddr(), out, written * sizeof(Item));
  delete[] out;
  npusimKernelRecord(NPUSIM_KERNEL_PROPOSAL_MERGE, written, nullptr);
}

}  // namespace AscendC

#endif  // NPUSIM_PROPOSAL_SORT_H_
