#pragma once
// Device address -> (pseudo-channel, bank group, bank, row, byte in row).
//
// The address (taken modulo the capacity) is cut into interleave chunks; chunk i goes to
// pseudo-channel i mod P, so a sequential stream spreads over all pseudo-channels. The chunk's
// index within its pseudo-channel (i div P) is then split into the fields of
// HbmParams::addressMap, least significant last: with the default "ro-ba-co-bg", successive
// chunks of one pseudo-channel rotate over the bank groups (so the tCCD_L of one group is hidden
// by the others), then fill the open row, then move to the next bank, then the next row.
//
// With HbmParams::bankSwizzle the bank and the bank group are then rotated by the row:
// bank' = (bank + row) mod banks, group' = (group + row / banks) mod groups. Within one row's
// worth of chunks this is a permutation, so a sequential stream behaves as without it; streams
// in different rows of the same bank (a power-of-two stride apart) land in different banks.
//
// Alternatively the map is given bit by bit (docs/hbm.md "Address mapping"): "pc:5 bg:6-7
// ba:8-9 co:10-14 ro:15-29" places each field on chosen address bits (bits below the 32 B
// column access are the byte offset); "bits:ro-co-ba-bg-pc" stacks the fields contiguously,
// most significant first, from the first bit above the column access; and a few layouts have
// names (kNamedMaps): "pc-bit5" is the cycle-accurate reference's, pseudo-channel on bit 5.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/hbm/hbm_params.h"

namespace npusim {

class HbmAddressMap {
 public:
  enum FieldId { kRow = 0, kBank = 1, kBankGroup = 2, kColumn = 3 };
  struct Location {
    uint32_t pc = 0;  // pseudo-channel, 0 .. numPseudoChannels-1 (stack-major)
    uint32_t bankGroup = 0;
    uint32_t bank = 0;  // within the bank group
    uint64_t row = 0;
    uint32_t byteInRow = 0;  // 0 .. rowBytes-1
  };

  explicit HbmAddressMap(const HbmParams& p);

  Location decode(uint64_t addr) const;
  // Inverse of decode (for tests and traffic generators); byteInRow may be any value in the row.
  uint64_t encode(const Location& loc) const;

  // Parses "ro-ba-co-bg" into field ids, most significant first; throws std::invalid_argument.
  static std::array<FieldId, 4> parseOrder(const std::string& text);
  // Throws std::invalid_argument when `p.addressMap` is not a valid map for p's organisation.
  static void check(const HbmParams& p) { HbmAddressMap map(p); }
  // Bytes from an address up to the next point where the pseudo-channel, bank or row may
  // change: a request is split into segments at multiples of this.
  uint64_t runBytes() const { return run_; }

 private:
  uint64_t capacity_;
  uint64_t interleave_;
  uint64_t numPc_;
  uint64_t chunksPerRow_;
  std::array<FieldId, 4> lsbFirst_;  // decode order
  std::array<uint64_t, 4> radix_;    // indexed by FieldId
  // Shift amounts when a divisor is a power of two (-1 otherwise): decode is on the hot path.
  int interleaveShift_, pcShift_;
  std::array<int, 4> radixShift_;  // indexed by FieldId
  bool allShifts_;                 // every divisor above is a power of two
  std::array<int, 4> fieldPos_;    // bit position of each field in the local chunk index
  uint64_t run_;
  bool swizzle_ = false;
  void swizzle(Location& loc) const;    // decode: rotate bank and group by the row
  void unswizzle(Location& loc) const;  // encode: the inverse

  // Bit-by-bit maps: each field is gathered from runs of address bits.
  enum { kPcField = 4, kFields = 5 };
  struct BitRun {
    int field;
    int src;    // lowest address bit
    int width;  // bits
    int dst;    // lowest bit within the field's value
  };
  void parseBits(const std::string& text, const HbmParams& p);
  bool bitwise_ = false;
  int byteBits_ = 0;
  std::vector<BitRun> runs_;
};

}  // namespace npusim
