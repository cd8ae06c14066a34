#pragma once
// JEDEC-style HBM timing of one pseudo-channel, in nanoseconds, and the named timing sets the
// simulator ships (hbm2-2000, hbm2-2000-vega, hbm2e-3200, hbm3-6400). Every value's source is in
// hbm_timing.cpp. Pure data: no SystemC.
#include <cstdint>
#include <string>
#include <vector>

namespace npusim {

struct HbmTiming {
  std::string name;
  double dataRateGbps = 0;  // per pin; informational (tBURST carries the bus speed)
  double tCK = 0;           // command clock period
  uint32_t burstBytes = 0;  // bytes moved by one column access on a pseudo-channel
  double tBURST = 0;        // data-bus time of one column access
  double tCL = 0;           // read command to first read data
  double tCWL = 0;          // write command to first write data
  double tRCDRD = 0;        // ACT to read command
  double tRCDWR = 0;        // ACT to write command
  double tRP = 0;           // PRE to ACT (same bank)
  double tRAS = 0;          // ACT to PRE (same bank)
  double tRC = 0;           // ACT to ACT (same bank)
  double tWR = 0;           // end of write data to PRE (write recovery)
  double tRTP = 0;          // read command to PRE
  double tCCD_S = 0;        // column to column, different bank groups
  double tCCD_L = 0;        // column to column, same bank group
  double tRRD_S = 0;        // ACT to ACT, different bank groups
  double tRRD_L = 0;        // ACT to ACT, same bank group
  double tFAW = 0;          // window holding at most four ACTs (per pseudo-channel)
  double tWTR_S = 0;        // end of write data to read command, different bank groups
  double tWTR_L = 0;        // end of write data to read command, same bank group
  double tRTW = 0;          // read command to write command
  double tREFI = 0;         // all-bank refresh interval
  double tRFC = 0;          // all-bank refresh duration
  double tRFCsb = 0;        // per-bank (single-bank) refresh duration
  double tACTcmd = 0;       // row command bus time of an ACT (PRE and REF take one tCK)
};

// The named timing sets; throws std::invalid_argument (listing the names) for an unknown name.
HbmTiming hbmTimingPreset(const std::string& name);
const std::vector<std::string>& hbmTimingPresetNames();

// Applies "tRFC=260;tFAW=16" (values in ns, names as the HbmTiming fields; ',' or ';' between
// items, optional surrounding brackets) to `t`. Throws std::invalid_argument naming the bad item.
void applyHbmTimingOverrides(HbmTiming* t, const std::string& spec);

}  // namespace npusim
