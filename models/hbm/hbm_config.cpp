// Reads the hbm.* keys of a configuration into HbmParams.
#include <stdexcept>

#include "models/hbm/hbm_params.h"
#include "npusim/config.h"

namespace npusim {

HbmParams hbmParamsFromConfig(const Config& cfg) {
  HbmParams p;
  p.timing = hbmTimingPreset(cfg.getString("hbm.timing"));
  applyHbmTimingOverrides(&p.timing, cfg.getString("hbm.timing_overrides"));
  p.stacks = static_cast<int>(cfg.getInt("hbm.stacks"));
  p.channelsPerStack = static_cast<int>(cfg.getInt("hbm.channels_per_stack"));
  p.pseudoChannels = static_cast<int>(cfg.getInt("hbm.pseudo_channels"));
  p.bankGroups = static_cast<int>(cfg.getInt("hbm.bank_groups"));
  p.banksPerGroup = static_cast<int>(cfg.getInt("hbm.banks_per_group"));
  p.rowBytes = static_cast<uint64_t>(cfg.getInt("hbm.row_bytes"));
  p.capacityBytes = static_cast<uint64_t>(cfg.getInt("hbm.capacity_bytes"));
  p.interleaveBytes = static_cast<uint64_t>(cfg.getInt("hbm.interleave_bytes"));
  p.addressMap = cfg.getString("hbm.address_map");
  p.bankSwizzle = cfg.getBool("hbm.bank_swizzle");
  std::string policy = cfg.getString("hbm.page_policy");
  if (policy != "open" && policy != "closed")
    throw std::invalid_argument("parameter 'hbm.page_policy' must be 'open' or 'closed'");
  p.openPage = policy == "open";
  p.refresh = cfg.getBool("hbm.refresh");
  p.refreshStagger = cfg.getBool("hbm.refresh_stagger");
  std::string mode = cfg.getString("hbm.refresh_mode");
  if (mode != "all_bank" && mode != "per_bank")
    throw std::invalid_argument("parameter 'hbm.refresh_mode' must be 'all_bank' or 'per_bank'");
  p.perBankRefresh = mode == "per_bank";
  p.writeHigh = static_cast<int>(cfg.getInt("hbm.write_high"));
  p.writeLow = static_cast<int>(cfg.getInt("hbm.write_low"));
  p.refreshPostpone = static_cast<int>(cfg.getInt("hbm.refresh_postpone"));
  p.reorderHoles = static_cast<int>(cfg.getInt("hbm.reorder_holes"));
  p.validate();
  return p;
}

}  // namespace npusim
