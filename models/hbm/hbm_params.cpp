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
          "stacks, channels and pseudo-channels must be >= 1");
  require(bankGroups >= 1 && bankGroups <= 64 && banksPerGroup >= 1,
          "bank groups must be in 1..64 and banks per group >= 1");
  require(timing.burstBytes > 0 && timing.tBURST > 0, "timing needs burstBytes > 0 and tBURST > 0");
  require(isPowerOfTwo(rowBytes), "row_bytes must be a power of two");
  require(isPowerOfTwo(interleaveBytes), "interleave_bytes must be a power of two");
  require(
      interleaveBytes % timing.burstBytes == 0,
      "interleave_bytes must be a multiple of the " + std::to_string(timing.burstBytes) + " B column access");
  require(interleaveBytes <= rowBytes, "interleave_bytes must not exceed row_bytes");
  uint64_t perRow = static_cast<uint64_t>(numPseudoChannels()) * banksPerPseudoChannel() * rowBytes;
  require(capacityBytes >= perRow && capacityBytes % perRow == 0,
          "capacity_bytes must be a multiple of pseudo-channels x banks x row_bytes (" +
              std::to_string(perRow) + ")");
  require(timing.tREFI > timing.tRFC + timing.tRP || !refresh, "tREFI must exceed tRFC + tRP");
  require(refreshPostpone >= 0 && refreshPostpone <= 64, "refresh_postpone must be in 0..64");
  require(reorderHoles >= 0 && reorderHoles <= 32, "reorder_holes must be in 0..32");
  HbmAddressMap::parseOrder(addressMap);  // throws on a bad field order
}

}  // namespace npusim
