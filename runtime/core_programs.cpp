// Program layouts of mixed kernels and the cross-core flag counters (runtime/core_programs.h).
#include "runtime/core_programs.h"

#include <fmt/format.h>

#include "ascendc/npusim_kernel_abi.h"

namespace npusim::rt::kernels {

bool ProgramLayout::declare(int type, uint32_t vectorsPerCube) {
  switch (type) {
    case NPUSIM_KERNEL_TYPE_AIV_ONLY:
    case NPUSIM_KERNEL_TYPE_MIX_AIV_1_0:
    case NPUSIM_KERNEL_TYPE_MIX_VECTOR_CORE:
      aivPerCore = 1, aic = false;
      break;
    case NPUSIM_KERNEL_TYPE_AIC_ONLY:
    case NPUSIM_KERNEL_TYPE_MIX_AIC_1_0:
      aivPerCore = 0, aic = true;
      break;
    case NPUSIM_KERNEL_TYPE_MIX_AIC_1_1:
      aivPerCore = 1, aic = true;
      break;
    case NPUSIM_KERNEL_TYPE_MIX_AIC_1_2:
      aivPerCore = vectorsPerCube, aic = true;
      break;
    default:
      return false;
  }
  typed = true;
  return true;
}

std::string CrossCoreFlags::raise(uint32_t p, int flag, const std::vector<Writer>& from) {
  auto& q = pending_[{p, flag}];
  if (q.size() >= static_cast<size_t>(kMaxPending))
    return fmt::format(
        "CrossCoreSetFlag: flag {} of program {} set more than {} times without a wait (its "
        "counter holds at most {} sets)",
        flag, p, kMaxPending, kMaxPending);
  q.push_back(from);
  return {};
}

std::string CrossCoreFlags::set(const ProgramLayout& layout, uint32_t p, int mode, int flag, Writer w) {
  if (flag < 0 || flag >= kFlags)
    return fmt::format("CrossCoreSetFlag: flag id {} outside 0..{}", flag, kFlags - 1);
  const bool onAic = layout.isAic(p);
  const uint32_t core = layout.core(p);
  // The programs of p's type, or of its AI core, that a completed group raises.
  auto raiseAll = [&](uint32_t first, uint32_t count, const std::vector<Writer>& from) {
    for (uint32_t q = first; q < first + count; ++q)
      if (std::string why = raise(q, flag, from); !why.empty()) return why;
    return std::string{};
  };
  // Collects sets until `need` of them are in, then raises `first .. first + count - 1`.
  auto gather = [&](int64_t group, uint32_t need, uint32_t first, uint32_t count) {
    std::vector<Writer>& in = arrivals_[{mode, group, flag}];
    in.push_back(w);
    if (in.size() < need) return std::string{};
    const std::vector<Writer> from = std::move(in);
    in.clear();
    return raiseAll(first, count, from);
  };
  switch (mode) {
    case 0:  // every program of p's core type meets
      return onAic ? gather(-1, layout.blockDim, layout.aivCount(), layout.blockDim)
                   : gather(-2, layout.aivCount(), 0, layout.aivCount());
    case 1:  // the vector programs of one AI core meet
      if (onAic)
        return fmt::format(
            "CrossCoreSetFlag<1>: mode 1 syncs the vector programs of an AI core; flag {} was set by a cube "
            "program",
            flag);
      return gather(core, layout.aivPerCore, core * layout.aivPerCore, layout.aivPerCore);
    case 2:  // the cube program and the vector programs of one AI core
      if (onAic) {
        if (layout.aivPerCore == 0)
          return fmt::format(
              "CrossCoreSetFlag<2>: flag {} set by a cube program of a kernel without vector programs", flag);
        return raiseAll(core * layout.aivPerCore, layout.aivPerCore, {w});
      }
      if (!layout.aic)
        return fmt::format(
            "CrossCoreSetFlag<2>: flag {} set for the cube program of a kernel without cube programs", flag);
      return gather(core, layout.aivPerCore, layout.aivCount() + core, 1);
    default:
      return fmt::format("CrossCoreSetFlag: mode {} outside 0..2", mode);
  }
}

bool CrossCoreFlags::ready(uint32_t p, int flag) const {
  auto it = pending_.find({p, flag});
  return it != pending_.end() && !it->second.empty();
}

std::vector<CrossCoreFlags::Writer> CrossCoreFlags::take(uint32_t p, int flag) {
  auto& q = pending_[{p, flag}];
  std::vector<Writer> from = std::move(q.front());
  q.pop_front();
  return from;
}

}  // namespace npusim::rt::kernels
