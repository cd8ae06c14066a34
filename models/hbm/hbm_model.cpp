#include "models/hbm/hbm_model.h"

#include <algorithm>

namespace npusim {

namespace {

inline Tick maxT(Tick a, Tick b) { return a > b ? a : b; }
inline Tick minT(Tick a, Tick b) { return a < b ? a : b; }

bool isPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

const HbmParams& validated(const HbmParams& p) {
  p.validate();
  return p;
}

}  // namespace

HbmModel::HbmModel(const HbmParams& params) : params_(params), map_(validated(params)) {
  const HbmTiming& t = params_.timing;
  tBURST_ = nsToTick(t.tBURST);
  tBus_ = maxT(tBURST_, nsToTick(t.tCCD_S));  // one column access holds the bus this long
  tCL_ = nsToTick(t.tCL);
  tCWL_ = nsToTick(t.tCWL);
  tRCDRD_ = nsToTick(t.tRCDRD);
  tRCDWR_ = nsToTick(t.tRCDWR);
  tRP_ = nsToTick(t.tRP);
  tRAS_ = nsToTick(t.tRAS);
  tRC_ = nsToTick(t.tRC);
  tWR_ = nsToTick(t.tWR);
  tRTP_ = nsToTick(t.tRTP);
  tCCD_L_ = nsToTick(t.tCCD_L);
  tRRD_S_ = nsToTick(t.tRRD_S);
  tRRD_L_ = nsToTick(t.tRRD_L);
  tFAW_ = nsToTick(t.tFAW);
  tWTR_S_ = nsToTick(t.tWTR_S);
  tWTR_L_ = nsToTick(t.tWTR_L);
  tRTW_ = nsToTick(t.tRTW);
  tREFI_ = nsToTick(t.tREFI);
  tRFC_ = nsToTick(t.tRFC);
  tRFCsb_ = nsToTick(t.tRFCsb);
  tCK_ = nsToTick(t.tCK);
  tACTcmd_ = nsToTick(t.tACTcmd);
  postpone_ = static_cast<uint64_t>(params_.refreshPostpone);
  pace_ = maxT(tCCD_L_, tBus_);
  readToWrite_ = tRTW_ + tCWL_ > tCL_ + tBURST_ ? tRTW_ + tCWL_ - tCL_ - tBURST_ : 0;
  writeToRead_ = tWTR_L_ + tCL_;
  perBankRefresh_ = params_.refresh && params_.perBankRefresh;
  allBankRefresh_ = params_.refresh && !params_.perBankRefresh;
  burstBytes_ = t.burstBytes;
  if (isPowerOfTwo(burstBytes_)) {
    burstShift_ = 0;
    while ((1u << burstShift_) < burstBytes_) ++burstShift_;
  }
  runIsPowerOfTwo_ = isPowerOfTwo(map_.runBytes());

  const int numPc = params_.numPseudoChannels();
  pcs_.resize(numPc);
  groups_.resize(static_cast<size_t>(numPc) * params_.bankGroups);
  banks_.resize(static_cast<size_t>(numPc) * params_.banksPerPseudoChannel());
  const int holes = params_.reorderHoles;
  for (int p = 0; p < numPc; ++p) {
    Pc& pc = pcs_[p];
    // Staggered, pseudo-channel p is due at tREFI * (P - p) / P: pseudo-channel 0 last, at
    // tREFI (a quiet start for directed measurements). Aligned, all are due at tREFI.
    pc.refreshPhase =
        params_.refreshStagger ? tREFI_ * static_cast<Tick>(numPc - p) / static_cast<Tick>(numPc) : tREFI_;
    pc.act.configure(holes > 0, tRRD_S_, tRRD_L_, tFAW_);
    pc.bus.configure(holes, tBus_);
  }
  for (Group& g : groups_) g.col.configure(holes, maxT(tCCD_L_, tBus_));
  channels_.resize(static_cast<size_t>(params_.stacks) * params_.channelsPerStack);
  for (int p = 0; p < numPc; ++p) channelOfPc_.push_back(static_cast<uint32_t>(p / params_.pseudoChannels));
  // The row command bus is arbitrated every clock among all banks with a command ready: it
  // remembers as many holes as any resource may (not just hbm.reorder_holes).
  for (Channel& c : channels_) c.rowBus.configure(HbmCalendar::kMaxHoles, tCK_);
  resetStats();
}

void HbmModel::resetStats() {
  stats_ = HbmStats();
  stats_.busyPerPc.assign(pcs_.size(), 0);
}

Tick HbmModel::channelBusyTicks(int ch) const {
  Tick sum = 0;
  for (int i = 0; i < params_.pseudoChannels; ++i) sum += stats_.busyPerPc[ch * params_.pseudoChannels + i];
  return sum;
}

void HbmModel::performRefresh(Pc& pc, Tick start) {
  pc.lastRefreshStart = start;
  pc.refreshEnd = start + tRFC_;
  pc.quietFrom = maxT(pc.quietFrom, pc.refreshEnd);
  ++pc.refreshNext;
  ++stats_.refreshes;
}

void HbmModel::catchUpRefresh(Pc& pc, Tick t) {
  for (;;) {
    const Tick due = pc.refreshPhase + pc.refreshNext * tREFI_;
    if (due >= t) return;
    if (pc.quietFrom <= due) {
      // Quiet since before it fell due: this and every later refresh due before t ran on time.
      const uint64_t m = (t - 1 - due) / tREFI_ + 1;
      const Tick last = due + (m - 1) * tREFI_;
      pc.refreshNext += m - 1;
      stats_.refreshes += m - 1;
      performRefresh(pc, last);
      return;
    }
    // Owed from a busy period: runs when the pseudo-channel went quiet, or when its
    // postponement ran out, whichever came first.
    const Tick start = minT(pc.quietFrom, forcedRefresh(pc));
    if (start >= t) return;
    performRefresh(pc, start);
  }
}

Tick HbmModel::access(uint64_t addr, uint64_t bytes, bool write, Tick arrival) {
  if (bytes == 0) return arrival;
  if (write) {
    stats_.bytesWritten += bytes;
    ++stats_.writeRequests;
  } else {
    stats_.bytesRead += bytes;
    ++stats_.readRequests;
  }
  const uint64_t capacity = params_.capacityBytes;
  const uint64_t run = map_.runBytes();
  const bool queued = params_.writeHigh > 0;
  uint64_t a = addr < capacity ? addr : addr % capacity;
  Tick done = arrival;
  while (bytes > 0) {
    uint64_t len = std::min(bytes, run - (runIsPowerOfTwo_ ? a & (run - 1) : a % run));
    HbmAddressMap::Location loc = map_.decode(a);
    const uint32_t lastByte = static_cast<uint32_t>(loc.byteInRow + len - 1);
    uint32_t first = burstShift_ >= 0 ? loc.byteInRow >> burstShift_ : loc.byteInRow / burstBytes_;
    uint32_t last = burstShift_ >= 0 ? lastByte >> burstShift_ : lastByte / burstBytes_;
    const uint32_t n = last - first + 1;
    if (queued && write) {
      done = maxT(done, postWrite(loc, n, arrival));
    } else {
      // A controller with no reads to serve writes back its queue: an idle pseudo-channel
      // drains it before this read.
      Pc& pc = pcs_[loc.pc];
      if (queued && !pc.writes.empty() && pc.bus.frontier() <= arrival)
        drainWrites(static_cast<int>(loc.pc), 0, 0);
      done = maxT(done, segment(loc, n, write, arrival));
    }
    a += len;
    if (a >= capacity) a -= capacity;
    bytes -= len;
  }
  return done;
}

Tick HbmModel::postWrite(const HbmAddressMap::Location& loc, uint32_t n, Tick arrival) {
  Pc& pc = pcs_[loc.pc];
  PendingWrite& w = pc.writes.emplace_back();
  w.row = loc.row, w.pc = loc.pc, w.bursts = n, w.bankGroup = loc.bankGroup, w.byteInRow = loc.byteInRow;
  w.bank = loc.bank, w.arrival = arrival;
  const Tick taken = maxT(arrival, pc.acceptFrontier) + n * tBus_;
  pc.acceptFrontier = taken;
  if (pc.writes.size() >= static_cast<size_t>(params_.writeHigh))
    drainWrites(static_cast<int>(loc.pc), arrival, static_cast<size_t>(params_.writeLow));
  return taken;
}

void HbmModel::drainWrites(int p, Tick now, size_t keep) {
  Pc& pc = pcs_[p];
  if (pc.writes.size() <= keep) return;
  const size_t n = pc.writes.size() - keep;
  ++stats_.writeBatches;
  for (size_t i = 0; i < n; ++i) {
    const PendingWrite& w = pc.writes[i];
    segment(w.location(), w.bursts, true, maxT(now, w.arrival));
  }
  pc.writes.erase(pc.writes.begin(), pc.writes.begin() + static_cast<std::ptrdiff_t>(n));
}

Tick HbmModel::drainWrites() {
  Tick last = 0;
  for (size_t p = 0; p < pcs_.size(); ++p) {
    drainWrites(static_cast<int>(p), 0, 0);
    last = maxT(last, pcs_[p].bus.frontier());
  }
  return last;
}

bool HbmModel::bankRefreshBefore(const Pc& pc, uint32_t bankIndex, Tick t, Tick* start) const {
  // Bank i of a pseudo-channel is due at phase + i * tREFI / banks + k * tREFI.
  const Tick phase =
      pc.refreshPhase + tREFI_ * bankIndex / static_cast<Tick>(params_.banksPerPseudoChannel());
  if (t < phase) return false;
  *start = phase + (t - phase) / tREFI_ * tREFI_;
  return true;
}

uint64_t HbmModel::refreshesBefore(Tick t) const {
  if (!params_.refresh) return 0;
  if (!params_.perBankRefresh) return stats_.refreshes;
  const Tick banks = static_cast<Tick>(params_.banksPerPseudoChannel());
  uint64_t n = 0;
  for (const Pc& pc : pcs_) {
    for (Tick b = 0; b < banks; ++b) {
      const Tick phase = pc.refreshPhase + tREFI_ * b / banks;
      if (t > phase) n += (t - phase + tREFI_ - 1) / tREFI_;
    }
  }
  return n;
}

// One segment: `n` column accesses to one row of one bank. See docs/hbm.md "Timing rules".
Tick HbmModel::segment(const HbmAddressMap::Location& loc, uint32_t n, bool write, Tick arrival) {
  Pc& pc = pcs_[loc.pc];
  const size_t gi = static_cast<size_t>(loc.pc) * params_.bankGroups + loc.bankGroup;
  Group& g = groups_[gi];
  Bank& b = banks_[gi * params_.banksPerGroup + loc.bank];
  const int64_t row = static_cast<int64_t>(loc.row);
  const Tick rcd = write ? tRCDWR_ : tRCDRD_;
  const Tick lat = write ? tCWL_ : tCL_;
  const Tick pace = pace_;
  const uint8_t dir = write ? 2 : 1;
  const bool perBank = perBankRefresh_;
  const bool refresh = allBankRefresh_;
  const uint32_t bankIndex = loc.bankGroup * static_cast<uint32_t>(params_.banksPerGroup) + loc.bank;
  Channel& ch = channels_[channelOfPc_[loc.pc]];

  Tick t = arrival;
  Tick stall = 0;      // known refresh delay
  Tick firstDone = 0;  // completion before a forced refresh pushed the segment
  bool pushed = false;
  if (refresh) {
    catchUpRefresh(pc, t);
    if (pc.refreshEnd > t && t >= pc.lastRefreshStart) {  // arrived while a refresh runs
      stall = pc.refreshEnd - t;
      t = pc.refreshEnd;
    }
  }
  for (;;) {
    // Per-bank refresh: wait for one in progress; it has precharged the bank.
    Tick bankRef = 0;
    const bool bankRefreshed = perBank && bankRefreshBefore(pc, bankIndex, t, &bankRef);
    if (bankRefreshed && t < bankRef + tRFCsb_) {
      stall += bankRef + tRFCsb_ - t;
      t = bankRef + tRFCsb_;
    }
    // Bank: a refresh since the bank's last command has precharged it.
    const bool refreshed =
        b.openRow >= 0 && ((refresh && pc.refreshNext > 0 && pc.lastRefreshStart > b.lastUse) ||
                           (bankRefreshed && bankRef > b.lastUse));
    const bool open = b.openRow >= 0 && !refreshed;
    const bool hit = open && b.openRow == row;

    Tick act = b.act;
    Tick colReady;
    HbmCalendar::Slot preSlot, actSlot;
    if (hit) {
      colReady = maxT(t, b.act + rcd);
    } else {
      // The PRE (conflict) and the ACT each need the channel's row command bus.
      Tick ready = t;
      if (open) {
        const Tick pre = maxT(t, b.preReady);
        preSlot = ch.rowBus.find(pre, pre, tCK_, 0);
        ready = preSlot.start + tRP_;
      }
      if (!refreshed) ready = maxT(ready, b.actReady);
      act = pc.act.find(ready, static_cast<uint8_t>(loc.bankGroup));
      for (int i = 0; i < 4; ++i) {
        actSlot = ch.rowBus.find(act, act, tACTcmd_, 0);
        if (actSlot.start == act) break;
        act = pc.act.find(actSlot.start, static_cast<uint8_t>(loc.bankGroup));
      }
      colReady = act + rcd;
    }
    const HbmCalendar::Slot colSlot = g.col.find(colReady, colReady, n * pace, 0);
    const Tick dataReady = colSlot.start + lat;

    // Data bus. In order, a change of direction first idles the bus for the turnaround:
    // write->read tWTR + tCL after the last write data, read->write tRTW + tCWL after the
    // last read command. Holes are only filled between transfers of the same direction.
    Tick turnReady = dataReady;
    const uint8_t last = pc.bus.lastTag();
    const Tick readToWrite = readToWrite_;
    if (last != 0 && last != dir) {
      const Tick gap = write ? readToWrite : (loc.bankGroup == pc.lastWriteGroup ? tWTR_L_ : tWTR_S_) + tCL_;
      turnReady = maxT(dataReady, pc.bus.frontier() + gap);
    }
    // Inside a hole between transfers of the other direction, both turnarounds must fit (the
    // write-to-read one with the longer same-group tWTR_L, the neighbour's group being unknown).
    const Tick writeToRead = writeToRead_;
    const HbmCalendar::Slot busSlot =
        pc.bus.find(dataReady, turnReady, n * tBus_, dir, write ? readToWrite : writeToRead,
                    write ? writeToRead : readToWrite);
    // The segment's own bursts are paced by tCCD_L; the bus itself is a work-conserving
    // server of n * tBus, so segments of other bank groups fill the gaps between them.
    const Tick firstData = busSlot.hole >= 0 ? dataReady : turnReady;
    const Tick paced = firstData + (n - 1) * pace + tBURST_;
    const Tick busEnd = busSlot.start + n * tBus_;
    const Tick done = maxT(paced, busEnd);
    const Tick lastCol = done - tBURST_ - lat;
    Tick preReady = maxT(act + tRAS_, write ? lastCol + tCWL_ + tBURST_ + tWR_ : lastCol + tRTP_);
    if (hit) preReady = maxT(preReady, b.preReady);

    // The segment and the precharge it owes must finish before a refresh whose postponement
    // runs out; otherwise that refresh runs first and the segment after it.
    if (refresh) {
      if (!pushed) firstDone = done;
      // A refresh already booked (for a request timed later) that this segment arrived before:
      // the segment goes first if it and its precharge end before the refresh starts, else after it.
      if (t < pc.lastRefreshStart && maxT(done, preReady) + tRP_ > pc.lastRefreshStart) {
        t = pc.refreshEnd;
        pushed = true;
        continue;
      }
      const Tick forced = forcedRefresh(pc);
      if (maxT(done, preReady) + tRP_ > forced) {
        performRefresh(pc, forced);
        t = maxT(t, pc.refreshEnd);
        pushed = true;
        continue;
      }
    }
    if (perBank) {  // the bank's next refresh is not postponed: a segment that would overlap it follows it
      if (!pushed) firstDone = done;
      Tick next = 0;
      if (!bankRefreshBefore(pc, bankIndex, t, &next)) {
        next = pc.refreshPhase + tREFI_ * bankIndex / static_cast<Tick>(params_.banksPerPseudoChannel());
      } else {
        next += tREFI_;
      }
      if (maxT(done, preReady) + tRP_ > next) {
        t = next + tRFCsb_;
        pushed = true;
        continue;
      }
    }

    if (!hit) {
      if (open) {
        ch.rowBus.commit(preSlot, tCK_, preSlot.start + tCK_, 0, horizon_);
        actSlot = ch.rowBus.find(act, act, tACTcmd_, 0);  // the PRE may have split a hole
      }
      ch.rowBus.commit(actSlot, tACTcmd_, actSlot.start + tACTcmd_, 0, horizon_);
      pc.act.commit(act, static_cast<uint8_t>(loc.bankGroup));
      b.act = act;
      b.actReady = act + tRC_;
      b.openRow = row;
      if (open)
        ++stats_.rowConflicts;
      else
        ++stats_.rowMisses;
    } else {
      ++stats_.rowHits;
    }
    // The group's column path is a work-conserving server too (n * pace per segment): a
    // segment that waited for the bus does not hold back its group's next segment, which is
    // what lets all groups interleave on the bus whatever the call order.
    g.col.commit(colSlot, n * pace, colSlot.start + n * pace, 0, horizon_);
    pc.bus.commit(busSlot, n * tBus_, busEnd, dir, horizon_);
    if (write && busSlot.hole < 0) pc.lastWriteGroup = loc.bankGroup;
    b.preReady = preReady;
    b.lastUse = lastCol;
    if (!params_.openPage) {  // closed page: precharge as soon as allowed
      b.openRow = -1;
      b.actReady = maxT(b.actReady, preReady + tRP_);
    }
    pc.quietFrom = maxT(pc.quietFrom, maxT(done, preReady + tRP_));
    ++stats_.segments;
    stats_.busyPerPc[loc.pc] += n * tBus_;
    if (pushed && done > firstDone) stall += done - firstDone;
    if (stall > 0) {
      ++stats_.refreshStalls;
      stats_.refreshStallTicks += stall;
    }
    return done;
  }
}

}  // namespace npusim
