#ifndef NPUSIM_ASCENDC_MATMUL_H_
#define NPUSIM_ASCENDC_MATMUL_H_
// Ascend C's high-level Matmul API (matmul::MatmulImpl / Matmul) on top of npusim's cube calls
// (npusim_ascendc_cube.h), so that its time is the cube model's: each base block of C is built
// in L1 from GM (MTE2 reads through the HBM model, converted to the cube's fractal layouts on
// the way, as the MTE2's ND-to-NZ mode does), moved into L0A/L0B with LoadData (MTE1), multiplied
// with Mmad (the cube's MAC rate) into L0C, and copied out of L0C to GM (MTE3/fixpipe writes) or
// to the unified buffer. A, B and C may be stored in ND or NZ, A and B also in the unified buffer,
// and IterateBatch runs the NORMAL (BMNK) batch layout. Semantics from the public Ascend C
// reference; what npusim does and does not support: docs/kernels.md, "The Matmul API". A kernel
// that only includes this header (and calls Init itself) is a cube (AIC) kernel;
// lib/matmul_intf.h makes it a mixed kernel.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
constexpr uint32_t DEFAULT_C0_SIZE = 32;  // bytes in one block along the cube's C0 axis
}  // namespace AscendC

// g_coreType in a kernel that declares no type: a kernel written for the Matmul object alone is
// the cube core's program (AIC); with lib/matmul_intf.h the user's code is the vector cores'.
#ifndef NPUSIM_MATMUL_MIXED
#undef NPUSIM_DEFAULT_CORE_TYPE
#define NPUSIM_DEFAULT_CORE_TYPE 1
#endif

namespace matmul {

using AscendC::CubeFormat;
using AscendC::GlobalTensor;
using AscendC::LayoutMode;
using AscendC::LocalTensor;
using AscendC::TPipe;
using AscendC::TPosition;

template <class T>
__aicore__ inline T Ceil(T num, T div) {
  return div == 0 ? 0 : (num + div - 1) / div;
}

template <TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

// The scheduling variants a kernel may name (CFG_NORM, CFG_MDL, ...): npusim runs them all the
// same way, block by block.
struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
};
inline constexpr MatmulConfig CFG_NORM{};
inline constexpr MatmulConfig CFG_MDL{false, false, true};
inline constexpr MatmulConfig CFG_IBSHARE_NORM{};

namespace detail {
[[noreturn]] inline void fault(const char* why) { npusimKernelFault(0, why); }
inline uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
inline uint32_t ceilDiv(uint32_t v, uint32_t d) { return (v + d - 1) / d; }
template <class T>
T* localAlloc(int memory, uint64_t elems) {
  return static_cast<T*>(npusimKernelLocalAlloc(memory, elems * sizeof(T)));
}
constexpr bool inUnifiedBuffer(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}

// A matrix as it is stored: rows x cols of T at p, in ND (row-major) or NZ (CANN's FRACTAL_NZ:
// fractals of 16 rows x w0 columns, row-major inside, the column strips of fractals one after
// another, the rows padded to 16).
template <class T>
struct MatrixView {
  T* p = nullptr;
  uint32_t rows = 0, cols = 0, w0 = 16;
  bool nz = false;
  uint64_t at(uint32_t r, uint32_t c) const {
    return nz ? (uint64_t{c / w0} * alignUp(rows, 16) + r) * w0 + c % w0 : uint64_t{r} * cols + c;
  }
  // Elements the stored matrix spans: a batch's distance to the next one by default.
  uint64_t extent() const {
    return nz ? uint64_t{alignUp(cols, w0)} * alignUp(rows, 16) : uint64_t{rows} * cols;
  }
  // Records rows [r0, r0 + rn) x columns [c0, c0 + cn) moved between GM and the core as the MTE
  // bursts they are: one per row in ND, one per strip of w0 columns in NZ (contiguous there).
  void record(int event, uint32_t r0, uint32_t rn, uint32_t c0, uint32_t cn) const {
    if (rn == 0 || cn == 0) return;
    if (!nz) {
      for (uint32_t r = 0; r < rn; ++r)
        npusimKernelRecord(event, uint64_t{cn} * sizeof(T), p + at(r0 + r, c0));
      return;
    }
    for (uint32_t s = c0 / w0; s <= (c0 + cn - 1) / w0; ++s)
      npusimKernelRecord(event, uint64_t{rn} * w0 * sizeof(T), p + at(r0, s * w0));
  }
};

// The Matmul object's work, which its AI core's cube core does for the calling vector program
// (timed there in a mixed kernel: docs/kernels.md, "The Matmul API in mixed kernels").
struct CubeWork {
  CubeWork() { npusimKernelCubeWork(1); }
  ~CubeWork() { npusimKernelCubeWork(0); }
  CubeWork(const CubeWork&) = delete;
  CubeWork& operator=(const CubeWork&) = delete;
};
}  // namespace detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = void>
class MatmulImpl {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  static_assert(std::is_same<SrcAT, SrcBT>::value, "Matmul: A and B have one type");
  // L0C accumulates int8 products in int32, the others in float (npusim_ascendc_cube.h, Mmad).
  using L0cT = std::conditional_t<std::is_same<SrcAT, int8_t>::value, int32_t, float>;
  static constexpr uint32_t kK0 = 32 / sizeof(SrcAT);  // K elements in one fractal
  static constexpr uint32_t kMaxRepeat = 255;          // fractals one LoadData moves
  static constexpr bool kAInUb = detail::inUnifiedBuffer(A_TYPE::pos);
  static constexpr bool kBInUb = detail::inUnifiedBuffer(B_TYPE::pos);
  static_assert(A_TYPE::pos == TPosition::GM || kAInUb,
                "npusim's Matmul reads A from GM or the unified buffer (VECIN/VECOUT/VECCALC)");
  static_assert(B_TYPE::pos == TPosition::GM || kBInUb,
                "npusim's Matmul reads B from GM or the unified buffer (VECIN/VECOUT/VECCALC)");
  static_assert(A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ,
                "npusim's Matmul takes A in CubeFormat::ND or NZ");
  static_assert(B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ,
                "npusim's Matmul takes B in CubeFormat::ND or NZ");
  static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::NZ,
                "npusim's Matmul writes C in CubeFormat::ND or NZ");

 public:
  __aicore__ inline MatmulImpl() {}

  // Takes the tiling and reserves the core's buffers it needs: L1 for stepKa blocks of A and
  // stepKb of B (and the bias row), L0A/L0B/L0C for one base block each. A tiling whose blocks
  // do not fit the buffers ends the kernel, as the buffers' owner would on the device.
  __aicore__ inline void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr) {
    (void)tpipe;
    if (tiling == nullptr) detail::fault("Matmul::Init: the tiling is nullptr");
    t_ = *tiling;
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.baseM % 16 != 0 || t_.baseN % 16 != 0 ||
        static_cast<uint32_t>(t_.baseK) % kK0 != 0)
      detail::fault("Matmul::Init: baseM and baseN must be positive multiples of 16, baseK of 32 bytes of A");
    if (t_.singleCoreM <= 0 || t_.singleCoreN <= 0 || t_.singleCoreK <= 0)
      detail::fault("Matmul::Init: singleCoreM, singleCoreN and singleCoreK must be positive");
    singleM_ = static_cast<uint32_t>(t_.singleCoreM);
    singleN_ = static_cast<uint32_t>(t_.singleCoreN);
    singleK_ = static_cast<uint32_t>(t_.singleCoreK);
    orgM_ = static_cast<uint32_t>(std::max(t_.M, 1));
    orgN_ = static_cast<uint32_t>(std::max(t_.N, 1));
    orgKa_ = static_cast<uint32_t>(std::max(t_.Ka, 1));
    orgKb_ = static_cast<uint32_t>(std::max(t_.Kb, 1));
    baseM_ = static_cast<uint32_t>(t_.baseM);
    baseN_ = static_cast<uint32_t>(t_.baseN);
    baseK_ = static_cast<uint32_t>(t_.baseK);
    blockA_ = baseM_ * baseK_;
    blockB_ = baseK_ * baseN_;
    stepKa_ = static_cast<uint32_t>(std::max(t_.stepKa, 1));
    stepKb_ = static_cast<uint32_t>(std::max(t_.stepKb, 1));
    stepM_ = static_cast<uint32_t>(std::max(t_.stepM, 1));
    stepN_ = static_cast<uint32_t>(std::max(t_.stepN, 1));
    // Buffers are taken once per object (again only if a later Init needs more).
    const uint64_t needA = uint64_t{blockA_} * stepKa_ * stepM_, needB = uint64_t{blockB_} * stepKb_ * stepN_;
    if (needA > capA_ || needB > capB_ || (t_.isBias && !l1Bias_)) {
      l1A_ = detail::localAlloc<SrcAT>(NPUSIM_KERNEL_MEM_L1, capA_ = needA);
      l1B_ = detail::localAlloc<SrcBT>(NPUSIM_KERNEL_MEM_L1, capB_ = needB);
      if (t_.isBias) l1Bias_ = detail::localAlloc<BiasT>(NPUSIM_KERNEL_MEM_L1, baseN_);
      l0a_ = detail::localAlloc<SrcAT>(NPUSIM_KERNEL_MEM_L0A, blockA_);
      l0b_ = detail::localAlloc<SrcBT>(NPUSIM_KERNEL_MEM_L0B, blockB_);
      l0c_ = detail::localAlloc<L0cT>(NPUSIM_KERNEL_MEM_L0C, uint64_t{baseM_} * baseN_);
    }
    aPanels_.assign(stepM_, -1);
    bPanels_.assign(stepN_, -1);
    forget();
  }

  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0)
      detail::fault("Matmul::SetOrgShape: sizes must be positive");
    orgM_ = static_cast<uint32_t>(orgM);
    orgN_ = static_cast<uint32_t>(orgN);
    orgKa_ = static_cast<uint32_t>(orgKa);
    orgKb_ = static_cast<uint32_t>(orgKb);
    forget();
  }
  __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK) {
    SetTail(singleM, singleN, singleK);
  }
  // This core's part when it is smaller than singleCoreM x singleCoreN x singleCoreK (the last
  // core's); -1 keeps a size.
  __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) singleM_ = static_cast<uint32_t>(tailM);
    if (tailN > 0) singleN_ = static_cast<uint32_t>(tailN);
    if (tailK > 0) singleK_ = static_cast<uint32_t>(tailK);
    forget();
  }

  __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    if (kAInUb)
      detail::fault("Matmul::SetTensorA: A's MatmulType names the unified buffer; pass a LocalTensor");
    a_ = gm.GetPhyAddr();
    aEnd_ = nullptr;
    transA_ = A_TYPE::isTrans || isTransposeA;
    forget();
  }
  __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    if (kBInUb)
      detail::fault("Matmul::SetTensorB: B's MatmulType names the unified buffer; pass a LocalTensor");
    b_ = gm.GetPhyAddr();
    bEnd_ = nullptr;
    transB_ = B_TYPE::isTrans || isTransposeB;
    forget();
  }
  // A or B in the unified buffer (MatmulType position VECIN/VECOUT/VECCALC), stored as in GM.
  __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& ub, bool isTransposeA = false) {
    a_ = localSource(ub, kAInUb);
    aEnd_ = a_ + ub.GetSize();
    transA_ = A_TYPE::isTrans || isTransposeA;
    forget();
  }
  __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& ub, bool isTransposeB = false) {
    b_ = localSource(ub, kBInUb);
    bEnd_ = b_ + ub.GetSize();
    transB_ = B_TYPE::isTrans || isTransposeB;
    forget();
  }
  // The batches IterateBatch's shorter form computes (else the tiling's, SetBatchInfoForNormal).
  __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB) {
    if (batchA <= 0 || batchB <= 0) detail::fault("Matmul::SetBatchNum: batch counts must be positive");
    batchA_ = static_cast<uint32_t>(batchA);
    batchB_ = static_cast<uint32_t>(batchB);
  }
  __aicore__ inline void SetBias(const GlobalTensor<BiasT>& gm) {
    if (!l1Bias_)
      detail::fault("Matmul::SetBias: the tiling was made without a bias (SetBias(true) on the host)");
    bias_ = gm.GetPhyAddr();
  }
  __aicore__ inline void DisableBias() { bias_ = nullptr; }
  __aicore__ inline void ClearBias() { bias_ = nullptr; }
  // 310P's unified-buffer staging and the AIV sub-block: nothing to do on npusim's A2 model.
  __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
  __aicore__ inline void SetSubBlockIdx(uint8_t idx) { subBlock_ = idx; }
  __aicore__ inline uint8_t GetSubBlockIdx() const { return subBlock_; }

  // Computes the next baseM x baseN block of C into L0C: false when every block is done (the
  // next call starts over). The blocks go down M first (iterateOrder 0) or along N first (1).
  // enPartialSum adds to what L0C holds instead of starting from zero (or the bias).
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false) {
    const detail::CubeWork onCube;
    if (!a_ || !b_) detail::fault("Matmul::Iterate: SetTensorA and SetTensorB come first");
    const uint32_t mIters = detail::ceilDiv(singleM_, baseM_), nIters = detail::ceilDiv(singleN_, baseN_);
    if (!iterating_) {
      iterating_ = true;
      cur_ = 0;
    } else {
      ++cur_;
    }
    if (cur_ >= mIters * nIters) {
      iterating_ = false;
      return false;
    }
    if (t_.iterateOrder == 1) {
      mIdx_ = cur_ / nIters;
      nIdx_ = cur_ % nIters;
    } else {
      mIdx_ = cur_ % mIters;
      nIdx_ = cur_ / mIters;
    }
    computeBlock(enPartialSum);
    return true;
  }

  // The block Iterate computed, into GM: at its place in C (rows orgN apart), or, with
  // enSequentialWrite, as the cur-th dense baseM x baseN block. enAtomic 1 adds to what GM holds.
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    const detail::CubeWork onCube;
    requireBlock();
    if (enAtomic > 1) detail::fault("Matmul::GetTensorC: only atomic add (enAtomic 1) is supported");
    // C in ND: at the block's place (rows orgN apart) or, sequentially, as the cur-th dense block.
    // In NZ: at its place in orgM x orgN stored as 16 x 16 fractals (the float default, no channel
    // split).
    constexpr bool nz = C_TYPE::format == CubeFormat::NZ;
    if (nz && enSequentialWrite)
      detail::fault("Matmul::GetTensorC: enSequentialWrite with C in NZ is not supported by npusim");
    detail::MatrixView<DstT> c{gm.GetPhyAddr(), orgM_, orgN_, 16, nz};
    uint32_t r0 = mIdx_ * baseM_, c0 = nIdx_ * baseN_;
    if (enSequentialWrite) {
      c = {gm.GetPhyAddr() + uint64_t{cur_} * baseM_ * baseN_, baseM_, baseN_, 16, false};
      r0 = c0 = 0;
    }
    const bool add = enAtomic || AscendC::detail::atomicAddsTo<DstT>();  // or SetAtomicAdd<DstT>
    for (uint32_t i = 0; i < mv_; ++i)
      for (uint32_t j = 0; j < nv_; ++j) {
        const L0cT v = l0c_[AscendC::detail::nZIndex(i, j, mB_)];
        DstT& o = c.p[c.at(r0 + i, c0 + j)];
        o = add ? static_cast<DstT>(static_cast<L0cT>(o) + v) : static_cast<DstT>(v);
      }
    c.record(NPUSIM_KERNEL_COPY_OUT, r0, mv_, c0, nv_);
  }
  // Into the unified buffer: with enSequentialWrite the block at the tensor's start (rows baseN
  // apart), else at its place in this core's singleCoreM x singleCoreN part of C.
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    const detail::CubeWork onCube;
    requireBlock();
    if (C_TYPE::format != CubeFormat::ND)
      detail::fault("Matmul::GetTensorC: C in the unified buffer is supported in ND only by npusim");
    if (npusimKernelLocalMemory(c.GetPhyAddr()) != NPUSIM_KERNEL_MEM_UB)
      detail::fault(
          "Matmul::GetTensorC: the LocalTensor must be in the unified buffer (VECIN/VECOUT/VECCALC/CO2)");
    if (enAtomic > 1) detail::fault("Matmul::GetTensorC: only atomic add (enAtomic 1) is supported");
    uint64_t first = 0, row = baseN_;
    if (!enSequentialWrite) {
      first = uint64_t{mIdx_} * baseM_ * singleN_ + uint64_t{nIdx_} * baseN_;
      row = singleN_;
    }
    AscendC::detail::checkCount(first + (mv_ - 1) * row + nv_, c.GetSize(),
                                "Matmul::GetTensorC: the block runs past the LocalTensor");
    DstT* out = c.GetPhyAddr() + first;
    for (uint32_t i = 0; i < mv_; ++i)
      for (uint32_t j = 0; j < nv_; ++j) {
        const L0cT v = l0c_[AscendC::detail::nZIndex(i, j, mB_)];
        DstT& o = out[i * row + j];
        o = enAtomic ? static_cast<DstT>(static_cast<L0cT>(o) + v) : static_cast<DstT>(v);
      }
    npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, uint64_t{mv_} * nv_ * sizeof(DstT), nullptr);
  }

  // Every block of this core's C, into GM (GetTensorC's placement).
  template <bool sync = true>
  __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false, bool waitIterateAll = false,
                                    bool fakeMsg = false) {
    (void)waitIterateAll;
    (void)fakeMsg;
    const detail::CubeWork onCube;
    while (Iterate<sync>()) GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
  }
  template <bool sync = true>
  __aicore__ inline void IterateAll(const LocalTensor<DstT>& ub, uint8_t enAtomic = 0) {
    const detail::CubeWork onCube;
    while (Iterate<sync>()) GetTensorC<sync>(ub, enAtomic, false);
  }
  // batchNum = max(batchA, batchB) products of this core's singleCoreM x singleCoreN x singleCoreK,
  // each as IterateAll, in the NORMAL (BMNK) layout: product i takes A matrix i / (batchNum /
  // batchA) and B matrix i / (batchNum / batchB) (the smaller count is broadcast),
  // matrixStrideA/B/C elements apart (0: each matrix's own size, dense), and bias row i (orgN
  // apart). BSNGD, SBNGD and BNGS1S2 end the kernel as not supported.
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    const detail::CubeWork onCube;
    if (A_TYPE::layout != LayoutMode::NORMAL || B_TYPE::layout != LayoutMode::NORMAL ||
        C_TYPE::layout != LayoutMode::NORMAL)
      detail::fault(
          A_TYPE::layout == LayoutMode::NONE
              ? "Matmul::IterateBatch: the MatmulTypes name no batch layout (LayoutMode::NORMAL)"
              : "Matmul::IterateBatch: npusim supports the NORMAL layout only (not BSNGD, SBNGD, BNGS1S2)");
    if (enSequentialWrite)
      detail::fault("Matmul::IterateBatch: enSequentialWrite is not supported by npusim");
    if (batchA == 0 || batchB == 0 || (batchA % batchB != 0 && batchB % batchA != 0))
      detail::fault("Matmul::IterateBatch: batchA and batchB must be positive, one a multiple of the other");
    if (!a_ || !b_) detail::fault("Matmul::IterateBatch: SetTensorA and SetTensorB come first");
    SrcAT* const a0 = a_;
    SrcBT* const b0 = b_;
    BiasT* const bias0 = bias_;
    const uint32_t batches = std::max(batchA, batchB);
    const uint64_t strideA = matrixStrideA ? matrixStrideA : viewA().extent();
    const uint64_t strideB = matrixStrideB ? matrixStrideB : viewB().extent();
    const uint64_t strideC =
        matrixStrideC
            ? matrixStrideC
            : detail::MatrixView<DstT>{nullptr, orgM_, orgN_, 16, C_TYPE::format == CubeFormat::NZ}.extent();
    for (uint32_t i = 0; i < batches; ++i) {
      a_ = a0 + i / (batches / batchA) * strideA;
      b_ = b0 + i / (batches / batchB) * strideB;
      if (bias0) bias_ = bias0 + uint64_t{i} * orgN_;
      forget();
      GlobalTensor<DstT> c;
      c.SetGlobalBuffer(gm.GetPhyAddr() + i * strideC);
      while (Iterate<sync>(enPartialSum)) GetTensorC<sync>(c, enAtomic, false);
    }
    a_ = a0;
    b_ = b0;
    bias_ = bias0;
    forget();
  }
  // The shorter form: the batch counts of SetBatchNum, else the tiling's (SetBatchInfoForNormal).
  __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
    const uint32_t batchA = batchA_ ? batchA_ : static_cast<uint32_t>(std::max(t_.ALayoutInfoB, 0));
    const uint32_t batchB = batchB_ ? batchB_ : static_cast<uint32_t>(std::max(t_.BLayoutInfoB, 0));
    IterateBatch<true>(gm, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                       enPartialSum, enAtomic);
  }
  __aicore__ inline void WaitIterateBatch() {}
  __aicore__ inline void WaitIterateAll() {}
  __aicore__ inline void End() {
    iterating_ = false;
    forget();
  }

 private:
  __aicore__ inline void requireBlock() const {
    if (!iterating_) detail::fault("Matmul::GetTensorC: no block computed (Iterate first)");
  }
  // The L1 contents no longer match A or B (new tensors or shapes).
  __aicore__ inline void forget() {
    std::fill(aPanels_.begin(), aPanels_.end(), -1);
    std::fill(bPanels_.begin(), bPanels_.end(), -1);
    iterating_ = false;
  }

  // A and B as stored: A is orgM x orgKa (orgKa x orgM transposed), B orgKb x orgN (orgN x orgKb).
  __aicore__ inline detail::MatrixView<SrcAT> viewA() const {
    return {a_, transA_ ? orgKa_ : orgM_, transA_ ? orgM_ : orgKa_, kK0, A_TYPE::format == CubeFormat::NZ};
  }
  __aicore__ inline detail::MatrixView<SrcBT> viewB() const {
    return {b_, transB_ ? orgN_ : orgKb_, transB_ ? orgKb_ : orgN_, kK0, B_TYPE::format == CubeFormat::NZ};
  }
  template <class T>
  __aicore__ inline T* localSource(const LocalTensor<T>& ub, bool typeInUb) const {
    if (!typeInUb)
      detail::fault(
          "Matmul::SetTensorA/B: the MatmulType names GM; a LocalTensor needs VECIN/VECOUT/VECCALC");
    if (npusimKernelLocalMemory(ub.GetPhyAddr()) != NPUSIM_KERNEL_MEM_UB)
      detail::fault("Matmul::SetTensorA/B: the LocalTensor must be in the unified buffer");
    return ub.GetPhyAddr();
  }
  // A block read from the stored matrix: from GM the MTE2's bursts; from the unified buffer a local
  // move into L1 at the MTE1's rate (npusim's simplification: the A2 passes it through GM).
  template <class T>
  __aicore__ inline void recordRead(const detail::MatrixView<T>& v, const T* end, uint32_t r0, uint32_t rn,
                                    uint32_t c0, uint32_t cn) const {
    if (!end) return v.record(NPUSIM_KERNEL_COPY_IN, r0, rn, c0, cn);
    if (v.p + v.at(r0 + rn - 1, c0 + cn - 1) >= end)
      detail::fault("Matmul: the matrix runs past its LocalTensor in the unified buffer");
    npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, uint64_t{rn} * cn * sizeof(T), nullptr);
  }

  // GM -> L1: K step s of A's block row mIdx in zZ (ND to NZ on the MTE2), zero past the edges.
  __aicore__ inline void loadA(uint32_t s, uint32_t slot) {
    const uint32_t m0 = mIdx_ * baseM_, k0 = s * baseK_;
    const uint32_t kv = std::min(baseK_, singleK_ - k0), kB = detail::ceilDiv(kv, kK0);
    SrcAT* dst = l1A_ + uint64_t{slot} * blockA_;
    const detail::MatrixView<SrcAT> v = viewA();
    // The stored rows are A's, or with transposition K's.
    if (transA_)
      recordRead(v, aEnd_, k0, kv, m0, mv_);
    else
      recordRead(v, aEnd_, m0, mv_, k0, kv);
    for (uint32_t i = 0; i < mB_ * 16; ++i)
      for (uint32_t kk = 0; kk < kB * kK0; ++kk)
        dst[AscendC::detail::zZIndex<SrcAT>(i, kk, kB)] =
            i < mv_ && kk < kv ? a_[transA_ ? v.at(k0 + kk, m0 + i) : v.at(m0 + i, k0 + kk)] : SrcAT(0);
  }
  // GM -> L1: K step s of B's block column nIdx in zN.
  __aicore__ inline void loadB(uint32_t s, uint32_t slot) {
    const uint32_t n0 = nIdx_ * baseN_, k0 = s * baseK_;
    const uint32_t kv = std::min(baseK_, singleK_ - k0), kB = detail::ceilDiv(kv, kK0);
    SrcBT* dst = l1B_ + uint64_t{slot} * blockB_;
    const detail::MatrixView<SrcBT> v = viewB();
    if (transB_)
      recordRead(v, bEnd_, n0, nv_, k0, kv);
    else
      recordRead(v, bEnd_, k0, kv, n0, nv_);
    for (uint32_t kk = 0; kk < kB * kK0; ++kk)
      for (uint32_t j = 0; j < nB_ * 16; ++j)
        dst[AscendC::detail::zNIndex<SrcBT>(kk, j, nB_)] =
            kk < kv && j < nv_ ? b_[transB_ ? v.at(n0 + j, k0 + kk) : v.at(k0 + kk, n0 + j)] : SrcBT(0);
  }
  // L1 -> L0A / L0B (MTE1), at most 255 fractals per LoadData.
  template <class T>
  __aicore__ inline void toL0(T* l0, uint32_t l0Elems, T* l1, uint32_t l1Elems, uint32_t fractals) {
    constexpr uint32_t frac = 512 / sizeof(T);
    for (uint32_t done = 0; done < fractals;) {
      const uint32_t n = std::min(kMaxRepeat, fractals - done);
      AscendC::LoadData2DParams p;
      p.repeatTimes = static_cast<uint8_t>(n);
      p.srcStride = 1;
      AscendC::LoadData(LocalTensor<T>(l0 + done * frac, l0Elems - done * frac),
                        LocalTensor<T>(l1 + done * frac, l1Elems - done * frac), p);
      done += n;
    }
  }

  // One block of C: the K steps in order, each A and B block loaded into L1 unless its panel (all
  // K steps of a block row of A / column of B, when stepKa / stepKb cover them) is there. L1
  // keeps stepM row panels of A (row i in place i mod stepM) and stepN column panels of B.
  __aicore__ inline void computeBlock(bool partialSum) {
    mv_ = std::min(baseM_, singleM_ - mIdx_ * baseM_);
    nv_ = std::min(baseN_, singleN_ - nIdx_ * baseN_);
    mB_ = detail::ceilDiv(mv_, 16);
    nB_ = detail::ceilDiv(nv_, 16);
    const uint32_t kSteps = detail::ceilDiv(singleK_, baseK_);
    const bool panelA = stepKa_ >= kSteps, panelB = stepKb_ >= kSteps;
    const uint32_t placeA = mIdx_ % stepM_, placeB = nIdx_ % stepN_;
    const uint32_t firstA = panelA ? placeA * stepKa_ : 0, firstB = panelB ? placeB * stepKb_ : 0;
    if (panelA && aPanels_[placeA] != int64_t{mIdx_}) {
      for (uint32_t s = 0; s < kSteps; ++s) loadA(s, firstA + s);
      aPanels_[placeA] = mIdx_;
    }
    if (panelB && bPanels_[placeB] != int64_t{nIdx_}) {
      for (uint32_t s = 0; s < kSteps; ++s) loadB(s, firstB + s);
      bPanels_[placeB] = nIdx_;
    }
    const bool withBias = bias_ != nullptr && !partialSum;
    if (withBias) {
      // The bias row into L1 (MTE2), then into L0C as the starting value of every row.
      const uint32_t n0 = nIdx_ * baseN_;
      for (uint32_t j = 0; j < nv_; ++j) l1Bias_[j] = bias_[n0 + j];
      npusimKernelRecord(NPUSIM_KERNEL_COPY_IN, uint64_t{nv_} * sizeof(BiasT), &bias_[n0]);
      for (uint32_t i = 0; i < mB_ * 16; ++i)
        for (uint32_t j = 0; j < nB_ * 16; ++j)
          l0c_[AscendC::detail::nZIndex(i, j, mB_)] = j < nv_ ? static_cast<L0cT>(l1Bias_[j]) : L0cT(0);
      npusimKernelRecord(NPUSIM_KERNEL_LOCAL_MOVE, uint64_t{nB_} * 16 * sizeof(BiasT), nullptr);
    }
    for (uint32_t s = 0; s < kSteps; ++s) {
      const uint32_t kv = std::min(baseK_, singleK_ - s * baseK_), kB = detail::ceilDiv(kv, kK0);
      const uint32_t slotA = panelA ? firstA + s : s % stepKa_, slotB = panelB ? firstB + s : s % stepKb_;
      if (!panelA) loadA(s, slotA);
      if (!panelB) loadB(s, slotB);
      toL0(l0a_, blockA_, l1A_ + uint64_t{slotA} * blockA_, blockA_, mB_ * kB);
      toL0(l0b_, blockB_, l1B_ + uint64_t{slotB} * blockB_, blockB_, kB * nB_);
      const bool init = s == 0 && !withBias && !partialSum;
      AscendC::Mmad(LocalTensor<L0cT>(l0c_, baseM_ * baseN_), LocalTensor<SrcAT>(l0a_, blockA_),
                    LocalTensor<SrcBT>(l0b_, blockB_),
                    AscendC::MmadParams(static_cast<uint16_t>(mv_), static_cast<uint16_t>(nv_),
                                        static_cast<uint16_t>(kv), 0, false, init));
    }
  }

  TCubeTiling t_;
  uint32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  uint32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  uint32_t baseM_ = 0, baseN_ = 0, baseK_ = 0, blockA_ = 0, blockB_ = 0;
  uint32_t stepKa_ = 1, stepKb_ = 1, stepM_ = 1, stepN_ = 1;
  uint64_t capA_ = 0, capB_ = 0;  // elements of L1 taken for A and B
  SrcAT* a_ = nullptr;
  SrcBT* b_ = nullptr;
  const SrcAT* aEnd_ = nullptr;  // the end of A's LocalTensor when A is in the unified buffer
  const SrcBT* bEnd_ = nullptr;
  uint32_t batchA_ = 0, batchB_ = 0;  // SetBatchNum (0: the tiling's)
  BiasT* bias_ = nullptr;
  bool transA_ = false, transB_ = false;
  SrcAT* l1A_ = nullptr;
  SrcBT* l1B_ = nullptr;
  BiasT* l1Bias_ = nullptr;
  SrcAT* l0a_ = nullptr;
  SrcBT* l0b_ = nullptr;
  L0cT* l0c_ = nullptr;
  std::vector<int64_t> aPanels_, bPanels_;  // the block row of A / column of B each L1 panel holds
  bool iterating_ = false;
  uint32_t cur_ = 0, mIdx_ = 0, nIdx_ = 0;
  uint32_t mv_ = 0, nv_ = 0, mB_ = 0, nB_ = 0;  // the current block's valid rows, columns, fractals
  uint8_t subBlock_ = 0;
};

// The name kernels use (CANN's client object forwards to the implementation; npusim's is it).
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = void>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

}  // namespace matmul

#endif  // NPUSIM_ASCENDC_MATMUL_H_
