#include "models/hbm/hbm_params.h"

#include <stdexcept>

#include "models/hbm/hbm_address_map.h"

namespace npusim {

namespace {

bool isPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("HBM parameters: " + what);
}

}  // namespace

uint64_t HbmParams::rowsPerBank() const {
  uint64_t perRow = static_cast<uint64_t>(numPseudoChannels()) * banksPerPseudoChannel() * rowBytes;
  return perRow ? capacityBytes / perRow : 0;
}

double HbmParams::peakBytesPerSec() const {
  return numPseudoChannels() * static_cast<double>(timing.burstBytes) / (timing.tBURST * 1e-9);
}

void HbmParams::validate() const {
  require(stacks >= 1 && channelsPerStack >= 1 && pseudoChannels >= 1,
          "hbm.stacks, hbm.channels_per_stack and hbm.pseudo_channels must be >= 1");
  require(bankGroups >= 1 && bankGroups <= 64 && banksPerGroup >= 1,
          "hbm.bank_groups must be in 1..64 and hbm.banks_per_group >= 1");
  require(timing.burstBytes > 0 && timing.tBURST > 0, "hbm.timing needs burstBytes > 0 and tBURST > 0");
  require(isPowerOfTwo(rowBytes), "hbm.row_bytes must be a power of two");
  require(isPowerOfTwo(interleaveBytes), "hbm.interleave_bytes must be a power of two");
  require(interleaveBytes % timing.burstBytes == 0, "hbm.interleave_bytes must be a multiple of the " +
                                                        std::to_string(timing.burstBytes) +
                                                        " B column access");
  require(interleaveBytes <= rowBytes, "hbm.interleave_bytes must not exceed hbm.row_bytes");
  uint64_t perRow = static_cast<uint64_t>(numPseudoChannels()) * banksPerPseudoChannel() * rowBytes;
  require(capacityBytes >= perRow && capacityBytes % perRow == 0,
          "hbm.capacity_bytes must be a multiple of pseudo-channels x banks x hbm.row_bytes (" +
              std::to_string(perRow) + ")");
  require(timing.tREFI > timing.tRFC + timing.tRP || !refresh,
          "tREFI must exceed tRFC + tRP (hbm.timing_overrides)");
  require(refreshPostpone >= 0 && refreshPostpone <= 64, "hbm.refresh_postpone must be in 0..64");
  require(writeHigh >= 0 && writeHigh <= 1024 && writeLow >= 0 && writeLow < (writeHigh > 0 ? writeHigh : 1),
          "hbm.write_high must be in 0..1024 and hbm.write_low below it");
  require(!perBankRefresh || !refresh || timing.tREFI / banksPerPseudoChannel() > timing.tRFCsb,
          "per-bank refresh needs tREFI / banks > tRFCsb (hbm.timing_overrides)");
  require(reorderHoles >= 0 && reorderHoles <= 32, "hbm.reorder_holes must be in 0..32");
  HbmAddressMap::check(*this);  // throws on a bad field order or bit map
}

}  // namespace npusim
