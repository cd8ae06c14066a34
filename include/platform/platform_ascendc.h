#ifndef NPUSIM_PLATFORM_ASCENDC_H_
#define NPUSIM_PLATFORM_ASCENDC_H_
// PlatformAscendC: what a kernel's host tiling code asks of the AI processor (core counts,
// on-core buffer sizes), answered from the simulated system's preset and overrides
// (aicore.vector_cores, aicore.ub_bytes, ...; docs/kernels.md), so a program tiles for the
// device it runs on. Also reached as "tiling/platform/platform_ascendc.h".
#include <cstdint>

#include "ascendc/npusim_kernel_abi.h"

namespace fe {
class PlatFormInfos;
}

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };

class PlatformAscendC {
 public:
  // Operator tiling contexts pass the framework's platform info; npusim's comes from its preset.
  explicit PlatformAscendC(fe::PlatFormInfos* /*platformInfo*/) { loaded_ = load(); }

  // A2 separates cube and vector cores: the core count of a (vector) kernel is the vector cores'.
  uint32_t GetCoreNum() const { return aiv_; }
  uint32_t GetCoreNumAic() const { return aic_; }
  uint32_t GetCoreNumAiv() const { return aiv_; }
  // Stand-alone vector cores exist only on the inference (310P) parts.
  uint32_t GetCoreNumVector() const { return 0; }
  // Blocks to launch for `sliceNum` slices: a mixed cube+vector kernel runs one block per cube core
  // with its vector cores, so its slices are counted in groups of aiv/aic.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum <= aicCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    return (sliceNum + ratio - 1) / ratio;
  }
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
  }
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
    switch (memType) {
      case CoreMemType::L0_A:
        size = l0a_;
        break;
      case CoreMemType::L0_B:
        size = l0b_;
        break;
      case CoreMemType::L0_C:
        size = l0c_;
        break;
      case CoreMemType::L1:
        size = l1_;
        break;
      case CoreMemType::L2:
        size = l2_;
        break;
      case CoreMemType::UB:
        size = ub_;
        break;
      case CoreMemType::HBM:
        size = hbm_;
        break;
      default:
        size = 0;
        break;
    }
  }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  // The system workspace the Ascend C libraries reserve before a kernel's own (16 MiB).
  uint64_t GetLibApiWorkSpaceSize() const { return 16u * 1024 * 1024; }

  bool npusimLoaded() const { return loaded_; }

 private:
  friend class PlatformAscendCManager;
  PlatformAscendC() { loaded_ = load(); }
  static bool get(const char* key, uint64_t& out) {
    int64_t v = 0;
    if (npusimPlatformParam(key, &v) != 0 || v < 0) return false;
    out = static_cast<uint64_t>(v);
    return true;
  }
  bool load() {
    uint64_t aic = 0, aiv = 0;
    const bool ok =
        get("aicore.cube_cores", aic) && get("aicore.vector_cores", aiv) && get("aicore.ub_bytes", ub_) &&
        get("aicore.l1_bytes", l1_) && get("aicore.l0a_bytes", l0a_) && get("aicore.l0b_bytes", l0b_) &&
        get("aicore.l0c_bytes", l0c_) && get("aicore.l2_bytes", l2_) && get("hbm.capacity_bytes", hbm_);
    aic_ = static_cast<uint32_t>(aic);
    aiv_ = static_cast<uint32_t>(aiv);
    return ok;
  }
  bool loaded_ = false;
  uint32_t aic_ = 0, aiv_ = 0;
  uint64_t ub_ = 0, l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, l2_ = 0, hbm_ = 0;
};

class PlatformAscendCManager {
 public:
  // The simulated device's platform; nullptr (with the reason on stderr) when its configuration
  // cannot be read. The SoC name is the preset's whatever is passed (npusim simulates one).
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC platform;
    return platform.npusimLoaded() ? &platform : nullptr;
  }
  static PlatformAscendC* GetInstance(const char* /*customSocVersion*/) { return GetInstance(); }
};

}  // namespace platform_ascendc

#endif  // NPUSIM_PLATFORM_ASCENDC_H_
