#pragma once
// Everything that defines one device's HBM: organisation (stacks -> channels -> pseudo-channels
// -> bank groups -> banks -> rows), timing, address interleaving and controller policy.
// Defaults are the 910B preset (configs/910b.json, hardware.md §1.3 and §4).
#include <cstdint>
#include <string>

#include "models/hbm/hbm_timing.h"

namespace npusim {

class Config;

struct HbmParams {
  HbmTiming timing = hbmTimingPreset("hbm2e-3200");
  int stacks = 4;
  int channelsPerStack = 8;
  int pseudoChannels = 2;  // per channel
  int bankGroups = 4;      // per pseudo-channel
  int banksPerGroup = 4;
  uint64_t rowBytes = 1024;                 // page size of one pseudo-channel
  uint64_t capacityBytes = 68719476736ULL;  // 64 GiB
  uint64_t interleaveBytes = 256;           // consecutive chunks go to successive pseudo-channels
  // Order of the fields above the pseudo-channel index, most significant first, '-'-separated:
  // ro (row), ba (bank in group), bg (bank group), co (interleave chunk within the row); or a
  // bit-by-bit map or its name (hbm_address_map.h, docs/hbm.md).
  std::string addressMap = "ro-ba-co-bg";
  // Field-order maps only: the bank and bank-group indices are rotated by the row's low bits
  // (permutation-based interleaving), so streams that start a power-of-two distance apart, e.g.
  // cores each given 1 MiB, open rows in different banks instead of fighting over one.
  bool bankSwizzle = true;
  bool openPage = true;  // false: precharge after every access ("closed")
  bool refresh = true;
  // Per-bank refresh (REFSB: each bank every tREFI for tRFCsb, banks of a pseudo-channel in turn)
  // instead of all-bank refresh (REFAB: the whole pseudo-channel every tREFI for tRFC).
  bool perBankRefresh = false;
  // Write queue per pseudo-channel: writes are posted (accepted at the pseudo-channel's data
  // rate) and, once `writeHigh` segments are queued, drained as one batch down to `writeLow`,
  // so the bus turns around once per batch. An idle pseudo-channel drains them at once.
  // writeHigh 0: no queue, writes are scheduled in call order like reads. The defaults are the
  // 910b preset's (configs/910b.json says why).
  int writeHigh = 64;
  int writeLow = 32;
  // How many tREFI a busy pseudo-channel may postpone a refresh (idle ones refresh on time).
  int refreshPostpone = 8;
  // Stagger refresh due times evenly across pseudo-channels (true) or refresh all together.
  bool refreshStagger = true;
  // Idle holes each shared resource remembers for later requests to fill (see hbm_calendar.h):
  // how far the controller serves ready banks out of order. 0 = strict first-come first-served.
  int reorderHoles = 8;

  int numPseudoChannels() const { return stacks * channelsPerStack * pseudoChannels; }
  int banksPerPseudoChannel() const { return bankGroups * banksPerGroup; }
  uint64_t rowsPerBank() const;
  // Data-bus peak over all pseudo-channels: burstBytes per tBURST each.
  double peakBytesPerSec() const;
  // Throws std::invalid_argument describing the first inconsistency.
  void validate() const;
};

// Reads the hbm.* keys of a configuration (see docs/hbm.md) and validates the result.
HbmParams hbmParamsFromConfig(const Config& cfg);

}  // namespace npusim
