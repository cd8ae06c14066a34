#include "models/hbm/hbm_address_map.h"

#include <cstdlib>
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

const char* const kFieldNames[5] = {"ro", "ba", "bg", "co", "pc"};

// Layouts with a name: the bit form they stand for.
const struct {
  const char* name;
  const char* bits;
} kNamedMaps[] = {
    // The cycle-accurate reference's HBM2 map (DRAMSys am_hbm2_*_pc_brc: byte 0-4, pseudo-channel
    // 5, bank group 6-7, bank 8-9, then column, then row): a 64 B request touches both
    // pseudo-channels and a stream rotates over every bank before it moves along a row.
    {"pc-bit5", "bits:ro-co-ba-bg-pc"},
};

int log2Exact(uint64_t v) { return log2IfPowerOfTwo(v); }

}  // namespace

void HbmAddressMap::parseBits(const std::string& spec, const HbmParams& p) {
  auto fail = [&](const std::string& why) {
    return std::invalid_argument("parameter 'hbm.address_map' = '" + p.addressMap + "': " + why +
                                 " (docs/hbm.md: e.g. 'pc-bit5', 'bits:ro-co-ba-bg-pc' or "
                                 "'pc:5 bg:6-7 ba:8-9 co:10-14 ro:15-29')");
  };
  const uint64_t radix[kFields] = {p.rowsPerBank(), static_cast<uint64_t>(p.banksPerGroup),
                                   static_cast<uint64_t>(p.bankGroups), p.rowBytes / p.timing.burstBytes,
                                   static_cast<uint64_t>(p.numPseudoChannels())};
  int width[kFields];
  for (int f = 0; f < kFields; ++f) {
    width[f] = log2Exact(radix[f]);
    if (width[f] < 0)
      throw fail(std::string("a bit map needs a power-of-two count of ") + kFieldNames[f] + " (" +
                 std::to_string(radix[f]) + ")");
  }
  byteBits_ = log2Exact(p.timing.burstBytes);
  const int capBits = log2Exact(p.capacityBytes);
  if (byteBits_ < 0 || capBits < 0) throw fail("burst and capacity must be powers of two");
  std::vector<int> owner(static_cast<size_t>(capBits), -1);
  auto fieldId = [&](const std::string& name) {
    for (int f = 0; f < kFields; ++f)
      if (name == kFieldNames[f]) return f;
    throw fail("unknown field '" + name + "'");
  };
  if (spec.rfind("bits:", 0) == 0) {  // contiguous fields, most significant first
    std::vector<int> order;
    std::string rest = spec.substr(5);
    size_t pos = 0;
    while (pos <= rest.size()) {
      size_t dash = rest.find('-', pos);
      order.push_back(fieldId(rest.substr(pos, dash == std::string::npos ? std::string::npos : dash - pos)));
      pos = dash == std::string::npos ? rest.size() + 1 : dash + 1;
    }
    int bit = byteBits_;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      for (int i = 0; i < width[*it] && bit < capBits; ++i) owner[static_cast<size_t>(bit++)] = *it;
    }
  } else {  // "field:lo-hi" or "field:bit" items separated by spaces or ';'
    size_t pos = 0;
    while (pos < spec.size()) {
      size_t end = spec.find_first_of(" ;", pos);
      std::string item = spec.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      pos = end == std::string::npos ? spec.size() : end + 1;
      if (item.empty()) continue;
      size_t colon = item.find(':');
      if (colon == std::string::npos) throw fail("item '" + item + "' is not field:bits");
      int f = fieldId(item.substr(0, colon));
      std::string range = item.substr(colon + 1);
      size_t dash = range.find('-');
      char* e1 = nullptr;
      char* e2 = nullptr;
      long lo = std::strtol(range.c_str(), &e1, 10);
      long hi = dash == std::string::npos ? lo : std::strtol(range.c_str() + dash + 1, &e2, 10);
      bool ok = !range.empty() && e1 != range.c_str() &&
                (dash == std::string::npos ? *e1 == '\0' : (e1 == range.c_str() + dash && e2 && *e2 == '\0'));
      if (!ok || lo > hi) throw fail("bad bit range '" + range + "'");
      if (lo < byteBits_ || hi >= capBits)
        throw fail("bits of '" + item + "' outside " + std::to_string(byteBits_) + ".." +
                   std::to_string(capBits - 1));
      for (long b = lo; b <= hi; ++b) {
        if (owner[static_cast<size_t>(b)] >= 0) throw fail("bit " + std::to_string(b) + " given twice");
        owner[static_cast<size_t>(b)] = f;
      }
    }
  }
  int count[kFields] = {0, 0, 0, 0, 0};
  for (int b = byteBits_; b < capBits; ++b) {
    if (owner[static_cast<size_t>(b)] < 0) throw fail("bit " + std::to_string(b) + " is not assigned");
    ++count[owner[static_cast<size_t>(b)]];
  }
  for (int f = 0; f < kFields; ++f)
    if (count[f] != width[f])
      throw fail(std::string("field ") + kFieldNames[f] + " needs " + std::to_string(width[f]) +
                 " bits, got " + std::to_string(count[f]));
  // Runs of consecutive bits of one field, each field's bits taken least significant first.
  int next[kFields] = {0, 0, 0, 0, 0};
  for (int b = byteBits_; b < capBits;) {
    const int f = owner[static_cast<size_t>(b)];
    int w = 1;
    while (b + w < capBits && owner[static_cast<size_t>(b + w)] == f) ++w;
    runs_.push_back(BitRun{f, b, w, next[f]});
    next[f] += w;
    b += w;
  }
  // A request is split where anything but the column can change.
  int lowest = capBits;
  for (const BitRun& r : runs_)
    if (r.field != kColumn && r.src < lowest) lowest = r.src;
  run_ = uint64_t{1} << lowest;
  bitwise_ = true;
}

std::array<HbmAddressMap::FieldId, 4> HbmAddressMap::parseOrder(const std::string& text) {
  static const char* kNames[4] = {"ro", "ba", "bg", "co"};
  std::array<FieldId, 4> order{};
  bool seen[4] = {false, false, false, false};
  size_t pos = 0;
  int n = 0;
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(
        "parameter 'hbm.address_map' = '" + text + "': " + why +
        " (expected the four fields ro, ba, bg, co in some order, e.g. 'ro-ba-co-bg', or a bit map, "
        "docs/hbm.md)");
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
      chunksPerRow_(p.rowBytes / p.interleaveBytes),
      run_(p.interleaveBytes) {
  std::string spec = p.addressMap;
  for (const auto& named : kNamedMaps)
    if (spec == named.name) spec = named.bits;
  if (spec.rfind("bits:", 0) == 0 || spec.find(':') != std::string::npos) {
    parseBits(spec, p);
    return;
  }
  swizzle_ = p.bankSwizzle;
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
  if (bitwise_) {
    uint64_t v[kFields] = {0, 0, 0, 0, 0};
    for (const BitRun& r : runs_) v[r.field] |= ((addr >> r.src) & ((uint64_t{1} << r.width) - 1)) << r.dst;
    loc.pc = static_cast<uint32_t>(v[kPcField]);
    loc.bankGroup = static_cast<uint32_t>(v[kBankGroup]);
    loc.bank = static_cast<uint32_t>(v[kBank]);
    loc.row = v[kRow];
    loc.byteInRow =
        static_cast<uint32_t>((v[kColumn] << byteBits_) | (addr & ((uint64_t{1} << byteBits_) - 1)));
    return loc;
  }
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
    if (swizzle_) swizzle(loc);
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
  if (swizzle_) swizzle(loc);
  return loc;
}

namespace {
// Folds all of the row's bits into one value (sum of its 4-bit digits), so rows that differ
// anywhere, not only in their lowest bits, tend to get different banks.
uint64_t rowHash(uint64_t row) {
  uint64_t h = 0;
  for (; row; row >>= 4) h += row & 15;
  return h;
}
}  // namespace

void HbmAddressMap::swizzle(Location& loc) const {
  // Every access decodes its address, so the divisions are shifts when the counts allow.
  const uint64_t h = rowHash(loc.row);
  uint64_t bank, groupTurn, group, unused;
  divmod(loc.bank + h, radix_[kBank], radixShift_[kBank], &unused, &bank);
  divmod(h, radix_[kBank], radixShift_[kBank], &groupTurn, &unused);
  divmod(loc.bankGroup + groupTurn, radix_[kBankGroup], radixShift_[kBankGroup], &unused, &group);
  loc.bank = static_cast<uint32_t>(bank);
  loc.bankGroup = static_cast<uint32_t>(group);
}

void HbmAddressMap::unswizzle(Location& loc) const {
  const uint64_t banks = radix_[kBank], groups = radix_[kBankGroup], h = rowHash(loc.row);
  loc.bank = static_cast<uint32_t>((loc.bank % banks + banks - h % banks) % banks);
  loc.bankGroup = static_cast<uint32_t>((loc.bankGroup % groups + groups - (h / banks) % groups) % groups);
}

uint64_t HbmAddressMap::encode(const Location& loc) const {
  if (bitwise_) {
    const uint64_t v[kFields] = {loc.row, loc.bank, loc.bankGroup, loc.byteInRow >> byteBits_, loc.pc};
    uint64_t a = loc.byteInRow & ((uint64_t{1} << byteBits_) - 1);
    for (const BitRun& r : runs_) a |= ((v[r.field] >> r.dst) & ((uint64_t{1} << r.width) - 1)) << r.src;
    return a;
  }
  Location in = loc;
  in.row %= radix_[kRow];
  if (swizzle_) unswizzle(in);
  uint64_t v[4];
  v[kRow] = in.row;
  v[kBank] = in.bank % radix_[kBank];
  v[kBankGroup] = in.bankGroup % radix_[kBankGroup];
  v[kColumn] = (loc.byteInRow / interleave_) % radix_[kColumn];
  uint64_t local = 0;
  for (int i = 3; i >= 0; --i) local = local * radix_[lsbFirst_[i]] + v[lsbFirst_[i]];
  uint64_t chunk = local * numPc_ + loc.pc % numPc_;
  return chunk * interleave_ + loc.byteInRow % interleave_;
}

}  // namespace npusim
