// Timing presets, overrides, parameter validation, the address map and the configuration keys.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "models/hbm/hbm_model.h"
#include "npusim/config.h"
#include "tests/hbm/hbm_test_util.h"

namespace npusim {
namespace {

TEST(HbmParams, PresetsAreSelfConsistent) {
  for (const std::string& name : hbmTimingPresetNames()) {
    HbmTiming t = hbmTimingPreset(name);
    EXPECT_EQ(t.name, name);
    EXPECT_EQ(t.burstBytes, 32u) << name;
    EXPECT_GE(t.tRC + 1e-9, t.tRAS + t.tRP) << name;
    EXPECT_GE(t.tCCD_L, t.tCCD_S) << name;
    EXPECT_GE(t.tCCD_S, t.tBURST) << name;
    EXPECT_GE(t.tFAW, t.tRRD_S) << name;
    EXPECT_GE(t.tRRD_L, t.tRRD_S) << name;
    EXPECT_GT(t.tREFI, t.tRFC) << name;
    // Everything is a whole number of clocks.
    for (double v : {t.tCL, t.tCWL, t.tRCDRD, t.tRCDWR, t.tRP, t.tRAS, t.tRC, t.tWR, t.tRTP, t.tFAW})
      EXPECT_NEAR(v / t.tCK, std::round(v / t.tCK), 1e-9) << name;
  }
  // Spot values from the sources (hardware.md §4.2).
  EXPECT_DOUBLE_EQ(hbmTimingPreset("hbm2-2000").tCL, 14.0);
  EXPECT_DOUBLE_EQ(hbmTimingPreset("hbm3-6400").tRCDRD, 31 * 0.625);
  EXPECT_DOUBLE_EQ(hbmTimingPreset("hbm2e-3200").tBURST, 1.25);
}

TEST(HbmParams, UnknownPresetNamesTheKnownOnes) {
  try {
    hbmTimingPreset("hbm4");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("hbm2e-3200"), std::string::npos);
  }
}

TEST(HbmParams, TimingOverrides) {
  HbmTiming t = hbmTimingPreset("hbm2e-3200");
  applyHbmTimingOverrides(&t, "[tRFC=260; tFAW = 16,tCL=20]");
  EXPECT_DOUBLE_EQ(t.tRFC, 260);
  EXPECT_DOUBLE_EQ(t.tFAW, 16);
  EXPECT_DOUBLE_EQ(t.tCL, 20);
  EXPECT_THROW(applyHbmTimingOverrides(&t, "tXYZ=3"), std::invalid_argument);
  EXPECT_THROW(applyHbmTimingOverrides(&t, "tCL=fast"), std::invalid_argument);
  EXPECT_THROW(applyHbmTimingOverrides(&t, "tCL"), std::invalid_argument);
  applyHbmTimingOverrides(&t, "");  // nothing to do
}

TEST(HbmParams, ValidationRejectsInconsistentOrganisations) {
  HbmParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.numPseudoChannels(), 64);
  EXPECT_EQ(p.rowsPerBank(), 65536u);  // 64 GiB / (64 PCs x 16 banks x 1 KiB)
  auto bad = [](auto mutate) {
    HbmParams q;
    mutate(q);
    return q;
  };
  EXPECT_THROW(bad([](HbmParams& q) { q.interleaveBytes = 48; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.interleaveBytes = 16; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.interleaveBytes = 2048; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.capacityBytes = 1000000; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.addressMap = "ro-ba-bg"; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.addressMap = "ro-ro-bg-co"; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](HbmParams& q) { q.addressMap = "ro-ba-bg-xx"; }).validate(), std::invalid_argument);
  EXPECT_THROW(HbmModel(bad([](HbmParams& q) { q.stacks = 0; })), std::invalid_argument);
}

TEST(HbmAddressMap, ConsecutiveChunksGoToSuccessivePseudoChannels) {
  HbmParams p;
  HbmAddressMap map(p);
  for (uint64_t i = 0; i < 200; ++i) {
    HbmAddressMap::Location loc = map.decode(i * 256 + 17);
    EXPECT_EQ(loc.pc, i % 64);
    EXPECT_EQ(loc.byteInRow % 256, 17u);
  }
}

TEST(HbmAddressMap, DefaultOrderRotatesGroupsThenColumnsThenBanksThenRows) {
  HbmParams p;
  p.bankSwizzle = false;
  HbmAddressMap map(p);
  const uint64_t stride = 256 * 64;  // next chunk on the same pseudo-channel
  for (uint64_t k = 0; k < 300; ++k) {
    HbmAddressMap::Location loc = map.decode(5 * 256 + k * stride);
    EXPECT_EQ(loc.pc, 5u);
    EXPECT_EQ(loc.bankGroup, k % 4);
    EXPECT_EQ(loc.byteInRow, (k / 4) % 4 * 256);
    EXPECT_EQ(loc.bank, (k / 16) % 4);
    EXPECT_EQ(loc.row, k / 64);
  }
}

TEST(HbmAddressMap, SwizzleSpreadsPowerOfTwoStridesOverTheBanksAndKeepsRowsWhole) {
  HbmParams p;  // default: swizzled
  HbmParams plain = p;
  plain.bankSwizzle = false;
  HbmAddressMap map(p), unswizzled(plain);
  // Streams 1 MiB apart: without the swizzle all sixteen start in bank group 0, bank 0 of
  // pseudo-channel 0 (different rows: every one a row conflict); with it, in sixteen banks.
  std::set<std::pair<uint32_t, uint32_t>> banks, plainBanks;
  for (uint64_t c = 0; c < 16; ++c) {
    HbmAddressMap::Location a = map.decode(c << 20), b = unswizzled.decode(c << 20);
    EXPECT_EQ(a.pc, b.pc);
    EXPECT_EQ(a.row, b.row);
    banks.insert({a.bankGroup, a.bank});
    plainBanks.insert({b.bankGroup, b.bank});
  }
  EXPECT_EQ(plainBanks.size(), 1u);
  EXPECT_EQ(banks.size(), 16u);
  // A sequential stream still fills each row before it moves on: the 64 chunks of one row region
  // of a pseudo-channel cover its 16 banks 4 chunks (one 1 KiB row) each.
  const uint64_t stride = 256 * 64;
  for (uint64_t region = 0; region < 40; ++region) {
    std::map<std::pair<uint32_t, uint32_t>, int> perBank;
    for (uint64_t k = 0; k < 64; ++k) {
      HbmAddressMap::Location loc = map.decode((region * 64 + k) * stride);
      EXPECT_EQ(loc.row, region);
      ++perBank[{loc.bankGroup, loc.bank}];
    }
    EXPECT_EQ(perBank.size(), 16u);
    for (const auto& [bank, n] : perBank) EXPECT_EQ(n, 4) << "region " << region;
  }
}

TEST(HbmAddressMap, EncodeInvertsDecodeAndTheMapIsABijection) {
  for (const char* order : {"ro-ba-co-bg", "ro-co-ba-bg", "bg-ba-ro-co", "co-bg-ba-ro"}) {
    HbmParams p;
    p.stacks = 1;
    p.channelsPerStack = 2;
    p.pseudoChannels = 1;
    p.bankGroups = 2;
    p.banksPerGroup = 2;
    p.rowBytes = 256;
    p.interleaveBytes = 64;
    p.capacityBytes = 2 * 4 * 256 * 8;  // 8 rows per bank
    p.addressMap = order;
    HbmAddressMap map(p);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t, uint32_t>> seen;
    for (uint64_t a = 0; a < p.capacityBytes; a += 32) {
      HbmAddressMap::Location loc = map.decode(a);
      EXPECT_LT(loc.row, 8u);
      EXPECT_EQ(map.encode(loc), a) << order;
      seen.insert({loc.pc, loc.bankGroup, loc.bank, loc.row, loc.byteInRow});
    }
    EXPECT_EQ(seen.size(), p.capacityBytes / 32) << order;
    // Addresses wrap at the capacity.
    EXPECT_EQ(map.decode(p.capacityBytes + 96).byteInRow, map.decode(96).byteInRow);
  }
}

TEST(HbmAddressMap, NonPowerOfTwoPseudoChannelCount) {
  HbmParams p;
  p.stacks = 3;
  p.capacityBytes = 3ull << 34;
  HbmAddressMap map(p);
  for (uint64_t i = 0; i < 500; ++i) {
    HbmAddressMap::Location loc = map.decode(i * 256 * 7 + 3);
    EXPECT_EQ(map.encode(loc), i * 256 * 7 + 3);
    EXPECT_EQ(loc.pc, (i * 7) % 48);
  }
}

TEST(HbmConfig, RootPresetGivesThe910BDefaults) {
  Config cfg = Config::load("910b");
  HbmParams p = hbmParamsFromConfig(cfg);
  HbmParams d;
  EXPECT_EQ(p.timing.name, "hbm2e-3200");
  EXPECT_EQ(p.numPseudoChannels(), d.numPseudoChannels());
  EXPECT_EQ(p.bankGroups, d.bankGroups);
  EXPECT_EQ(p.banksPerGroup, d.banksPerGroup);
  EXPECT_EQ(p.rowBytes, d.rowBytes);
  EXPECT_EQ(p.capacityBytes, 68719476736ull);
  EXPECT_EQ(p.interleaveBytes, d.interleaveBytes);
  EXPECT_EQ(p.addressMap, d.addressMap);
  EXPECT_TRUE(p.openPage);
  EXPECT_TRUE(p.refresh);
  EXPECT_EQ(p.refreshStagger, d.refreshStagger);
  EXPECT_EQ(p.refreshPostpone, d.refreshPostpone);
  EXPECT_EQ(p.reorderHoles, d.reorderHoles);
  EXPECT_NEAR(p.peakBytesPerSec(), 1638.4e9, 1e3);
}

TEST(HbmConfig, OverridesReachTheModel) {
  Config cfg = Config::load("910b", {"hbm.timing=hbm3-6400,hbm.channels_per_stack=16,hbm.page_policy=closed",
                                     "hbm.timing_overrides=tRFC=260;tFAW=16,hbm.refresh=false"});
  HbmParams p = hbmParamsFromConfig(cfg);
  EXPECT_EQ(p.timing.name, "hbm3-6400");
  EXPECT_DOUBLE_EQ(p.timing.tRFC, 260);
  EXPECT_DOUBLE_EQ(p.timing.tFAW, 16);
  EXPECT_EQ(p.numPseudoChannels(), 128);
  EXPECT_FALSE(p.openPage);
  EXPECT_FALSE(p.refresh);
  EXPECT_NEAR(p.peakBytesPerSec(), 3276.8e9, 1e3);  // 4 HBM3 stacks at 819 GB/s
}

TEST(HbmConfig, BadValuesAreRefused) {
  EXPECT_THROW(Config::load("910b", {"hbm.timing=hbm9"}), ConfigError);
  // Refused when the configuration is read (Config::check, issue 17.6), no longer only when the
  // model is built.
  EXPECT_THROW(Config::load("910b", {"hbm.address_map=ro-bg"}), ConfigError);
  EXPECT_THROW(Config::load("910b", {"hbm.timing_overrides=tFOO=1"}), ConfigError);
}

}  // namespace
}  // namespace npusim
