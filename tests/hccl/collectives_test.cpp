// The other collectives and point-to-point calls on 8 ranks: each rank's output, odd sizes,
// on the mesh and (where it has its own algorithm) the ring.
#include <numeric>

#include "tests/hccl/hccl_test_util.h"

using npusim::test::Ranks;

namespace {

// Rank r's int32 element i, distinct for every (rank, element).
int32_t v(uint32_t r, uint64_t i) { return static_cast<int32_t>(r * 100000 + i); }

std::vector<int32_t> ints(const std::vector<uint8_t>& b) {
  std::vector<int32_t> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

void* fill(Ranks& k, uint32_t r, uint64_t count, const std::function<int32_t(uint64_t)>& f) {
  std::vector<int32_t> h(count);
  for (uint64_t i = 0; i < count; ++i) h[i] = f(i);
  return k.alloc(r, count * 4, h.data());
}

void useAlgo(const char* algo) {
  npusim::test::configure("");
  setenv("NPUSIM_HCCL_ALGO", algo, 1);
}

void broadcastFrom(uint32_t root, uint64_t count) {
  Ranks k(8);
  std::vector<void*> buf(8);
  for (uint32_t r = 0; r < 8; ++r)
    buf[r] = fill(k, r, count, [&](uint64_t i) { return r == root ? v(root, i) : -1; });
  for (uint32_t r = 0; r < 8; ++r)
    ASSERT_EQ(HcclBroadcast(buf[r], count, HCCL_DATA_TYPE_INT32, root, k.comms[r], k.streams[r]),
              HCCL_SUCCESS);
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, buf[r], count * 4));
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(got[i], v(root, i)) << "rank " << r << " element " << i;
  }
  k.destroy();
}

void allGather(uint64_t count) {
  Ranks k(8);
  std::vector<void*> in(8), out(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in[r] = fill(k, r, count, [&](uint64_t i) { return v(r, i); });
    out[r] = k.alloc(r, count * 8 * 4);
  }
  for (uint32_t r = 0; r < 8; ++r)
    ASSERT_EQ(HcclAllGather(in[r], out[r], count, HCCL_DATA_TYPE_INT32, k.comms[r], k.streams[r]),
              HCCL_SUCCESS);
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, out[r], count * 8 * 4));
    for (uint32_t q = 0; q < 8; ++q)
      for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(got[q * count + i], v(q, i)) << "rank " << r;
  }
  k.destroy();
}

void reduceScatter(uint64_t recvCount) {
  Ranks k(8);
  std::vector<void*> in(8), out(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in[r] = fill(k, r, recvCount * 8, [&](uint64_t i) { return v(r, i); });
    out[r] = k.alloc(r, recvCount * 4);
  }
  for (uint32_t r = 0; r < 8; ++r)
    ASSERT_EQ(HcclReduceScatter(in[r], out[r], recvCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, k.comms[r],
                                k.streams[r]),
              HCCL_SUCCESS);
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, out[r], recvCount * 4));
    for (uint64_t i = 0; i < recvCount; ++i) ASSERT_EQ(got[i], v(7, r * recvCount + i)) << "rank " << r;
  }
  k.destroy();
}

}  // namespace

TEST(HcclCollectives, BroadcastMeshFromEveryRoot) {
  useAlgo("mesh");
  broadcastFrom(0, 1);
  broadcastFrom(5, 100003);
}

TEST(HcclCollectives, AllGatherMeshAndRing) {
  useAlgo("mesh");
  allGather(1);
  allGather(33333);
  useAlgo("ring");
  allGather(777);
}

// Ring AllGather with the ranks calling far apart in simulated time (a blocking copy between
// the calls): a rank's first push waits until the next rank has posted its output.
TEST(HcclCollectives, RingAllGatherWaitsForTheNextRanksCall) {
  useAlgo("ring");
  Ranks k(4);
  const uint64_t count = 1000;
  std::vector<void*> in(4), out(4);
  for (uint32_t r = 0; r < 4; ++r) in[r] = fill(k, r, count, [&](uint64_t i) { return v(r, i); });
  for (uint32_t r = 0; r < 4; ++r) {
    out[r] = k.alloc(r, count * 4 * 4);  // a blocking copy: the earlier ranks' tasks run meanwhile
    ASSERT_EQ(HcclAllGather(in[r], out[r], count, HCCL_DATA_TYPE_INT32, k.comms[r], k.streams[r]),
              HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 4; ++r) {
    auto got = ints(k.read(r, out[r], count * 4 * 4));
    for (uint32_t q = 0; q < 4; ++q)
      for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(got[q * count + i], v(q, i)) << "rank " << r;
  }
  k.destroy();
}

TEST(HcclCollectives, ReduceScatterMeshAndRing) {
  useAlgo("mesh");
  reduceScatter(1);
  reduceScatter(50001);
  useAlgo("ring");
  reduceScatter(3001);
}

TEST(HcclCollectives, ReduceToRootLeavesOthersUntouched) {
  useAlgo("mesh");
  Ranks k(8);
  const uint64_t count = 12345;
  const uint32_t root = 3;
  std::vector<void*> in(8), out(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in[r] = fill(k, r, count, [&](uint64_t i) { return v(r, i); });
    out[r] = k.alloc(r, count * 4);
    ASSERT_EQ(HcclReduce(in[r], out[r], count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, root, k.comms[r],
                         k.streams[r]),
              HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, out[r], count * 4));
    for (uint64_t i = 0; i < count; ++i) {
      int32_t sum = 0;
      for (uint32_t q = 0; q < 8; ++q) sum += v(q, i);
      ASSERT_EQ(got[i], r == root ? sum : 0) << "rank " << r << " element " << i;
    }
  }
  k.destroy();
}

TEST(HcclCollectives, ScatterFromRoot) {
  useAlgo("mesh");
  Ranks k(8);
  const uint64_t count = 1001;
  const uint32_t root = 6;
  std::vector<void*> in(8), out(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in[r] = fill(k, r, count * 8, [&](uint64_t i) { return v(r, i); });
    out[r] = k.alloc(r, count * 4);
    ASSERT_EQ(HcclScatter(in[r], out[r], count, HCCL_DATA_TYPE_INT32, root, k.comms[r], k.streams[r]),
              HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, out[r], count * 4));
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(got[i], v(root, r * count + i)) << "rank " << r;
  }
  k.destroy();
}

TEST(HcclCollectives, AlltoAllFamily) {
  useAlgo("mesh");
  Ranks k(8);
  const uint64_t c = 257;
  // AlltoAll: block p of rank r's send goes to block r of rank p's receive.
  std::vector<void*> in(8), out(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in[r] = fill(k, r, c * 8, [&](uint64_t i) { return v(r, i); });
    out[r] = k.alloc(r, c * 8 * 4);
    ASSERT_EQ(HcclAlltoAll(in[r], c, HCCL_DATA_TYPE_INT32, out[r], c, HCCL_DATA_TYPE_INT32, k.comms[r],
                           k.streams[r]),
              HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, out[r], c * 8 * 4));
    for (uint32_t p = 0; p < 8; ++p)
      for (uint64_t i = 0; i < c; ++i) ASSERT_EQ(got[p * c + i], v(p, r * c + i)) << "rank " << r;
  }
  // AlltoAllVC: rank r sends (r + p + 1) elements to rank p, packed.
  uint64_t m[64];
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t p = 0; p < 8; ++p) m[r * 8 + p] = r + p + 1;
  std::vector<void*> sv(8), rv(8);
  for (uint32_t r = 0; r < 8; ++r) {
    uint64_t sendTotal = 0, recvTotal = 0;
    for (uint32_t p = 0; p < 8; ++p) sendTotal += m[r * 8 + p], recvTotal += m[p * 8 + r];
    sv[r] = fill(k, r, sendTotal, [&](uint64_t i) { return v(r, i); });
    rv[r] = k.alloc(r, recvTotal * 4);
    ASSERT_EQ(
        HcclAlltoAllVC(sv[r], m, HCCL_DATA_TYPE_INT32, rv[r], HCCL_DATA_TYPE_INT32, k.comms[r], k.streams[r]),
        HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    uint64_t recvTotal = 0;
    for (uint32_t p = 0; p < 8; ++p) recvTotal += m[p * 8 + r];
    auto got = ints(k.read(r, rv[r], recvTotal * 4));
    uint64_t pos = 0;
    for (uint32_t p = 0; p < 8; ++p) {
      uint64_t off = 0;  // where rank p's block for r starts in p's send buffer
      for (uint32_t q = 0; q < r; ++q) off += m[p * 8 + q];
      for (uint64_t i = 0; i < m[p * 8 + r]; ++i)
        ASSERT_EQ(got[pos + i], v(p, off + i)) << "rank " << r << " from " << p;
      pos += m[p * 8 + r];
    }
  }
  k.destroy();
}

TEST(HcclCollectives, SendRecvPairsAndBatchRing) {
  useAlgo("mesh");
  setenv("HCCL_BUFFSIZE", "1", 1);  // 128 KB staging slots: the 300 KB sends loop
  Ranks k(8);
  const uint64_t count = 75001;
  std::vector<void*> buf(8);
  for (uint32_t r = 0; r < 8; ++r)
    buf[r] = fill(k, r, count, [&](uint64_t i) { return r % 2 ? -1 : v(r, i); });
  for (uint32_t r = 0; r < 8; ++r) {
    HcclResult res = r % 2 ? HcclRecv(buf[r], count, HCCL_DATA_TYPE_INT32, r - 1, k.comms[r], k.streams[r])
                           : HcclSend(buf[r], count, HCCL_DATA_TYPE_INT32, r + 1, k.comms[r], k.streams[r]);
    ASSERT_EQ(res, HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 1; r < 8; r += 2) {
    auto got = ints(k.read(r, buf[r], count * 4));
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(got[i], v(r - 1, i));
  }
  // A ring: every rank sends to the next and receives from the previous in one batch.
  std::vector<void*> s(8), d(8);
  for (uint32_t r = 0; r < 8; ++r) {
    s[r] = fill(k, r, count, [&](uint64_t i) { return v(r, i); });
    d[r] = k.alloc(r, count * 4);
  }
  for (uint32_t r = 0; r < 8; ++r) {
    HcclSendRecvItem items[2] = {{HCCL_SEND, s[r], count, HCCL_DATA_TYPE_INT32, (r + 1) % 8},
                                 {HCCL_RECV, d[r], count, HCCL_DATA_TYPE_INT32, (r + 7) % 8}};
    ASSERT_EQ(HcclBatchSendRecv(items, 2, k.comms[r], k.streams[r]), HCCL_SUCCESS);
  }
  k.syncAll();
  for (uint32_t r = 0; r < 8; ++r) {
    auto got = ints(k.read(r, d[r], count * 4));
    for (uint64_t i = 0; i < count; i += 101) ASSERT_EQ(got[i], v((r + 7) % 8, i)) << "rank " << r;
  }
  for (uint32_t r = 0; r < 8; ++r) ASSERT_EQ(HcclBarrier(k.comms[r], k.streams[r]), HCCL_SUCCESS);
  k.syncAll();
  k.destroy();
}

TEST(HcclCollectives, CapturedAllReduceReplaysWithNewData) {
  // Each rank captures its AllReduce into a model; every replay reduces what the inputs hold then.
  useAlgo("mesh");
  Ranks k(4);
  const uint64_t count = 70001;  // above 256 KB: the reduce-scatter + gather path
  std::vector<void*> in(4), out(4);
  std::vector<aclmdlRI> models(4);
  for (uint32_t r = 0; r < 4; ++r) {
    in[r] = k.alloc(r, count * 4);
    out[r] = k.alloc(r, count * 4);
    ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(k.streams[r], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(
        HcclAllReduce(in[r], out[r], count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, k.comms[r], k.streams[r]),
        HCCL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(k.streams[r], &models[r]), ACL_SUCCESS);
  }
  for (int32_t round = 1; round <= 2; ++round) {
    for (uint32_t r = 0; r < 4; ++r) {
      std::vector<int32_t> h(count);
      for (uint64_t i = 0; i < count; ++i) h[i] = round * v(r, i);
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpy(in[r], count * 4, h.data(), count * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    for (uint32_t r = 0; r < 4; ++r) {
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIExecuteAsync(models[r], k.streams[r]), ACL_SUCCESS);
    }
    k.syncAll();
    for (uint32_t r = 0; r < 4; ++r) {
      auto got = ints(k.read(r, out[r], count * 4));
      for (uint64_t i = 0; i < count; i += 113) {
        int32_t sum = 0;
        for (uint32_t q = 0; q < 4; ++q) sum += round * v(q, i);
        ASSERT_EQ(got[i], sum) << "round " << round << " rank " << r << " element " << i;
      }
    }
  }
  k.destroy();
}
