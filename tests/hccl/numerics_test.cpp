// Collective results for every data type and reduce op on 8 ranks, with odd element counts, on
// the mesh (small and large AllReduce paths) and on the ring.
#include <cmath>
#include <cstdlib>
#include <functional>

#include "runtime/hccl/reduce_kernels.h"
#include "tests/hccl/hccl_test_util.h"

using npusim::test::Ranks;

namespace {

const HcclDataType kTypes[] = {HCCL_DATA_TYPE_INT8,   HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32,
                               HCCL_DATA_TYPE_FP16,   HCCL_DATA_TYPE_FP32,  HCCL_DATA_TYPE_INT64,
                               HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16,
                               HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_FP64,  HCCL_DATA_TYPE_BFP16};
const HcclReduceOp kOps[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};

size_t sizeOf(HcclDataType t) { return npusim::hccl::elementSize(t); }

// Small whole numbers are exact in every type, so the expected results need no rounding.
void put(HcclDataType t, uint8_t* p, int64_t v) {
  switch (t) {
    case HCCL_DATA_TYPE_FP16: {
      uint16_t h = aclFloatToFloat16(static_cast<float>(v));
      std::memcpy(p, &h, 2);
      return;
    }
    case HCCL_DATA_TYPE_BFP16: {
      float f = static_cast<float>(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      uint16_t b = static_cast<uint16_t>(u >> 16);
      std::memcpy(p, &b, 2);
      return;
    }
    case HCCL_DATA_TYPE_FP32: {
      float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case HCCL_DATA_TYPE_FP64: {
      double d = static_cast<double>(v);
      std::memcpy(p, &d, 8);
      return;
    }
    default: {
      uint64_t u = static_cast<uint64_t>(v);
      std::memcpy(p, &u, sizeOf(t));
      return;
    }  // little endian
  }
}

int64_t get(HcclDataType t, const uint8_t* p) {
  switch (t) {
    case HCCL_DATA_TYPE_FP16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return std::llround(aclFloat16ToFloat(h));
    }
    case HCCL_DATA_TYPE_BFP16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      uint32_t u = static_cast<uint32_t>(b) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return std::llround(f);
    }
    case HCCL_DATA_TYPE_FP32: {
      float f;
      std::memcpy(&f, p, 4);
      return std::llround(f);
    }
    case HCCL_DATA_TYPE_FP64: {
      double d;
      std::memcpy(&d, p, 8);
      return std::llround(d);
    }
    case HCCL_DATA_TYPE_INT8:
      return *reinterpret_cast<const int8_t*>(p);
    case HCCL_DATA_TYPE_INT16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case HCCL_DATA_TYPE_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      uint64_t u = 0;
      std::memcpy(&u, p, sizeOf(t));
      return static_cast<int64_t>(u);
    }
  }
}

// Rank r's element i: 1 or 2 for products (2^8 fits every type), 0..6 otherwise; signed types
// also see negatives.
int64_t value(HcclDataType t, HcclReduceOp op, uint32_t r, uint64_t i) {
  if (op == HCCL_REDUCE_PROD) return 1 + static_cast<int64_t>((r * 7 + i) % 3 == 0);
  bool unsignedType = t == HCCL_DATA_TYPE_UINT8 || t == HCCL_DATA_TYPE_UINT16 || t == HCCL_DATA_TYPE_UINT32 ||
                      t == HCCL_DATA_TYPE_UINT64;
  int64_t v = static_cast<int64_t>((r * 5 + i * 3) % 7);
  return unsignedType ? v : v - 3;
}

int64_t expected(HcclDataType t, HcclReduceOp op, uint32_t n, uint64_t i) {
  int64_t acc = value(t, op, 0, i);
  for (uint32_t r = 1; r < n; ++r) {
    int64_t v = value(t, op, r, i);
    acc = op == HCCL_REDUCE_SUM    ? acc + v
          : op == HCCL_REDUCE_PROD ? acc * v
          : op == HCCL_REDUCE_MAX  ? std::max(acc, v)
                                   : std::min(acc, v);
  }
  // The product 256 wraps in 8-bit integers, as on the device.
  if (t == HCCL_DATA_TYPE_INT8) return static_cast<int8_t>(acc);
  if (t == HCCL_DATA_TYPE_UINT8) return static_cast<uint8_t>(acc);
  return acc;
}

std::vector<uint8_t> input(HcclDataType t, HcclReduceOp op, uint32_t r, uint64_t count) {
  std::vector<uint8_t> v(count * sizeOf(t));
  for (uint64_t i = 0; i < count; ++i) put(t, v.data() + i * sizeOf(t), value(t, op, r, i));
  return v;
}

// AllReduce of `count` elements of every type with every op; checks every rank's output.
void allReduceAllTypes(uint64_t count) {
  Ranks k(8);
  for (HcclDataType t : kTypes)
    for (HcclReduceOp op : kOps) {
      std::vector<void*> in(8), out(8);
      for (uint32_t r = 0; r < 8; ++r) {
        auto h = input(t, op, r, count);
        in[r] = k.alloc(r, h.size(), h.data());
        out[r] = k.alloc(r, h.size());
      }
      for (uint32_t r = 0; r < 8; ++r)
        ASSERT_EQ(HcclAllReduce(in[r], out[r], count, t, op, k.comms[r], k.streams[r]), HCCL_SUCCESS);
      k.syncAll();
      for (uint32_t r = 0; r < 8; ++r) {
        auto got = k.read(r, out[r], count * sizeOf(t));
        for (uint64_t i = 0; i < count; ++i)
          ASSERT_EQ(get(t, got.data() + i * sizeOf(t)), expected(t, op, 8, i))
              << "type " << t << " op " << op << " rank " << r << " element " << i;
        aclrtFree(in[r]);
        aclrtFree(out[r]);
      }
    }
  k.destroy();
}

}  // namespace

TEST(HcclNumerics, AllReduceSmallMeshEveryTypeAndOp) {
  npusim::test::configure("");
  setenv("NPUSIM_HCCL_ALGO", "mesh", 1);
  allReduceAllTypes(1001);
}

TEST(HcclNumerics, AllReduceLargeMeshEveryTypeAndOp) {
  npusim::test::configure("");
  setenv("NPUSIM_HCCL_ALGO", "mesh", 1);
  allReduceAllTypes(70001);  // above 256 KB for 4-byte types and more: the mesh RS + AG path
}

TEST(HcclNumerics, AllReduceRingEveryTypeAndOp) {
  npusim::test::configure("");
  setenv("NPUSIM_HCCL_ALGO", "ring", 1);
  allReduceAllTypes(4099);
}

TEST(HcclNumerics, AllReduceLoopsThroughSmallBuffers) {
  // 1 MB CCL buffers: a 3 MB+ AllReduce takes several loops on both algorithms.
  npusim::test::configure("");
  setenv("HCCL_BUFFSIZE", "1", 1);
  for (const char* algo : {"mesh", "ring"}) {
    setenv("NPUSIM_HCCL_ALGO", algo, 1);
    Ranks k(4);
    const uint64_t count = 800003;
    std::vector<void*> in(4), out(4);
    for (uint32_t r = 0; r < 4; ++r) {
      auto h = input(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r, count);
      in[r] = k.alloc(r, h.size(), h.data());
      out[r] = k.alloc(r, h.size());
      ASSERT_EQ(
          HcclAllReduce(in[r], out[r], count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[r], k.streams[r]),
          HCCL_SUCCESS);
    }
    k.syncAll();
    for (uint32_t r = 0; r < 4; ++r) {
      auto got = k.read(r, out[r], count * 4);
      for (uint64_t i = 0; i < count; i += 997)
        ASSERT_EQ(get(HCCL_DATA_TYPE_FP32, got.data() + i * 4),
                  expected(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4, i))
            << algo << " rank " << r << " element " << i;
    }
    k.destroy();
  }
}
