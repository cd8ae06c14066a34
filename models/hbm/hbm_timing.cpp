#include "models/hbm/hbm_timing.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace npusim {

namespace {

// Cycle counts of one preset; converted to ns with its tCK so the table reads like the source.
struct Cycles {
  int bl, cl, cwl, rcdrd, rcdwr, rp, ras, rc, wr, rtp, ccds, ccdl, rrds, rrdl, faw, wtrs, wtrl, rtw;
};

// Row commands (JESD235 / JESD238): ACTIVATE occupies the row command bus for 2 clocks, PRE and
// REF for 1; in pseudo-channel mode both pseudo-channels of a channel share that bus.
HbmTiming fromCycles(const char* name, double gbps, double tck, uint32_t burstBytes, const Cycles& c,
                     double trefiNs, double trfcNs, double trfcsbNs) {
  HbmTiming t;
  t.name = name;
  t.dataRateGbps = gbps;
  t.tCK = tck;
  t.burstBytes = burstBytes;
  t.tBURST = c.bl * tck;
  t.tCL = c.cl * tck;
  t.tCWL = c.cwl * tck;
  t.tRCDRD = c.rcdrd * tck;
  t.tRCDWR = c.rcdwr * tck;
  t.tRP = c.rp * tck;
  t.tRAS = c.ras * tck;
  t.tRC = c.rc * tck;
  t.tWR = c.wr * tck;
  t.tRTP = c.rtp * tck;
  t.tCCD_S = c.ccds * tck;
  t.tCCD_L = c.ccdl * tck;
  t.tRRD_S = c.rrds * tck;
  t.tRRD_L = c.rrdl * tck;
  t.tFAW = c.faw * tck;
  t.tWTR_S = c.wtrs * tck;
  t.tWTR_L = c.wtrl * tck;
  t.tRTW = c.rtw * tck;
  t.tREFI = trefiNs;
  t.tRFC = trfcNs;
  t.tRFCsb = trfcsbNs;
  t.tACTcmd = 2 * tck;
  return t;
}

// HBM2 at 2.0 Gb/s/pin, tCK 1 ns, pseudo-channel mode (64-bit PC, BL4 = 32 B per column access).
// Source: CMU-SAFARI/ramulator2 python/ramulator/dram/hbm2.py preset HBM2_2000Mbps (hardware.md
// §4.2): nBL 2, nCL 14, nCWL 5, nRCDRD 14, nRCDWR 12, nRP 14, nRAS 34, nRC 48, nWR 16, nRTPL 5,
// nCCDS 2, nCCDL 4, nWTRS 6, nWTRL 8. Secondary timings from the same file (JESD235D): tRRDS 4 ns,
// tRRDL 4 ns, tFAW 15 ns ("vendor-specific, typical"), tREFI 3.9 us, tRFCab 350 ns for an 8 Gb
// pseudo-channel (64 GiB over 64 PCs), tRFCSB 160 ns (<= 8 Gb). tRTW is ramulator2's read-to-write rule nCL +
// nBL + 2 - nCWL.
HbmTiming hbm2_2000() {
  Cycles c{2, 14, 5, 14, 12, 14, 34, 48, 16, 5, 2, 4, 4, 4, 15, 6, 8, 14 + 2 + 2 - 5};
  return fromCycles("hbm2-2000", 2.0, 1.0, 32, c, 3900.0, 350.0, 160.0);
}

// HBM2 at 2.0 Gb/s/pin, tCK 1 ns, with the AMD Vega timing dump that DRAMSys
// (tukl-msd/DRAMSys configs/memspec/HBM2.json) and gem5 (hbm.py HBM_2000_4H_1x64) use
// (hardware.md §4.2): RCDRD 12, RCDWR 6, RP 14, RAS 28, RC 42, RL 17, WL 7, WR 14, RTP 5,
// CCDS 2, CCDL 3, RRDS 4, RRDL 6, FAW 16, WTRS 4, WTRL 9, RTW 18, RFC 220 ns, RFCSB 96 ns,
// REFI 3.9 us. The device of the cycle-accurate reference in docs/hbm.md.
HbmTiming hbm2_2000_vega() {
  Cycles c{2, 17, 7, 12, 6, 14, 28, 42, 14, 5, 2, 3, 4, 6, 16, 4, 9, 18};
  return fromCycles("hbm2-2000-vega", 2.0, 1.0, 32, c, 3900.0, 220.0, 96.0);
}

// HBM2e at 3.2 Gb/s/pin (the 910B default, hardware.md §1.3: 4 stacks, ~1.6 TB/s), tCK 0.625 ns.
// No public cycle table was found, so the HBM2-2000 values above are scaled: DRAM-core timings are
// fixed in ns across speed grades (as ramulator2's HBM2 1600/2000/2400 presets show: tRCD 12.5/14/
// 14.2 ns), so each ns value is rounded up to whole 0.625 ns clocks; clock-domain values keep their
// cycle counts (nBL 2, nCCDS 2, nCCDL 4, the +2 bus turnaround), as in ramulator2's HBM2 presets
// at every rate and its HBM3 preset at the same tCK. tRC = max(ceil(48 ns), nRAS + nRP).
HbmTiming hbm2e_3200() {
  Cycles c{2,      // BL4 on a DDR bus: 2 clocks, 32 B
           23,     // tCL 14 ns -> 14.375
           8,      // tCWL 5 ns
           23,     // tRCDRD 14 ns
           20,     // tRCDWR 12 ns -> 12.5
           23,     // tRP 14 ns
           55,     // tRAS 34 ns -> 34.375
           78,     // tRC = nRAS + nRP (48.75 ns)
           26,     // tWR 16 ns -> 16.25
           8,      // tRTP 5 ns
           2,  4,  // tCCD_S, tCCD_L (clocks)
           7,  7,  // tRRD_S, tRRD_L 4 ns -> 4.375
           24,     // tFAW 15 ns
           10,     // tWTR_S 6 ns -> 6.25
           13,     // tWTR_L 8 ns -> 8.125
           19};    // tRTW = nCL + nBL + 2 - nCWL
  return fromCycles("hbm2e-3200", 3.2, 0.625, 32, c, 3900.0, 350.0, 160.0);
}

// HBM3 at 6.4 Gb/s/pin, tCK 0.625 ns (data at 4x CK), 32-bit pseudo-channel, BL8 = 32 B.
// Source: CMU-SAFARI/ramulator2 python/ramulator/dram/hbm3.py preset HBM3_6400Mbps, citing
// JESD238 (hardware.md §4.2): nBL 2, nCL 20, nCWL 10, nRCDRD 31, nRCDWR 15, nRP 26, nRAS 45,
// nRC 72, nWR 33, nRTP 9, nCCDS 2, nCCDL 4, nRRDS 4, nRRDL 5, nFAW 24, nWTRS 7, nWTRL 10, nRTW 20,
// nREFI 6240 (3.9 us), nRFCpb 320 (200 ns). tRFCab 350 ns for an 8 Gb channel (JESD238 Table 84 as quoted
// there).
HbmTiming hbm3_6400() {
  Cycles c{2, 20, 10, 31, 15, 26, 45, 72, 33, 9, 2, 4, 4, 5, 24, 7, 10, 20};
  return fromCycles("hbm3-6400", 6.4, 0.625, 32, c, 3900.0, 350.0, 200.0);
}

struct Field {
  const char* name;
  double HbmTiming::*member;
};

const Field kFields[] = {
    {"tCK", &HbmTiming::tCK},       {"tBURST", &HbmTiming::tBURST},   {"tCL", &HbmTiming::tCL},
    {"tCWL", &HbmTiming::tCWL},     {"tRCDRD", &HbmTiming::tRCDRD},   {"tRCDWR", &HbmTiming::tRCDWR},
    {"tRP", &HbmTiming::tRP},       {"tRAS", &HbmTiming::tRAS},       {"tRC", &HbmTiming::tRC},
    {"tWR", &HbmTiming::tWR},       {"tRTP", &HbmTiming::tRTP},       {"tCCD_S", &HbmTiming::tCCD_S},
    {"tCCD_L", &HbmTiming::tCCD_L}, {"tRRD_S", &HbmTiming::tRRD_S},   {"tRRD_L", &HbmTiming::tRRD_L},
    {"tFAW", &HbmTiming::tFAW},     {"tWTR_S", &HbmTiming::tWTR_S},   {"tWTR_L", &HbmTiming::tWTR_L},
    {"tRTW", &HbmTiming::tRTW},     {"tREFI", &HbmTiming::tREFI},     {"tRFC", &HbmTiming::tRFC},
    {"tRFCsb", &HbmTiming::tRFCsb}, {"tACTcmd", &HbmTiming::tACTcmd},
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

const std::vector<std::string>& hbmTimingPresetNames() {
  static const std::vector<std::string> names = {"hbm2-2000", "hbm2-2000-vega", "hbm2e-3200", "hbm3-6400"};
  return names;
}

HbmTiming hbmTimingPreset(const std::string& name) {
  if (name == "hbm2-2000") return hbm2_2000();
  if (name == "hbm2-2000-vega") return hbm2_2000_vega();
  if (name == "hbm2e-3200") return hbm2e_3200();
  if (name == "hbm3-6400") return hbm3_6400();
  std::string list;
  for (const auto& n : hbmTimingPresetNames()) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown HBM timing set '" + name + "' (known: " + list + ")");
}

void applyHbmTimingOverrides(HbmTiming* t, const std::string& spec) {
  // Items are separated by ',' or ';' (';' survives NPUSIM_SET, which splits on commas);
  // surrounding brackets are allowed.
  std::string text = trim(spec);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t sep = text.find_first_of(",;", pos);
    std::string item = trim(text.substr(pos, sep == std::string::npos ? std::string::npos : sep - pos));
    pos = sep == std::string::npos ? text.size() + 1 : sep + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("HBM timing override '" + item + "' is not name=ns");
    std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
      throw std::invalid_argument("HBM timing override '" + item + "': value is not a non-negative number");
    bool found = false;
    for (const Field& f : kFields) {
      if (key == f.name) {
        t->*(f.member) = v;
        found = true;
        break;
      }
    }
    if (!found) {
      std::string list;
      for (const Field& f : kFields) list += (list.empty() ? "" : " ") + std::string(f.name);
      throw std::invalid_argument("HBM timing override '" + item + "': unknown timing '" + key +
                                  "' (known: " + list + ")");
    }
  }
}

}  // namespace npusim
