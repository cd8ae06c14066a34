// hccl_perf: HCCL collectives over a size sweep, printed as hccl_test prints them, plus the bus
// bandwidth of nccl-tests. One host thread per rank (as hccl_test runs one process per NPU),
// timed with events on each rank's stream; rank 0 prints. Runs timing-only (sim.functional=false)
// unless NPUSIM_SET says otherwise or -c 1 asks for a check of the results.
//
//   hccl_perf [-o allreduce|allgather|reducescatter|alltoall|broadcast|reduce|all] [-b 8] [-e 1G]
//             [-f 2] [-n ranks] [-i iters] [-c 0|1]
//
// The simulation is deterministic, so one iteration (the default) gives the average of many.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

struct Options {
  std::vector<std::string> ops{"allreduce"};
  uint64_t begin = 8, end = 1ull << 30, factor = 2;
  uint32_t ranks = 8, iters = 1;
  bool check = false;
};

uint64_t parseSize(const char* s) {
  char* e = nullptr;
  double v = std::strtod(s, &e);
  switch (e && *e ? *e : ' ') {
    case 'K':
    case 'k':
      v *= 1024;
      break;
    case 'M':
    case 'm':
      v *= 1024 * 1024;
      break;
    case 'G':
    case 'g':
      v *= 1024.0 * 1024 * 1024;
      break;
    default:
      break;
  }
  return static_cast<uint64_t>(v);
}

// Bytes each rank's buffers need and the bus-bandwidth factor (nccl-tests PERFORMANCE.md), for
// `size` as hccl_test counts it: the per-rank buffer for AllReduce, Broadcast, Reduce and
// AlltoAll, the whole gathered/scattered array for AllGather and ReduceScatter.
double busFactor(const std::string& op, uint32_t n) {
  if (op == "allreduce") return 2.0 * (n - 1) / n;
  if (op == "broadcast" || op == "reduce") return 1.0;
  return static_cast<double>(n - 1) / n;
}

HcclResult run(const std::string& op, uint64_t size, uint32_t n, void* in, void* out, HcclComm comm,
               aclrtStream s) {
  uint64_t count = size / 4;
  if (op == "allreduce") return HcclAllReduce(in, out, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
  if (op == "broadcast") return HcclBroadcast(in, count, HCCL_DATA_TYPE_FP32, 0, comm, s);
  if (op == "reduce") return HcclReduce(in, out, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 0, comm, s);
  if (op == "allgather") return HcclAllGather(in, out, count / n, HCCL_DATA_TYPE_FP32, comm, s);
  if (op == "reducescatter")
    return HcclReduceScatter(in, out, count / n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
  return HcclAlltoAll(in, count / n, HCCL_DATA_TYPE_FP32, out, count / n, HCCL_DATA_TYPE_FP32, comm, s);
}

// What rank r's output must hold after op (inputs: rank r's element i = r + i % 7).
bool checkOutput(const std::string& op, uint64_t size, uint32_t n, uint32_t r,
                 const std::vector<float>& got) {
  uint64_t count = size / 4, per = count / n;
  auto in = [](uint32_t q, uint64_t i) { return static_cast<float>(q + i % 7); };
  for (uint64_t i = 0; i < got.size(); ++i) {
    float want = 0;
    if (op == "allreduce" || (op == "reduce" && r == 0))
      for (uint32_t q = 0; q < n; ++q) want += in(q, i);
    else if (op == "reduce")
      continue;
    else if (op == "broadcast")
      want = in(0, i);
    else if (op == "allgather")
      want = in(static_cast<uint32_t>(i / per), i % per);
    else if (op == "reducescatter")
      for (uint32_t q = 0; q < n; ++q) want += in(q, r * per + i);
    else
      want = in(static_cast<uint32_t>(i / per), r * per + i % per);
    if (got[i] != want) return false;
  }
  return true;
}

void usage() {
  std::fprintf(stderr,
               "usage: hccl_perf [-o allreduce|allgather|reducescatter|alltoall|broadcast|reduce|all] [-b 8] "
               "[-e 1G] [-f 2] [-n ranks] [-i iters] [-c 0|1]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc + 1; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) usage();
    const char* v = argv[++i];
    if (a == "-o") {
      o.ops = std::string(v) == "all" ? std::vector<std::string>{"allreduce", "allgather", "reducescatter",
                                                                 "alltoall",  "broadcast", "reduce"}
                                      : std::vector<std::string>{v};
    } else if (a == "-b") {
      o.begin = parseSize(v);
    } else if (a == "-e") {
      o.end = parseSize(v);
    } else if (a == "-f") {
      o.factor = std::max<uint64_t>(2, std::strtoull(v, nullptr, 10));
    } else if (a == "-n") {
      o.ranks = static_cast<uint32_t>(std::strtoul(v, nullptr, 10));
    } else if (a == "-i") {
      o.iters = std::max<uint32_t>(1, static_cast<uint32_t>(std::strtoul(v, nullptr, 10)));
    } else if (a == "-c") {
      o.check = std::string(v) != "0";
    } else {
      usage();
    }
  }
  if (!o.check && !std::getenv("NPUSIM_SET")) setenv("NPUSIM_SET", "sim.functional=false", 1);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  if (aclInit(nullptr) != ACL_SUCCESS) return 1;
  uint32_t devices = 0;
  aclrtGetDeviceCount(&devices);
  if (o.ranks < 2 || o.ranks > devices) {
    std::fprintf(stderr, "hccl_perf: -n %u: need 2..%u ranks\n", o.ranks, devices);
    return 2;
  }
  aclrtSetDevice(0);
  HcclRootInfo root;
  if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return 1;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < o.ranks; ++r)
    threads.emplace_back([&, r] {
      aclrtSetDevice(static_cast<int32_t>(r));
      HcclComm comm;
      if (HcclCommInitRootInfo(o.ranks, &root, r, &comm) != HCCL_SUCCESS) return void(++failures);
      aclrtStream s;
      aclrtCreateStream(&s);
      aclrtEvent start, stop;
      aclrtCreateEvent(&start);
      aclrtCreateEvent(&stop);
      for (const std::string& op : o.ops) {
        if (r == 0)
          std::printf("\n%s, %u ranks, fp32\n%16s %16s %22s %22s %14s %12s\n", op.c_str(), o.ranks,
                      "data_size(Bytes)", "aveg_time(us)", "alg_bandwidth(GB/s)", "bus_bandwidth(GB/s)",
                      "check_result", "wall(s)");
        for (uint64_t size = o.begin; size <= o.end; size *= o.factor) {
          // Every rank moves whole fp32 elements, the same number to each peer.
          uint64_t unit = op == "allreduce" || op == "broadcast" || op == "reduce" ? 4 : 4ull * o.ranks;
          uint64_t bytes = std::max(unit, size / unit * unit);
          void *in = nullptr, *out = nullptr;
          aclrtMalloc(&in, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
          aclrtMalloc(&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
          if (o.check) {
            std::vector<float> h(bytes / 4);
            for (uint64_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(r + i % 7);
            aclrtMemcpy(in, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
          }
          auto wall0 = std::chrono::steady_clock::now();
          aclrtRecordEvent(start, s);
          bool ok = true;
          for (uint32_t it = 0; it < o.iters; ++it)
            ok &= run(op, bytes, o.ranks, in, out, comm, s) == HCCL_SUCCESS;
          aclrtRecordEvent(stop, s);
          ok &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
          double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
          float ms = 0;
          aclrtEventElapsedTime(&ms, start, stop);
          std::string result = ok ? "skipped" : "failed";
          if (ok && o.check) {
            uint64_t outBytes = op == "reducescatter" ? bytes / o.ranks : op == "broadcast" ? bytes : bytes;
            std::vector<float> got(outBytes / 4);
            aclrtMemcpy(got.data(), outBytes, op == "broadcast" ? in : out, outBytes,
                        ACL_MEMCPY_DEVICE_TO_HOST);
            result = checkOutput(op, bytes, o.ranks, r, got) ? "success" : "failed";
          }
          if (result == "failed") ++failures;
          double us = ms * 1000.0 / o.iters;
          double alg = us > 0 ? bytes / (us * 1e-6) / 1e9 : 0;
          if (r == 0)
            std::printf("%16llu %16.2f %22.4f %22.4f %14s %12.3f\n", static_cast<unsigned long long>(bytes),
                        us, alg, alg * busFactor(op, o.ranks), result.c_str(), wall);
          std::fflush(stdout);
          HcclBarrier(comm, s);
          aclrtSynchronizeStream(s);
          aclrtFree(in);
          aclrtFree(out);
        }
      }
      HcclCommDestroy(comm);
      aclrtDestroyStream(s);
    });
  for (auto& t : threads) t.join();
  aclFinalize();
  return failures ? 1 : 0;
}
