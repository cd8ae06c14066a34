// Standalone driver for the HBM model: a closed-loop synthetic request stream (keep N requests
// in flight, issue the next when the earliest completes), reporting achieved bandwidth, latency
// percentiles, row-hit rate and the model's own speed. Uses only models/hbm.
//
//   hbm_driver [--pattern seq|random] [--read-fraction F] [--size BYTES] [--outstanding N]
//              [--channels N] [--timing hbm2-2000|hbm2e-3200|hbm3-6400] [--requests N]
//              [--reorder-holes N] [--no-refresh] [--aligned-refresh] [--per-bank-refresh]
//              [--address-map MAP] [--write-queue HIGH,LOW] [--seed S] [--csv]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/hbm/hbm_traffic.h"

namespace {

void usage(const char* argv0) {
  std::printf(
      "usage: %s [options]\n"
      "  --pattern seq|random     address pattern (default seq)\n"
      "  --read-fraction F        probability that a request is a read (default 1.0)\n"
      "  --size BYTES             request size (default 65536)\n"
      "  --outstanding N          requests kept in flight (default 16)\n"
      "  --channels N             total pseudo-channels (default: the 910B organisation, 64)\n"
      "  --timing NAME            hbm2-2000 | hbm2e-3200 | hbm3-6400 (default hbm2e-3200)\n"
      "  --requests N             requests to issue (default: 256 MiB worth, at most 4 Mi)\n"
      "  --reorder-holes N        controller reordering depth, 0 = in order (default 8)\n"
      "  --no-refresh             disable refresh\n"
      "  --aligned-refresh        all pseudo-channels refresh together (default staggered)\n"
      "  --per-bank-refresh       per-bank refresh (REFSB) instead of all-bank\n"
      "  --address-map MAP        hbm.address_map, e.g. pc-bit5 (docs/hbm.md)\n"
      "  --write-queue HIGH,LOW   post writes and drain them in batches from HIGH down to LOW\n"
      "  --seed S                 random seed (default 1)\n"
      "  --csv                    one header line and one value line\n",
      argv0);
}

// Parses an unsigned integer with an optional K/M/G (binary) suffix.
uint64_t parseCount(const std::string& opt, const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  uint64_t mult = 1;
  if (end && *end) {
    if ((*end == 'K' || *end == 'k') && end[1] == '\0')
      mult = 1ull << 10;
    else if ((*end == 'M' || *end == 'm') && end[1] == '\0')
      mult = 1ull << 20;
    else if ((*end == 'G' || *end == 'g') && end[1] == '\0')
      mult = 1ull << 30;
    else
      throw std::invalid_argument(opt + ": '" + text + "' is not a number");
  }
  if (end == text || v < 0)
    throw std::invalid_argument(opt + ": '" + text + "' is not a non-negative number");
  return static_cast<uint64_t>(v * static_cast<double>(mult));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace npusim;
  HbmParams params;
  HbmTrafficSpec spec;
  spec.outstanding = 16;
  uint64_t requests = 0;
  int channels = 0;
  bool csv = false;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      auto value = [&]() -> const char* {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--help" || a == "-h") {
        usage(argv[0]);
        return 0;
      } else if (a == "--pattern") {
        std::string v = value();
        if (v != "seq" && v != "random") throw std::invalid_argument("--pattern: 'seq' or 'random'");
        spec.random = v == "random";
      } else if (a == "--read-fraction") {
        spec.readFraction = std::strtod(value(), nullptr);
        if (spec.readFraction < 0 || spec.readFraction > 1)
          throw std::invalid_argument("--read-fraction: 0..1");
      } else if (a == "--size") {
        spec.requestBytes = parseCount(a, value());
        if (spec.requestBytes == 0) throw std::invalid_argument("--size must be > 0");
      } else if (a == "--outstanding") {
        spec.outstanding = static_cast<int>(parseCount(a, value()));
        if (spec.outstanding < 1) throw std::invalid_argument("--outstanding must be >= 1");
      } else if (a == "--channels") {
        channels = static_cast<int>(parseCount(a, value()));
        if (channels < 1) throw std::invalid_argument("--channels must be >= 1");
      } else if (a == "--timing") {
        params.timing = hbmTimingPreset(value());
      } else if (a == "--requests") {
        requests = parseCount(a, value());
      } else if (a == "--reorder-holes") {
        params.reorderHoles = static_cast<int>(parseCount(a, value()));
      } else if (a == "--no-refresh") {
        params.refresh = false;
      } else if (a == "--aligned-refresh") {
        params.refreshStagger = false;
      } else if (a == "--per-bank-refresh") {
        params.perBankRefresh = true;
      } else if (a == "--address-map") {
        params.addressMap = value();
      } else if (a == "--write-queue") {
        std::string v = value();
        size_t comma = v.find(',');
        if (comma == std::string::npos) throw std::invalid_argument("--write-queue: HIGH,LOW");
        params.writeHigh = static_cast<int>(parseCount(a, v.substr(0, comma).c_str()));
        params.writeLow = static_cast<int>(parseCount(a, v.substr(comma + 1).c_str()));
      } else if (a == "--seed") {
        spec.seed = parseCount(a, value());
      } else if (a == "--csv") {
        csv = true;
      } else {
        usage(argv[0]);
        throw std::invalid_argument("unknown option '" + a + "'");
      }
    }
    if (channels > 0) {
      // Keep the per-pseudo-channel capacity (1 GiB) and bank organisation; only the count changes.
      const uint64_t perPc = params.capacityBytes / static_cast<uint64_t>(params.numPseudoChannels());
      params.stacks = 1;
      params.pseudoChannels = channels % 2 == 0 ? 2 : 1;
      params.channelsPerStack = channels / params.pseudoChannels;
      params.capacityBytes = perPc * static_cast<uint64_t>(channels);
    }
    spec.requests =
        requests ? requests
                 : std::min<uint64_t>(std::max<uint64_t>((256ull << 20) / spec.requestBytes, 1), 4ull << 20);
    params.validate();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hbm_driver: %s\n", e.what());
    return 2;
  }

  HbmModel model(params);
  spec.record = true;
  HbmTrafficResult r = runHbmTraffic(model, spec);
  // The model's own speed: replay the same requests on a fresh model, without the generator.
  double modelSeconds = 0;
  {
    HbmModel replay(params);
    auto t0 = std::chrono::steady_clock::now();
    for (const HbmRequest& q : r.issued) replay.access(q.addr, q.bytes, q.write, q.arrival);
    modelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const HbmStats& st = model.stats();
  const double p50 = tickToNs(r.latencyPercentile(0.50)), p90 = tickToNs(r.latencyPercentile(0.90));
  const double p99 = tickToNs(r.latencyPercentile(0.99)), pmax = tickToNs(r.latencyPercentile(1.0));
  const double segRate = modelSeconds > 0 ? static_cast<double>(r.segments) / modelSeconds : 0.0;

  if (csv) {
    std::printf(
        "timing,pseudo_channels,pattern,size,read_fraction,outstanding,requests,gbps,efficiency,p50_ns,p90_"
        "ns,"
        "p99_ns,max_ns,row_hit_rate,wall_s,model_s,segments_per_s\n");
    std::printf("%s,%d,%s,%llu,%.3f,%d,%llu,%.2f,%.4f,%.1f,%.1f,%.1f,%.1f,%.4f,%.4f,%.4f,%.0f\n",
                params.timing.name.c_str(), params.numPseudoChannels(), spec.random ? "random" : "seq",
                static_cast<unsigned long long>(spec.requestBytes), spec.readFraction, spec.outstanding,
                static_cast<unsigned long long>(spec.requests), r.bytesPerSec / 1e9, r.efficiency, p50, p90,
                p99, pmax, r.rowHitRate, r.wallSeconds, modelSeconds, segRate);
    return 0;
  }
  std::printf("HBM %s: %d pseudo-channels, peak %.1f GB/s, refresh %s, reorder holes %d\n",
              params.timing.name.c_str(), params.numPseudoChannels(), model.peakBytesPerSec() / 1e9,
              !params.refresh ? "off" : (params.refreshStagger ? "staggered" : "aligned"),
              params.reorderHoles);
  std::printf("traffic: %s, %llu B requests, read fraction %.2f, %d outstanding, %llu requests (%.1f MiB)\n",
              spec.random ? "random" : "sequential", static_cast<unsigned long long>(spec.requestBytes),
              spec.readFraction, spec.outstanding, static_cast<unsigned long long>(spec.requests),
              static_cast<double>(r.bytes) / (1 << 20));
  std::printf("bandwidth:  %.1f GB/s = %.1f %% of peak (simulated %.3f us)\n", r.bytesPerSec / 1e9,
              100.0 * r.efficiency, tickToUs(r.elapsed));
  std::printf("latency:    p50 %.1f  p90 %.1f  p99 %.1f  max %.1f ns\n", p50, p90, p99, pmax);
  std::printf("rows:       %.1f %% hits, %llu misses, %llu conflicts\n", 100.0 * r.rowHitRate,
              static_cast<unsigned long long>(st.rowMisses),
              static_cast<unsigned long long>(st.rowConflicts));
  std::printf("refresh:    %llu %s refreshes, %llu segments delayed\n",
              static_cast<unsigned long long>(model.refreshesBefore(spec.start + r.elapsed)),
              params.perBankRefresh ? "per-bank (REFSB)" : "all-bank",
              static_cast<unsigned long long>(st.refreshStalls));
  std::printf(
      "speed:      %.3f s wall with the generator; the model alone %.3f s for %llu segments = %.1f M "
      "segments/s\n",
      r.wallSeconds, modelSeconds, static_cast<unsigned long long>(r.segments), segRate / 1e6);
  return 0;
}
