#pragma once
// File-scope __gm__ variables of custom kernels (device variables: aclrtGetSymbolAddress, the
// symbol copies, aclrtBinaryGetGlobal). Kernel code is host code, so it reads and writes such a
// variable at its host address; its device value lives in device memory of each device it is
// used on (an allocation made from the variable's initial bytes). Around every kernel the
// variable is loaded from, then stored back to, the running device's copy, so copies, other
// kernels and other devices see device memory as they would on hardware.
#include <cstddef>
#include <cstdint>
#include <string>

namespace npusim::rt::devvars {

struct Info {
  void* symbol = nullptr;
  size_t size = 0;
  std::string name;
};

// The variable registered at exactly `symbol` (the address of the variable, as the program
// passes it). False when there is none.
bool find(const void* symbol, Info* out);
// Its device copy on `device`, made on first use; nullptr when the device is out of memory.
// Runtime lock held.
void* deviceCopy(const void* symbol, int device);
// Before a kernel is launched on `device`: every variable gets its device copy there.
void ensureAll(int device);
// While a kernel's task runs on `device`: before its blocks, the variables take the device's
// values; after them, the device copies take what the blocks left.
void load(int device);
void store(int device);
// A binary is unloaded: the variables of the object loaded at `base` are forgotten and their
// device copies freed.
void releaseObject(const void* base);

}  // namespace npusim::rt::devvars
