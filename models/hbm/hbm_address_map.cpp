#include "models/hbm/hbm_address_map.h"

#include <stdexcept>

namespace npusim {

namespace {

int log2IfPowerOfTwo(uint64_t v) {
  if (v == 0 || (v & (v - 1)) != 0) return -1;
  int s = 0;
  while ((uint64_t{1} << s) != v) ++s;
  return s;
}

// q = v / d, r = v % d, with a shift when d is a power of two.
inline void divmod(uint64_t v, uint64_t d, int shift, uint64_t* q, uint64_t* r) {
  if (shift >= 0) {
    *q = v >> shift;
    *r = v & (d - 1);
  } else {
    *q = v / d;
    *r = v - *q * d;
  }
}

}  // namespace

std::array<HbmAddressMap::FieldId, 4> HbmAddressMap::parseOrder(const std::string& text) {
  static const char* kNames[4] = {"ro", "ba", "bg", "co"};
  std::array<FieldId, 4> order{};
  bool seen[4] = {false, false, false, false};
  size_t pos = 0;
  int n = 0;
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(
        "HBM address_map '" + text + "': " + why +
        " (expected the four fields ro, ba, bg, co in some order, e.g. 'ro-ba-co-bg')");
  };
  while (pos <= text.size()) {
    size_t dash = text.find('-', pos);
    std::string f = text.substr(pos, dash == std::string::npos ? std::string::npos : dash - pos);
    pos = dash == std::string::npos ? text.size() + 1 : dash + 1;
    int id = -1;
    for (int i = 0; i < 4; ++i)
      if (f == kNames[i]) id = i;
    if (id < 0) throw fail("unknown field '" + f + "'");
    if (seen[id]) throw fail("field '" + f + "' repeated");
    if (n == 4) throw fail("too many fields");
    seen[id] = true;
    order[n++] = static_cast<FieldId>(id);
  }
  if (n != 4) throw fail("missing fields");
  return order;
}

HbmAddressMap::HbmAddressMap(const HbmParams& p)
    : capacity_(p.capacityBytes),
      interleave_(p.interleaveBytes),
      numPc_(static_cast<uint64_t>(p.numPseudoChannels())),
      chunksPerRow_(p.rowBytes / p.interleaveBytes) {
  std::array<FieldId, 4> msbFirst = parseOrder(p.addressMap);
  for (int i = 0; i < 4; ++i) lsbFirst_[i] = msbFirst[3 - i];
  radix_[kRow] = p.rowsPerBank();
  radix_[kBank] = static_cast<uint64_t>(p.banksPerGroup);
  radix_[kBankGroup] = static_cast<uint64_t>(p.bankGroups);
  radix_[kColumn] = chunksPerRow_;
  interleaveShift_ = log2IfPowerOfTwo(interleave_);
  pcShift_ = log2IfPowerOfTwo(numPc_);
  allShifts_ = interleaveShift_ >= 0 && pcShift_ >= 0;
  int pos = 0;
  for (int i = 0; i < 4; ++i) {
    radixShift_[i] = log2IfPowerOfTwo(radix_[i]);
    allShifts_ = allShifts_ && radixShift_[i] >= 0;
  }
  for (int i = 0; i < 4; ++i) {
    fieldPos_[lsbFirst_[i]] = pos;
    pos += radixShift_[lsbFirst_[i]] >= 0 ? radixShift_[lsbFirst_[i]] : 0;
  }
}

HbmAddressMap::Location HbmAddressMap::decode(uint64_t addr) const {
  if (addr >= capacity_) addr %= capacity_;
  Location loc;
  if (allShifts_) {  // the common case: every field is a bit range
    const uint64_t chunk = addr >> interleaveShift_;
    const uint64_t local = chunk >> pcShift_;
    loc.pc = static_cast<uint32_t>(chunk & (numPc_ - 1));
    loc.bankGroup = static_cast<uint32_t>((local >> fieldPos_[kBankGroup]) & (radix_[kBankGroup] - 1));
    loc.bank = static_cast<uint32_t>((local >> fieldPos_[kBank]) & (radix_[kBank] - 1));
    loc.row = (local >> fieldPos_[kRow]) & (radix_[kRow] - 1);
    loc.byteInRow =
        static_cast<uint32_t>((((local >> fieldPos_[kColumn]) & (radix_[kColumn] - 1)) << interleaveShift_) |
                              (addr & (interleave_ - 1)));
    return loc;
  }
  uint64_t chunk, offset, local, pc;
  divmod(addr, interleave_, interleaveShift_, &chunk, &offset);
  divmod(chunk, numPc_, pcShift_, &local, &pc);
  uint64_t v[4];
  for (int i = 0; i < 4; ++i) {
    const FieldId f = lsbFirst_[i];
    divmod(local, radix_[f], radixShift_[f], &local, &v[f]);
  }
  loc.pc = static_cast<uint32_t>(pc);
  loc.bankGroup = static_cast<uint32_t>(v[kBankGroup]);
  loc.bank = static_cast<uint32_t>(v[kBank]);
  loc.row = v[kRow];
  loc.byteInRow = static_cast<uint32_t>(v[kColumn] * interleave_ + offset);
  return loc;
}

uint64_t HbmAddressMap::encode(const Location& loc) const {
  uint64_t v[4];
  v[kRow] = loc.row % radix_[kRow];
  v[kBank] = loc.bank % radix_[kBank];
  v[kBankGroup] = loc.bankGroup % radix_[kBankGroup];
  v[kColumn] = (loc.byteInRow / interleave_) % radix_[kColumn];
  uint64_t local = 0;
  for (int i = 3; i >= 0; --i) local = local * radix_[lsbFirst_[i]] + v[lsbFirst_[i]];
  uint64_t chunk = local * numPc_ + loc.pc % numPc_;
  return chunk * interleave_ + loc.byteInRow % interleave_;
}

}  // namespace npusim
