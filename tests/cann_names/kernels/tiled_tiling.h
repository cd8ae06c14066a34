#pragma once
// tiled_kernel.cpp's tiling struct, read the way the first Ascend C samples' tiling headers read it
// (kernel_invocation/Add_tile): for the device compiler __aicore__ is its own [aicore] attribute
// and the struct is copied into the unified buffer with the CCE intrinsics; in the CPU debug mode
// it is read where it lies.
#include <cstdint>

#ifdef __CCE_KT_TEST__
#define __aicore__
#else
#define __aicore__ [aicore]
#endif

struct TiledTiling {
  uint32_t n;     // floats in x and z
  uint32_t tile;  // floats per tile
};

inline __aicore__ uint16_t BlocksOf(uint32_t bytes) { return static_cast<uint16_t>((bytes + 31) / 32); }

#ifdef __CCE_KT_TEST__
#define READ_TILING(name, pointer) TiledTiling name = *reinterpret_cast<__gm__ TiledTiling*>(pointer);
#else
#define READ_TILING(name, pointer)                                                                  \
  __ubuf__ uint8_t* name##Ub = (__ubuf__ uint8_t*)get_imm(0);                                       \
  copy_gm_to_ubuf(name##Ub, (__gm__ uint8_t*)(pointer), 0, 1, BlocksOf(sizeof(TiledTiling)), 0, 0); \
  pipe_barrier(PIPE_ALL);                                                                           \
  TiledTiling name = *reinterpret_cast<__ubuf__ TiledTiling*>(name##Ub);
#endif
