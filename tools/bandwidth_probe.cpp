// npusim-bandwidth-probe: the ACL program behind `npusim bandwidth`. It measures, one copy at a
// time, H2D, D2H and local D2D for every device and a peer write for every ordered device pair
// (and the link it takes, HCCS or PCIe),
// timing each copy with events on the copying stream, and writes the results as JSON. A
// SystemC simulation cannot restart in a process, so npusim runs this program once per
// configuration with NPUSIM_CONFIG/NPUSIM_SET set.
//
// Usage: npusim-bandwidth-probe BYTES OUT.json [REPEAT]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

using json = nlohmann::json;

[[noreturn]] void die(const char* what, aclError e) {
  std::fprintf(stderr, "npusim-bandwidth-probe: %s failed with error %d: %s\n", what, static_cast<int>(e),
               aclGetRecentErrMsg());
  std::exit(1);
}

void check(aclError e, const char* what) {
  if (e != ACL_SUCCESS) die(what, e);
}

struct DeviceBuffers {
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, stop = nullptr;
  void* a = nullptr;
  void* b = nullptr;
};

// GB/s (1e9 bytes per second) of `repeat` back-to-back copies on the device's stream.
double timeCopies(DeviceBuffers& d, void* dst, const void* src, size_t bytes, aclrtMemcpyKind kind,
                  int repeat) {
  check(aclrtRecordEvent(d.start, d.stream), "aclrtRecordEvent");
  for (int i = 0; i < repeat; ++i)
    check(aclrtMemcpyAsync(dst, bytes, src, bytes, kind, d.stream), "aclrtMemcpyAsync");
  check(aclrtRecordEvent(d.stop, d.stream), "aclrtRecordEvent");
  check(aclrtSynchronizeStream(d.stream), "aclrtSynchronizeStream");
  float ms = 0.0f;
  check(aclrtEventElapsedTime(&ms, d.start, d.stop), "aclrtEventElapsedTime");
  if (ms <= 0.0f) return 0.0;
  return static_cast<double>(bytes) * repeat / (static_cast<double>(ms) * 1e-3) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s BYTES OUT.json [REPEAT]\n", argv[0]);
    return 2;
  }
  const size_t bytes = std::strtoull(argv[1], nullptr, 0);
  const int repeat = argc == 4 ? std::atoi(argv[3]) : 1;
  if (bytes == 0 || repeat < 1) {
    std::fprintf(stderr, "npusim-bandwidth-probe: BYTES and REPEAT must be positive\n");
    return 2;
  }

  check(aclInit(nullptr), "aclInit");
  uint32_t count = 0;
  check(aclrtGetDeviceCount(&count), "aclrtGetDeviceCount");
  const int n = static_cast<int>(count);

  std::vector<DeviceBuffers> devs(count);
  void* host = nullptr;
  for (int d = 0; d < n; ++d) {
    check(aclrtSetDevice(d), "aclrtSetDevice");
    check(aclrtCreateStream(&devs[d].stream), "aclrtCreateStream");
    check(aclrtCreateEvent(&devs[d].start), "aclrtCreateEvent");
    check(aclrtCreateEvent(&devs[d].stop), "aclrtCreateEvent");
    check(aclrtMalloc(&devs[d].a, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMalloc(&devs[d].b, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    if (!host) check(aclrtMallocHost(&host, bytes), "aclrtMallocHost");
  }

  json out = {{"bytes", bytes}, {"repeat", repeat}, {"devices", n}};
  json h2d = json::array(), d2h = json::array(), d2d = json::array();
  for (int d = 0; d < n; ++d) {
    check(aclrtSetDevice(d), "aclrtSetDevice");
    DeviceBuffers& b = devs[d];
    h2d.push_back(timeCopies(b, b.a, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, repeat));
    d2h.push_back(timeCopies(b, host, b.a, bytes, ACL_MEMCPY_DEVICE_TO_HOST, repeat));
    d2d.push_back(timeCopies(b, b.b, b.a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, repeat));
  }
  out["h2d"] = h2d;
  out["d2h"] = d2h;
  out["d2d"] = d2d;

  // Peer writes: row = source device (whose DMA engine copies), column = destination.
  // Which link each pair's copy takes (aclrtGetDevicesTopo): HCCS where linked, else PCIe.
  json p2p = json::array(), p2pLink = json::array();
  for (int s = 0; s < n; ++s) {
    json row = json::array(), links = json::array();
    for (int t = 0; t < n; ++t) {
      uint64_t topo = 0;
      if (s != t) check(aclrtGetDevicesTopo(s, t, &topo), "aclrtGetDevicesTopo");
      links.push_back(s == t ? json(nullptr) : json(topo == ACL_RT_DEVS_TOPOLOGY_HCCS ? "HCCS" : "PCIe"));
    }
    p2pLink.push_back(links);
    check(aclrtSetDevice(s), "aclrtSetDevice");
    for (int t = 0; t < n; ++t) {
      if (s == t) {
        row.push_back(nullptr);
        continue;
      }
      int32_t can = 0;
      check(aclrtDeviceCanAccessPeer(&can, s, t), "aclrtDeviceCanAccessPeer");
      if (!can) {
        row.push_back(nullptr);
        continue;
      }
      check(aclrtDeviceEnablePeerAccess(t, 0), "aclrtDeviceEnablePeerAccess");
      row.push_back(timeCopies(devs[s], devs[t].a, devs[s].a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, repeat));
      check(aclrtDeviceDisablePeerAccess(t), "aclrtDeviceDisablePeerAccess");
    }
    p2p.push_back(row);
  }
  out["p2p"] = p2p;
  out["p2p_link"] = p2pLink;

  aclrtFreeHost(host);
  for (int d = 0; d < n; ++d) {
    check(aclrtSetDevice(d), "aclrtSetDevice");
    aclrtFree(devs[d].a);
    aclrtFree(devs[d].b);
    aclrtDestroyEvent(devs[d].start);
    aclrtDestroyEvent(devs[d].stop);
    aclrtDestroyStream(devs[d].stream);
    aclrtResetDevice(d);
  }
  aclFinalize();

  std::ofstream f(argv[2]);
  f << out.dump(1) << "\n";
  if (!f) {
    std::fprintf(stderr, "npusim-bandwidth-probe: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
