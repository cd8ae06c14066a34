#pragma once
// Timing model of one device's HBM. Pure arithmetic, no SystemC: a request is split by the
// address interleave into segments (each within one row of one bank of one pseudo-channel), and
// each segment reserves bank, bank-group, pseudo-channel and data-bus resources in call order.
// Callers issue requests roughly in time order; a request that arrives before its resources are
// free waits for them. docs/hbm.md states the timing rules exactly.
#include <cstdint>
#include <vector>

#include "models/common/tick.h"
#include "models/hbm/hbm_act_history.h"
#include "models/hbm/hbm_address_map.h"
#include "models/hbm/hbm_calendar.h"
#include "models/hbm/hbm_params.h"

namespace npusim {

struct HbmStats {
  uint64_t bytesRead = 0;
  uint64_t bytesWritten = 0;
  uint64_t readRequests = 0;
  uint64_t writeRequests = 0;
  uint64_t segments = 0;
  uint64_t rowHits = 0;         // segments that found their row open
  uint64_t rowMisses = 0;       // segments that found the bank closed (ACT only)
  uint64_t rowConflicts = 0;    // segments that found another row open (PRE + ACT)
  uint64_t refreshes = 0;       // all-bank refreshes performed, over all pseudo-channels
  uint64_t writeBatches = 0;    // write-queue drains (each turns the bus around at most twice)
  uint64_t refreshStalls = 0;   // segments held back by a refresh
  Tick refreshStallTicks = 0;   // how much later those segments completed
  std::vector<Tick> busyPerPc;  // data-bus time used, per pseudo-channel

  double rowHitRate() const {
    uint64_t n = rowHits + rowMisses + rowConflicts;
    return n ? static_cast<double>(rowHits) / static_cast<double>(n) : 0.0;
  }
};

class HbmModel {
 public:
  explicit HbmModel(const HbmParams& params);

  // Reads or writes `bytes` at device address `addr` (taken modulo the capacity), arriving at the
  // controller at `arrival`. Returns the time the last data beat of the request completes on the
  // data bus (`arrival` when bytes == 0).
  Tick access(uint64_t addr, uint64_t bytes, bool write, Tick arrival);
  // No request still to come arrives before `t` (a SystemC target passes the simulation time:
  // initiators run ahead of it, never behind). Idle gaps that end before it are forgotten; until
  // told, the model keeps every gap its look-ahead window (hbm.reorder_holes) holds, because a
  // request called later may arrive earlier than one called before it.
  void setHorizon(Tick t) { horizon_ = t > horizon_ ? t : horizon_; }
  // With a write queue (HbmParams::writeHigh > 0) writes are posted: access() returns when the
  // controller has taken the data. Drains every queued write now; returns when the last one is
  // written (the current time of the latest when none is queued). For end-of-run accounting.
  Tick drainWrites();

  double peakBytesPerSec() const { return params_.peakBytesPerSec(); }
  const HbmParams& params() const { return params_; }
  const HbmAddressMap& addressMap() const { return map_; }

  const HbmStats& stats() const { return stats_; }
  // Refreshes by time `t`: all-bank ones performed (stats().refreshes), or with per-bank refresh
  // the REFSB commands of every bank's fixed schedule that started before `t`.
  uint64_t refreshesBefore(Tick t) const;
  void resetStats();
  // Data-bus busy time of channel `ch` (the sum over its pseudo-channels).
  Tick channelBusyTicks(int ch) const;

  // Refresh k (k >= 0) of pseudo-channel `pc` falls due at refreshDue(pc, k) = phase + k * tREFI,
  // phase = tREFI * (P - p) / P when staggered, tREFI when aligned. An idle pseudo-channel
  // refreshes when due; a busy one postpones it, by at most refreshPostpone intervals.
  Tick refreshDue(int pc, uint64_t k) const { return pcs_[pc].refreshPhase + k * tREFI_; }

 private:
  Tick horizon_ = 0;
  struct Bank {
    int64_t openRow = -1;
    Tick act = 0;       // time of the ACT that opened openRow
    Tick preReady = 0;  // earliest PRE (tRAS, tRTP, write recovery)
    Tick actReady = 0;  // earliest next ACT (tRC, PRE + tRP)
    Tick lastUse = 0;   // last column command, for refresh closing the row
  };
  struct Group {
    HbmCalendar col;  // column commands of the group: tCCD_L apart
  };
  // A queued write's location, field by field in an order unlike Location's: the location was
  // just stored by decode() in 4- and 8-byte pieces, and a copy the compiler merges into wider
  // loads cannot take them from the store buffer (a stall of ~4 % of a burst's cycles).
  struct PendingWrite {
    uint64_t row;
    uint32_t pc, bursts;
    uint32_t bankGroup, byteInRow;
    uint32_t bank;
    Tick arrival;
    HbmAddressMap::Location location() const {
      HbmAddressMap::Location l;
      l.pc = pc, l.bankGroup = bankGroup, l.bank = bank, l.row = row, l.byteInRow = byteInRow;
      return l;
    }
  };
  struct Pc {
    HbmActHistory act;  // tRRD_S / tRRD_L / tFAW
    HbmCalendar bus;    // data bus; tags 1 = read, 2 = write (turnaround)
    uint32_t lastWriteGroup = 0;
    // Refresh state.
    Tick refreshPhase = 0;
    uint64_t refreshNext = 0;   // index of the next refresh not yet performed
    Tick lastRefreshStart = 0;  // of the latest refresh performed (rows opened before are closed)
    Tick refreshEnd = 0;        // end of the latest refresh performed
    Tick quietFrom = 0;         // all reserved work done and banks precharged
    // Write queue (posted writes not yet scheduled), oldest first.
    std::vector<PendingWrite> writes;
    Tick acceptFrontier = 0;  // the controller takes write data at the pseudo-channel's rate
  };
  struct Channel {
    HbmCalendar rowBus;  // row command bus shared by the channel's pseudo-channels
  };

  Tick segment(const HbmAddressMap::Location& loc, uint32_t bursts, bool write, Tick arrival);
  // Queues a write segment; returns when its data is taken. Drains a batch at the high mark.
  Tick postWrite(const HbmAddressMap::Location& loc, uint32_t bursts, Tick arrival);
  // Schedules the oldest queued writes of `pc` until `keep` remain, none before `now`.
  void drainWrites(int pc, Tick now, size_t keep);
  // Start of the latest per-bank refresh of bank `bankIndex` of `pc` at or before t (false: none yet).
  bool bankRefreshBefore(const Pc& pc, uint32_t bankIndex, Tick t, Tick* start) const;
  // Performs the refreshes the pseudo-channel started before `t`: due ones when it was quiet,
  // and any whose postponement limit passed.
  void catchUpRefresh(Pc& pc, Tick t);
  void performRefresh(Pc& pc, Tick start);
  Tick forcedRefresh(const Pc& pc) const { return pc.refreshPhase + (pc.refreshNext + postpone_) * tREFI_; }

  HbmParams params_;
  HbmAddressMap map_;
  std::vector<Pc> pcs_;
  std::vector<Channel> channels_;
  std::vector<Group> groups_;
  std::vector<Bank> banks_;
  HbmStats stats_;

  // Timing in ticks.
  Tick tBURST_, tBus_, tCL_, tCWL_, tRCDRD_, tRCDWR_, tRP_, tRAS_, tRC_, tWR_, tRTP_;
  Tick tCCD_L_, tRRD_S_, tRRD_L_, tFAW_, tWTR_S_, tWTR_L_, tRTW_, tREFI_, tRFC_;
  Tick tRFCsb_, tCK_, tACTcmd_;
  uint64_t postpone_;
  uint32_t burstBytes_;
  // What every segment would derive again from the timings: the pace of one segment's accesses
  // (they share a bank group), the bus turnarounds, and which refresh runs.
  Tick pace_, readToWrite_, writeToRead_;
  bool perBankRefresh_, allBankRefresh_;
  // Divisions every access would repeat, done once: shifts and masks for the burst and run
  // sizes when they are powers of two (-1 / false when not), the channel of each pseudo-channel.
  int burstShift_ = -1;
  bool runIsPowerOfTwo_ = false;
  std::vector<uint32_t> channelOfPc_;
};

}  // namespace npusim
