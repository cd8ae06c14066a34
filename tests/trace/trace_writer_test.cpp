#include "traces/trace_writer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <string>

#include "trace_test_util.h"

namespace npusim::trace {
namespace {

using nlohmann::json;
using testutil::byPhase;
using testutil::readEvents;
using testutil::readFile;
using testutil::TempFile;

TEST(FormatUs, IntegerNanosecondsTruncated) {
  EXPECT_EQ(formatUs(0), "0.000");
  EXPECT_EQ(formatUs(1), "0.000");  // 1 ps rounds down
  EXPECT_EQ(formatUs(999), "0.000");
  EXPECT_EQ(formatUs(1000), "0.001");
  EXPECT_EQ(formatUs(1234567), "1.234");
  EXPECT_EQ(formatUs(kUs), "1.000");
  EXPECT_EQ(formatUs(kMs + 5 * kNs), "1000.005");
  // 2^64-1 ps = 18446744073709551 ns: no floating point, so no precision is lost.
  EXPECT_EQ(formatUs(kTickMax), "18446744073709.551");
}

TEST(TraceWriter, EmptyTraceIsValidJson) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  EXPECT_TRUE(w.enabled());
  w.close();
  EXPECT_FALSE(w.enabled());
  EXPECT_TRUE(readEvents(f.path).empty());
  EXPECT_EQ(readFile(f.path), "{\"traceEvents\":[\n\n],\"displayTimeUnit\":\"ns\"}\n");
}

TEST(TraceWriter, MetadataNamesAndSortsProcessesAndThreads) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const int host = w.process("Host", 0);
  const Track api = w.thread(host, "Thread 1", 3);
  const int npu = w.process("NPU 0", 1);
  const Track s1 = w.thread(npu, "Stream 1", 0);
  w.close();

  // Ids are distinct across pids and tids (Perfetto gives tid-less events tid = pid).
  EXPECT_EQ(api.pid, host);
  EXPECT_EQ(s1.pid, npu);
  std::set<int> ids{host, api.tid, npu, s1.tid};
  EXPECT_EQ(ids.size(), 4u);

  const json ev = readEvents(f.path);
  ASSERT_EQ(ev.size(), 8u);
  EXPECT_EQ(w.eventsWritten(), 8u);
  for (const auto& e : ev) EXPECT_EQ(e["ph"], "M");
  EXPECT_EQ(ev[0]["name"], "process_name");
  EXPECT_EQ(ev[0]["pid"], host);
  EXPECT_EQ(ev[0]["args"]["name"], "Host");
  EXPECT_FALSE(ev[0].contains("tid"));
  EXPECT_EQ(ev[1]["name"], "process_sort_index");
  EXPECT_EQ(ev[1]["args"]["sort_index"], 0);
  EXPECT_EQ(ev[2]["name"], "thread_name");
  EXPECT_EQ(ev[2]["pid"], host);
  EXPECT_EQ(ev[2]["tid"], api.tid);
  EXPECT_EQ(ev[2]["args"]["name"], "Thread 1");
  EXPECT_EQ(ev[3]["name"], "thread_sort_index");
  EXPECT_EQ(ev[3]["args"]["sort_index"], 3);
  EXPECT_EQ(ev[4]["args"]["name"], "NPU 0");
  EXPECT_EQ(ev[5]["args"]["sort_index"], 1);
  EXPECT_EQ(ev[6]["args"]["name"], "Stream 1");
  EXPECT_EQ(ev[6]["tid"], s1.tid);
}

TEST(TraceWriter, EscapesStrings) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const std::string nasty = std::string("q\"b\\n\nt\tr\rc\x01\x1f end ") + "\xc2\xb5s";  // ends in "µs"
  const int p = w.process(nasty, 0);
  const Track t = w.thread(p, "T", 0);
  Args a;
  a.add("k\"ey", nasty);
  w.slice(t, nasty, "c\\at", 0, kUs, &a);
  w.close();

  const std::string text = readFile(f.path);
  EXPECT_NE(text.find(R"(q\"b\\n\nt\tr\rc\u0001\u001f end )"), std::string::npos) << text;
  const json ev = readEvents(f.path);
  EXPECT_EQ(ev[0]["args"]["name"], nasty);
  const auto x = byPhase(ev, "X");
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0]["name"], nasty);
  EXPECT_EQ(x[0]["cat"], "c\\at");
  EXPECT_EQ(x[0]["args"]["k\"ey"], nasty);
}

TEST(TraceWriter, InvalidUtf8BecomesReplacementCharacter) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  // A stray continuation byte, a truncated 3-byte sequence, an overlong '/' and a surrogate.
  w.process(
      "a\x80"
      "b\xe2\x82"
      "c\xc0\xaf"
      "d\xed\xa0\x80"
      "e",
      0);
  w.close();
  const json ev = readEvents(f.path);  // strict parser: would throw on invalid UTF-8
  ASSERT_FALSE(ev.empty());
  const std::string r = "\xef\xbf\xbd";  // U+FFFD
  EXPECT_EQ(ev[0]["args"]["name"], "a" + r + "b" + r + r + "c" + r + r + "d" + r + r + r + "e");
}

TEST(TraceWriter, SliceTimesInMicrosecondsWithNanosecondDigits) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  w.slice(t, "a", "api", 1234567, 2 * kUs);  // 1.234567 us .. 3.234567 us
  w.slice(t, "z", "", 5 * kUs, 0);
  w.close();
  const std::string text = readFile(f.path);
  EXPECT_NE(text.find(R"("ph":"X","pid":1,"tid":2,"ts":1.234,"name":"a","cat":"api","dur":2.000})"),
            std::string::npos)
      << text;
  // Empty category is omitted; zero duration is written.
  EXPECT_NE(text.find(R"("ph":"X","pid":1,"tid":2,"ts":5.000,"name":"z","dur":0.000})"), std::string::npos)
      << text;
}

TEST(TraceWriter, DurationKeepsPicosecondNestingInNanoseconds) {
  // Parent [999 ps, 2001 ps), child [1000 ps, 2000 ps). Truncating start and duration separately
  // would give parent [0, 1) ns and child [1, 2) ns: a partial overlap. The writer derives dur
  // from the truncated end, so the parent ends at 2 ns and still encloses the child.
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  w.slice(t, "parent", "", 999, 1002);
  w.slice(t, "child", "", 1000, 1000);
  w.close();
  const auto x = byPhase(readEvents(f.path), "X");
  ASSERT_EQ(x.size(), 2u);
  const double pEnd = x[0]["ts"].get<double>() + x[0]["dur"].get<double>();
  const double cEnd = x[1]["ts"].get<double>() + x[1]["dur"].get<double>();
  EXPECT_DOUBLE_EQ(x[0]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(x[0]["dur"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(x[1]["ts"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(x[1]["dur"].get<double>(), 0.001);
  EXPECT_LE(cEnd, pEnd);
}

TEST(TraceWriter, ArgsKeepOrderAndTypes) {
  Args empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.json(), "{}");

  Args a;
  a.add("i", -5)
      .add("u", 7u)
      .add("big", std::numeric_limits<uint64_t>::max())
      .add("neg", std::numeric_limits<int64_t>::min())
      .add("d", 0.1)
      .add("whole", 2.0)
      .add("nan", std::nan(""))
      .add("inf", std::numeric_limits<double>::infinity())
      .add("s", "text")
      .add("str", std::string("x"))
      .addHex("addr", 0x1f2e3dull);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a.json(),
            R"({"i":-5,"u":7,"big":18446744073709551615,"neg":-9223372036854775808,"d":0.1,"whole":2,)"
            R"("nan":null,"inf":null,"s":"text","str":"x","addr":"0x1f2e3d"})");
  const json j = json::parse(a.json());
  EXPECT_EQ(j["big"].get<uint64_t>(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(j["neg"].get<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_DOUBLE_EQ(j["d"].get<double>(), 0.1);
  EXPECT_TRUE(j["nan"].is_null());
}

TEST(TraceWriter, SliceAndInstantCarryArgs) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  Args a;
  a.add("bytes", 4096).add("ratio", 0.25);
  w.slice(t, "copy", "task", kUs, kUs, &a);
  w.instant(t, "mark", "api", 3 * kUs, &a);
  Args none;
  w.instant(t, "bare", "api", 4 * kUs, &none);
  w.close();
  const json ev = readEvents(f.path);
  const auto x = byPhase(ev, "X");
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0]["args"]["bytes"], 4096);
  EXPECT_DOUBLE_EQ(x[0]["args"]["ratio"].get<double>(), 0.25);
  const auto i = byPhase(ev, "i");
  ASSERT_EQ(i.size(), 2u);
  EXPECT_EQ(i[0]["s"], "t");
  EXPECT_EQ(i[0]["tid"], t.tid);
  EXPECT_DOUBLE_EQ(i[0]["ts"].get<double>(), 3.0);
  EXPECT_EQ(i[0]["args"]["bytes"], 4096);
  EXPECT_FALSE(i[1].contains("args"));  // empty args are left out
}

TEST(TraceWriter, CounterEvent) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const int p = w.process("NPU 0", 0);
  w.counter(p, "HBM read GB/s", 2 * kUs + 500, 12.5);
  w.counter(p, "HBM read GB/s", 3 * kUs, std::nan(""));
  w.close();
  const std::string text = readFile(f.path);
  EXPECT_NE(text.find(R"({"ph":"C","pid":1,"ts":2.000,"name":"HBM read GB/s","args":{"value":12.5}})"),
            std::string::npos)
      << text;
  const auto c = byPhase(readEvents(f.path), "C");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_FALSE(c[0].contains("tid"));
  EXPECT_TRUE(c[1]["args"]["value"].is_null());  // NaN is not JSON
}

TEST(TraceWriter, FlowEventsBindToEnclosingSlices) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const Track api = w.thread(w.process("Host", 0), "Thread 1", 0);
  const Track st = w.thread(w.process("NPU 0", 1), "Stream 1", 0);
  const uint64_t id = w.newFlowId();
  EXPECT_EQ(id, 1u);
  EXPECT_EQ(w.newFlowId(), 2u);
  w.flowStart(api, id, "launch", kUs);
  w.flowEnd(st, id, "launch", 4 * kUs);
  w.close();
  const json ev = readEvents(f.path);
  const auto s = byPhase(ev, "s");
  const auto fe = byPhase(ev, "f");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(fe.size(), 1u);
  EXPECT_EQ(s[0]["cat"], "flow");
  EXPECT_EQ(s[0]["name"], "launch");
  EXPECT_EQ(s[0]["id"], 1);
  EXPECT_EQ(s[0]["pid"], api.pid);
  EXPECT_EQ(s[0]["tid"], api.tid);
  EXPECT_DOUBLE_EQ(s[0]["ts"].get<double>(), 1.0);
  EXPECT_FALSE(s[0].contains("bp"));
  EXPECT_EQ(fe[0]["cat"], "flow");
  EXPECT_EQ(fe[0]["name"], "launch");
  EXPECT_EQ(fe[0]["id"], 1);
  EXPECT_EQ(fe[0]["bp"], "e");
  EXPECT_EQ(fe[0]["tid"], st.tid);
  EXPECT_DOUBLE_EQ(fe[0]["ts"].get<double>(), 4.0);
}

TEST(TraceWriter, AsyncEventsUseProcessLocalIds) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const int p = w.process("NPU 0", 0);
  Args a;
  a.add("task", 3);
  w.asyncBegin(p, "queued", "queue", 0xabc, kUs, &a);
  w.asyncEnd(p, "queued", "queue", 0xabc, 2 * kUs);
  w.close();
  const json ev = readEvents(f.path);
  const auto b = byPhase(ev, "b");
  const auto e = byPhase(ev, "e");
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(e.size(), 1u);
  for (const auto& x : {b[0], e[0]}) {
    EXPECT_EQ(x["pid"], p);
    EXPECT_FALSE(x.contains("tid"));
    EXPECT_EQ(x["cat"], "queue");
    EXPECT_EQ(x["name"], "queued");
    EXPECT_EQ(x["id2"]["local"], "0xabc");
  }
  EXPECT_EQ(b[0]["args"]["task"], 3);
  EXPECT_DOUBLE_EQ(b[0]["ts"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(e[0]["ts"].get<double>(), 2.0);
}

// Feeds the same calls to a writer; used to compare two runs byte for byte.
void writeSample(TraceWriter& w) {
  const int host = w.process("Host", 0);
  const Track api = w.thread(host, "Thread 1", 0);
  const int npu = w.process("NPU 0", 1);
  const Track st = w.thread(npu, "Stream 1", 0);
  for (int i = 0; i < 2000; ++i) {
    const Tick t = static_cast<Tick>(i) * 1777777;
    Args a;
    a.add("i", i).add("x", i / 7.0).addHex("addr", 0x1000ull * i);
    w.slice(api, "aclrtLaunch", "api", t, 333333, &a);
    const uint64_t id = w.newFlowId();
    w.flowStart(api, id, "launch", t);
    w.slice(st, "kernel", "task", t + 500000, 1000001);
    w.flowEnd(st, id, "launch", t + 500000);
    w.counter(npu, "HBM GB/s", t, i * 0.1);
    w.asyncBegin(npu, "queued", "queue", id, t, nullptr);
    w.asyncEnd(npu, "queued", "queue", id, t + 500000);
  }
}

TEST(TraceWriter, DeterministicBytes) {
  TempFile f1(".1.json");
  TempFile f2(".2.json");
  {
    TraceWriter a;
    ASSERT_TRUE(a.open(f1.path, Level::Transaction));
    writeSample(a);
  }  // the destructor closes
  TraceWriter b;
  ASSERT_TRUE(b.open(f2.path, Level::Transaction));
  writeSample(b);
  b.close();
  const std::string t1 = readFile(f1.path);
  EXPECT_GT(t1.size(), 100000u);
  EXPECT_EQ(t1, readFile(f2.path));
  EXPECT_EQ(readEvents(f1.path).size(), b.eventsWritten());
}

TEST(TraceWriter, DestructorClosesTheFile) {
  TempFile f;
  {
    TraceWriter w;
    ASSERT_TRUE(w.open(f.path, Level::Task));
    w.slice(w.thread(w.process("P", 0), "T", 0), "s", "c", 0, 1);
  }
  EXPECT_EQ(byPhase(readEvents(f.path), "X").size(), 1u);
}

TEST(TraceWriter, CloseTwiceAndCallsAfterCloseAreIgnored) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  w.close();
  const std::string before = readFile(f.path);
  w.slice(t, "late", "c", 0, 1);
  w.counter(t.pid, "c", 0, 1.0);
  w.flush();
  w.close();
  EXPECT_EQ(readFile(f.path), before);
}

TEST(TraceWriter, DisabledWriterWritesNothing) {
  TraceWriter w;
  EXPECT_FALSE(w.enabled());
  EXPECT_FALSE(w.wants(Level::Api));
  const int p = w.process("P", 0);
  const Track t = w.thread(p, "T", 0);
  EXPECT_NE(p, t.tid);
  w.slice(t, "s", "c", 0, 1);
  w.counter(p, "c", 0, 1.0);
  w.asyncBegin(p, "a", "c", 1, 0);
  w.flowStart(t, w.newFlowId(), "f", 0);
  w.flush();
  w.close();
  EXPECT_EQ(w.eventsWritten(), 0u);
}

TEST(TraceWriter, LevelSelectsWhatIsWanted) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Task));
  EXPECT_EQ(w.level(), Level::Task);
  EXPECT_TRUE(w.wants(Level::Api));
  EXPECT_TRUE(w.wants(Level::Task));
  EXPECT_FALSE(w.wants(Level::Transaction));
  ASSERT_TRUE(w.open(f.path, Level::Api));  // reopening closes and starts over
  EXPECT_FALSE(w.wants(Level::Task));
  ASSERT_TRUE(w.open(f.path, Level::Transaction));
  EXPECT_TRUE(w.wants(Level::Transaction));
}

TEST(TraceWriter, ReopenStartsAFreshTrace) {
  TempFile f1(".1.json");
  TempFile f2(".2.json");
  TraceWriter w;
  ASSERT_TRUE(w.open(f1.path, Level::Task));
  w.thread(w.process("A", 0), "T", 0);
  w.newFlowId();
  ASSERT_TRUE(w.open(f2.path, Level::Task));
  EXPECT_EQ(w.process("B", 0), 1);
  EXPECT_EQ(w.newFlowId(), 1u);
  w.close();
  EXPECT_EQ(readEvents(f1.path).size(), 4u);  // the first file was closed properly
  EXPECT_EQ(readEvents(f2.path).size(), 2u);
}

TEST(TraceWriter, OpenFailsWithMessageOnUnwritablePath) {
  TraceWriter w;
  std::string err;
  const std::string bad = "/nonexistent-npusim-dir/sub/trace.json";
  EXPECT_FALSE(w.open(bad, Level::Task, &err));
  EXPECT_FALSE(w.enabled());
  EXPECT_NE(err.find(bad), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
  EXPECT_FALSE(w.open(bad, Level::Task));  // no message wanted: still fails cleanly
}

TEST(TraceWriter, WriteErrorsAreReportedOnce) {
  // /dev/full accepts open() and fails every write with ENOSPC.
  TraceWriter w;
  ASSERT_TRUE(w.open("/dev/full", Level::Task));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 30000; ++i) w.slice(t, "s", "c", static_cast<Tick>(i) * kNs, kNs);  // > 2 MiB
  w.close();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("npusim: writing trace file '/dev/full' failed: No space left on device"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("failed", err.find("failed") + 1), std::string::npos)
      << "reported more than once: " << err;
}

long rssKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

long fileSize(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : -1;
}

TEST(TraceWriter, MemoryStaysBoundedForAMillionEvents) {
  TempFile f;
  TraceWriter w;
  ASSERT_TRUE(w.open(f.path, Level::Transaction));
  const Track t = w.thread(w.process("P", 0), "T", 0);
  Args a;
  a.add("bytes", 4096);
  // Warm up so the buffer and allocator reach steady state before measuring.
  for (int i = 0; i < 20000; ++i) w.slice(t, "burst", "dma", static_cast<Tick>(i) * kNs, kNs, &a);
  const long rss0 = rssKiB();
  const long size0 = fileSize(f.path);
  ASSERT_GT(rss0, 0);
  constexpr int kEvents = 1000000;
  for (int i = 0; i < kEvents; ++i) w.slice(t, "burst", "dma", static_cast<Tick>(i) * kNs, kNs, &a);
  const long rss1 = rssKiB();
  const long size1 = fileSize(f.path);
  w.close();
  // The file grew while writing (the buffer is flushed every ~1 MiB) ...
  EXPECT_GT(size1 - size0, 50L * 1000 * 1000);
  // ... and the process did not keep the events.
  EXPECT_LT(rss1 - rss0, 4L * 1024) << "RSS grew from " << rss0 << " KiB to " << rss1 << " KiB";
  EXPECT_EQ(w.eventsWritten(), 1020000u + 4);  // + process and thread metadata
}

}  // namespace
}  // namespace npusim::trace
