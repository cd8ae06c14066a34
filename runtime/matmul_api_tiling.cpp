// The host matmul tiling library (include/tiling/tiling_api.h; docs/kernels.md, "The Matmul API").
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "tiling/tiling_api.h"

void optiling::TCubeTiling::SaveToBuffer(void* buf, size_t size) const {
  if (buf) std::memcpy(buf, &data_, std::min(size, sizeof(data_)));
}

namespace matmul_tiling {

namespace {

constexpr int32_t kFractal = 16;        // rows and columns of a cube fractal (M0, N0)
constexpr int32_t kDefaultBaseM = 128;  // a 128 x 256 fp32 block fills the 128 KiB L0C (docs/aicore.md)
constexpr int32_t kDefaultBaseN = 256;

int32_t bytesOf(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
      return 4;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_BFLOAT16:
      return 2;
    case DataType::DT_INT8:
      return 1;
    default:
      return 0;
  }
}
int32_t alignUp(int32_t v, int32_t a) { return (v + a - 1) / a * a; }
int32_t ceilDiv(int32_t v, int32_t d) { return (v + d - 1) / d; }
int64_t fail(const char* why) {
  std::fprintf(stderr, "npusim: matmul_tiling GetTiling: %s\n", why);
  return -1;
}
bool floatInput(DataType t) {
  return t == DataType::DT_FLOAT16 || t == DataType::DT_BF16 || t == DataType::DT_BFLOAT16 ||
         t == DataType::DT_FLOAT;
}
bool inUnifiedBuffer(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC || p == TPosition::CO2;
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() {
  if (const platform_ascendc::PlatformAscendC* p = platform_ascendc::PlatformAscendCManager::GetInstance())
    load(*p);
}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform) {
  load(platform);
}

void MatmulApiTilingBase::load(const platform_ascendc::PlatformAscendC& platform) {
  uint64_t v = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
  l1_ = static_cast<int64_t>(v);
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v);
  l0a_ = static_cast<int64_t>(v);
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v);
  l0b_ = static_cast<int64_t>(v);
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
  l0c_ = static_cast<int64_t>(v);
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
  ub_ = static_cast<int64_t>(v);
  aic_ = static_cast<int32_t>(platform.GetCoreNumAic());
  platformOk_ = l1_ > 0 && l0a_ > 0 && l0b_ > 0 && l0c_ > 0 && ub_ > 0 && aic_ > 0;
}

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  a_ = {pos, type, dataType, isTrans, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  b_ = {pos, type, dataType, isTrans, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  c_ = {pos, type, dataType, false, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  bias_ = {pos, type, dataType, false, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  m_ = m;
  n_ = n;
  k_ = k;
  return 0;
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  orgM_ = orgMIn;
  orgN_ = orgNIn;
  orgKa_ = orgKaIn;
  orgKb_ = orgKbIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
  isBias_ = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixM_ = baseMIn;
  fixN_ = baseNIn;
  fixK_ = baseKIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize,
                                            int32_t /*btSize*/) {
  useL1_ = l1Size;
  useL0c_ = l0CSize;
  useUb_ = ubSize;
  return 0;
}
int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n,
                                                   int32_t k) {
  if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0 ||
      (batchA % batchB != 0 && batchB % batchA != 0)) {
    std::fprintf(stderr,
                 "npusim: matmul_tiling SetBatchInfoForNormal: batches and sizes must be positive, one batch "
                 "count a multiple of the other\n");
    return -1;
  }
  batchA_ = batchA;
  batchB_ = batchB;
  batchM_ = m;
  batchN_ = n;
  batchK_ = k;
  return 0;
}
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  return madType == MatrixMadType::NORMAL ? 0 : -1;
}

// One core's blocks: the base block (baseM x baseN of C, baseK deep) is the largest that fits
// L0A, L0B (half each, for double buffering) and L0C; the K steps of a block row and column stay
// in L1 when both fit (stepKa = stepKb = all K steps), else one step at a time.
int64_t MatmulApiTilingBase::tileCore(int32_t singleM, int32_t singleN, int32_t singleK, int32_t usedCores,
                                      ::TCubeTiling& out) {
  if (!platformOk_) return fail("the simulated device's buffer sizes could not be read (PlatformAscendC)");
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return fail("SetShape needs M, N and K greater than 0");
  if (!a_.set || !b_.set || !c_.set) return fail("SetAType, SetBType and SetCType come first");
  if (a_.type != b_.type) return fail("A and B must have one data type");
  const bool intMatmul = a_.type == DataType::DT_INT8;
  if (!intMatmul && !floatInput(a_.type)) return fail("A and B must be float16, bfloat16, float or int8");
  if (intMatmul ? c_.type != DataType::DT_INT32
                : !(c_.type == DataType::DT_FLOAT || c_.type == DataType::DT_FLOAT16 ||
                    c_.type == DataType::DT_BF16 || c_.type == DataType::DT_BFLOAT16))
    return fail("C must be int32 for int8 inputs, float, float16 or bfloat16 for the others");
  auto source = [](TPosition p) { return p == TPosition::GM || (inUnifiedBuffer(p) && p != TPosition::CO2); };
  if (!source(a_.pos) || !source(b_.pos))
    return fail("npusim's Matmul reads A and B from GM or the unified buffer (VECIN/VECOUT/VECCALC)");
  auto ndOrNz = [](CubeFormat f) { return f == CubeFormat::ND || f == CubeFormat::NZ; };
  if (!ndOrNz(a_.format) || !ndOrNz(b_.format) || !ndOrNz(c_.format))
    return fail("npusim's Matmul supports the ND and NZ formats only");
  if (inUnifiedBuffer(c_.pos) && c_.format != CubeFormat::ND)
    return fail("npusim's Matmul writes C to the unified buffer in ND only");
  if (isBias_ && bias_.set && bias_.type != (intMatmul ? DataType::DT_INT32 : DataType::DT_FLOAT))
    return fail("the bias must be float (int32 for int8 inputs)");
  const int32_t sa = bytesOf(a_.type), k0 = 32 / sa, accBytes = 4;
  const int64_t l1 = useL1_ > 0 ? std::min<int64_t>(useL1_, l1_) : l1_;
  const int64_t l0c = useL0c_ > 0 ? std::min<int64_t>(useL0c_, l0c_) : l0c_;
  const int64_t ub = useUb_ > 0 ? std::min<int64_t>(useUb_, ub_) : ub_;

  int32_t baseM = fixM_ > 0 ? fixM_ : std::min(kDefaultBaseM, alignUp(singleM, kFractal));
  int32_t baseN = fixN_ > 0 ? fixN_ : std::min(kDefaultBaseN, alignUp(singleN, kFractal));
  if (baseM % kFractal != 0 || baseN % kFractal != 0) return fail("baseM and baseN must be multiples of 16");
  while (int64_t{baseM} * baseN * accBytes > l0c) {
    if (fixM_ > 0 && fixN_ > 0) return fail("baseM x baseN does not fit L0C");
    int32_t& shrink = (fixN_ > 0 || (fixM_ <= 0 && baseM > baseN)) ? baseM : baseN;
    if (shrink <= kFractal) return fail("no base block fits L0C");
    shrink = alignUp(shrink / 2, kFractal);
  }
  int32_t baseK = fixK_;
  if (baseK > 0) {
    if (baseK % k0 != 0) return fail("baseK must be a multiple of 32 bytes of the input type");
  } else {
    const int64_t byA = l0a_ / 2 / (int64_t{baseM} * sa) / k0 * k0;
    const int64_t byB = l0b_ / 2 / (int64_t{baseN} * sa) / k0 * k0;
    baseK = static_cast<int32_t>(std::min<int64_t>({alignUp(singleK, k0), byA, byB}));
    if (baseK < k0) return fail("no base block fits L0A and L0B");
  }
  const int64_t blockA = int64_t{baseM} * baseK * sa, blockB = int64_t{baseK} * baseN * sa;
  if (blockA > l0a_ || blockB > l0b_) return fail("baseM x baseK or baseK x baseN does not fit L0A / L0B");
  const int64_t biasBytes = isBias_ ? int64_t{baseN} * accBytes : 0;
  const int32_t kSteps = ceilDiv(singleK, baseK);
  int32_t stepK = kSteps;
  if ((blockA + blockB) * kSteps + biasBytes > l1) stepK = 1;
  if ((blockA + blockB) * stepK + biasBytes > l1) return fail("one base block of A and B does not fit L1");
  // With whole panels in L1, the rest of L1 keeps the other panels of the operand the traversal
  // comes back to, when all of them fit: A's row panels when the blocks go down M first, B's
  // column panels when along N (a cyclic sweep over more panels than L1 holds reuses none).
  const bool firstN = traverse_ == MatrixTraverse::FIRSTN;
  int32_t stepM = 1, stepN = 1;
  if (stepK == kSteps) {
    const int64_t panel = (firstN ? blockB : blockA) * kSteps, other = (firstN ? blockA : blockB) * kSteps;
    const int32_t blocks = firstN ? ceilDiv(singleN, baseN) : ceilDiv(singleM, baseM);
    const int32_t fit = static_cast<int32_t>(std::min<int64_t>(blocks, (l1 - biasBytes - other) / panel));
    if (fit >= blocks) (firstN ? stepN : stepM) = blocks;  // fewer would be swept out before reuse
  }
  if (inUnifiedBuffer(c_.pos) && int64_t{baseM} * baseN * bytesOf(c_.type) > ub)
    return fail("a baseM x baseN block of C does not fit the unified buffer");

  out = ::TCubeTiling{};
  out.usedCoreNum = usedCores;
  out.M = orgM_ > 0 ? orgM_ : m_;
  out.N = orgN_ > 0 ? orgN_ : n_;
  out.Ka = orgKa_ > 0 ? orgKa_ : k_;
  out.Kb = orgKb_ > 0 ? orgKb_ : k_;
  out.singleCoreM = singleM;
  out.singleCoreN = singleN;
  out.singleCoreK = singleK;
  out.baseM = baseM;
  out.baseN = baseN;
  out.baseK = baseK;
  out.stepM = stepM;
  out.stepN = stepN;
  out.stepKa = out.stepKb = stepK;
  out.depthA1 = stepK * stepM;
  out.depthB1 = stepK * stepN;
  out.isBias = isBias_ ? 1 : 0;
  out.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  out.shareL1Size = static_cast<int32_t>((blockA * stepM + blockB * stepN) * stepK + biasBytes);
  out.shareL0CSize = baseM * baseN * accBytes;
  out.dbL0A = 2 * blockA <= l0a_ ? 2 : 1;
  out.dbL0B = 2 * blockB <= l0b_ ? 2 : 1;
  out.dbL0C = 1;
  if (batchA_ > 0) {  // SetBatchInfoForNormal: A is batchA x (m x k), B batchB x (k x n)
    out.ALayoutInfoB = batchA_;
    out.ALayoutInfoS = batchM_;
    out.ALayoutInfoN = out.ALayoutInfoG = 1;
    out.ALayoutInfoD = batchK_;
    out.BLayoutInfoB = batchB_;
    out.BLayoutInfoS = batchN_;
    out.BLayoutInfoN = out.BLayoutInfoG = 1;
    out.BLayoutInfoD = batchK_;
    out.CLayoutInfoB = std::max(batchA_, batchB_);
    out.CLayoutInfoS1 = batchM_;
    out.CLayoutInfoN = out.CLayoutInfoG = 1;
    out.CLayoutInfoS2 = batchN_;
  }
  baseM_ = baseM;
  baseN_ = baseN;
  baseK_ = baseK;
  return 0;
}

int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& tiling) {
  ::TCubeTiling t;
  const int64_t r = GetTiling(t);
  if (r == 0) {
#define NPUSIM_TCUBE_SET(name) tiling.set_##name(t.name);
    NPUSIM_TCUBE_TILING_FIELDS(NPUSIM_TCUBE_SET)
#undef NPUSIM_TCUBE_SET
  }
  return r;
}

int64_t MatmulApiTiling::GetTiling(::TCubeTiling& tiling) { return tileCore(m_, n_, k_, 1, tiling); }

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  dim_ = dim;
  return dim > 0 ? 0 : -1;
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  fixSingleM_ = singleMIn;
  fixSingleN_ = singleNIn;
  fixSingleK_ = singleKIn;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
  shapeM = singleM_;
  shapeN = singleN_;
  shapeK = singleK_;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
  dim = mDim_ * nDim_;
  mDim = mDim_;
  nDim = nDim_;
  return 0;
}

// The cores split M into mDim and N into nDim pieces (mDim x nDim <= SetDim, default the cube
// cores): the split whose largest piece is smallest, M split first on a tie. Pieces are rounded
// up to 16 rows and columns (to baseM / baseN when those are fixed), so only the last piece of
// each dimension has a tail. K is not split.
int64_t MultiCoreMatmulTiling::GetTiling(::TCubeTiling& tiling) {
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return fail("SetShape needs M, N and K greater than 0");
  const int32_t dim = dim_ > 0 ? dim_ : aic_;
  if (dim <= 0) return fail("SetDim needs at least one core");
  const int32_t alignM = fixM_ > 0 ? fixM_ : kFractal, alignN = fixN_ > 0 ? fixN_ : kFractal;
  int64_t best = -1;
  int32_t bestSplit = 0;
  for (int32_t md = 1; md <= dim; ++md) {
    const int32_t nd = dim / md;
    const int32_t sm = fixSingleM_ > 0 ? fixSingleM_ : alignUp(ceilDiv(m_, md), alignM);
    const int32_t sn = fixSingleN_ > 0 ? fixSingleN_ : alignUp(ceilDiv(n_, nd), alignN);
    const int64_t cost = int64_t{std::min(sm, alignUp(m_, kFractal))} * std::min(sn, alignUp(n_, kFractal));
    if (best < 0 || cost < best || (cost == best && md > bestSplit)) {
      best = cost;
      bestSplit = md;
      mDim_ = ceilDiv(m_, sm);
      nDim_ = ceilDiv(n_, sn);
      singleM_ = std::min(sm, m_);
      singleN_ = std::min(sn, n_);
    }
  }
  singleK_ = fixSingleK_ > 0 ? std::min(fixSingleK_, k_) : k_;
  if (mDim_ * nDim_ > dim) return fail("SetSingleShape leaves more pieces than SetDim cores");
  return tileCore(singleM_, singleN_, singleK_, mDim_ * nDim_, tiling);
}

}  // namespace matmul_tiling
