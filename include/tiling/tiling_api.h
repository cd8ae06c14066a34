#ifndef NPUSIM_TILING_API_H_
#define NPUSIM_TILING_API_H_
// The host matmul tiling library (CANN's tiling_api: matmul_tiling::MatmulApiTiling and
// MultiCoreMatmulTiling) that a kernel's host code runs to fill the TCubeTiling its Matmul
// object reads (lib/matmul_intf.h). It tiles for the simulated device: buffer sizes and core
// counts come from the preset through PlatformAscendC. How it chooses: docs/kernels.md,
// "The Matmul API". Implemented in libascendcl (the link name tiling_api points there).
#include <cstddef>
#include <cstdint>

#include "../ascendc/kernel_tiling/kernel_tiling.h"
#include "platform/platform_ascendc.h"

namespace optiling {

// The host's tiling data: one int32 field per TCubeTiling field with set_/get_ accessors, saved
// to a buffer in field order (the layout of the kernel's struct).
class TCubeTiling {
 public:
#define NPUSIM_TCUBE_ACCESSORS(name)             \
  void set_##name(int32_t v) { data_.name = v; } \
  int32_t get_##name() const { return data_.name; }
  NPUSIM_TCUBE_TILING_FIELDS(NPUSIM_TCUBE_ACCESSORS)
#undef NPUSIM_TCUBE_ACCESSORS
  size_t GetDataSize() const { return sizeof(data_); }
  // Writes the fields to `buf` (at most `size` bytes: a shorter buffer gets the first fields).
  void SaveToBuffer(void* buf, size_t size) const;
  const ::TCubeTiling& data() const { return data_; }

 private:
  ::TCubeTiling data_;
};

}  // namespace optiling

namespace matmul_tiling {

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_BFLOAT16 = 33,
  DT_MAX = 40
};
enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX
};
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
// NOSET: the library chooses (npusim: M first). FIRSTM: the blocks of C go down M first.
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform);
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  // The matmul to tile (for MultiCoreMatmulTiling: the whole one, split over the cores).
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  // The full matrices in GM, when the matmul works on a part of them (their row strides).
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t SetBias(bool isBiasIn = false);
  int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
  // Fixed base block sizes; -1 lets the library choose.
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  // The L1, L0C and unified-buffer bytes the matmul may use; -1: all the core has.
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  // The NORMAL (BMNK) batch layout IterateBatch reads: batchA matrices of A (m x k), batchB of
  // B (k x n), one a multiple of the other; recorded in the tiling's layout fields.
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);
  int32_t SetMadType(MatrixMadType madType);
  int32_t GetBaseM() const { return baseM_; }
  int32_t GetBaseN() const { return baseN_; }
  int32_t GetBaseK() const { return baseK_; }

  // Fills `tiling`; 0 on success, -1 (with the reason on stderr) for a shape, type or buffer
  // space it cannot tile.
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  virtual int64_t GetTiling(::TCubeTiling& tiling) = 0;

 protected:
  struct Operand {
    TPosition pos = TPosition::GM;
    CubeFormat format = CubeFormat::ND;
    DataType type = DataType::DT_FLOAT16;
    bool trans = false;
    bool set = false;
  };
  // Tiles a single-core shape (singleM x singleN x singleK of the whole m x n x k) into `out`.
  void load(const platform_ascendc::PlatformAscendC& platform);
  int64_t tileCore(int32_t singleM, int32_t singleN, int32_t singleK, int32_t usedCores, ::TCubeTiling& out);

  Operand a_, b_, c_, bias_;
  int32_t m_ = 0, n_ = 0, k_ = 0;
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  bool isBias_ = false;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  int64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0;  // the core's (PlatformAscendC)
  int64_t useL1_ = -1, useL0c_ = -1, useUb_ = -1;          // SetBufferSpace (-1: the core's)
  int32_t aic_ = 0;                                        // cube cores
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  int32_t batchA_ = 0, batchB_ = 0, batchM_ = 0, batchN_ = 0, batchK_ = 0;  // SetBatchInfoForNormal
  int32_t baseM_ = 0, baseN_ = 0, baseK_ = 0;
  bool platformOk_ = false;
};

// One core computes the whole shape.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() = default;
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& platform)
      : MatmulApiTilingBase(platform) {}
  using MatmulApiTilingBase::GetTiling;
  int64_t GetTiling(::TCubeTiling& tiling) override;
};

// The shape is split over up to SetDim cores along M and N (each core gets singleCoreM x
// singleCoreN x K); usedCoreNum says how many pieces there are.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() = default;
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
      : MatmulApiTilingBase(platform) {}
  int32_t SetDim(int32_t dim);
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const;
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const;
  using MatmulApiTilingBase::GetTiling;
  int64_t GetTiling(::TCubeTiling& tiling) override;

 private:
  int32_t dim_ = 0;
  int32_t fixSingleM_ = -1, fixSingleN_ = -1, fixSingleK_ = -1;
  int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0, mDim_ = 0, nDim_ = 0;
};

}  // namespace matmul_tiling

#endif  // NPUSIM_TILING_API_H_
