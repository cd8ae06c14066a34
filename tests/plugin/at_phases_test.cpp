// The DMA channels and the AI cores' MTEs toward an approximately-timed plug-in that answers its
// pieces in every legal way of the base protocol, cycling through them (TLM_COMPLETED at
// BEGIN_REQ, END_REQ by TLM_UPDATED, BEGIN_RESP by TLM_UPDATED, END_REQ withheld and sent later,
// BEGIN_RESP without END_REQ) with responses out of order: copies and aclnnAdd give correct data,
// the model sees no protocol violation and answers every piece, a DMA channel has more than one
// burst's reads in flight but never more than its window (dma.outstanding_bytes), and several
// cores' loads are in flight at once.
#include <gtest/gtest.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "npusim/tlm_plugin.h"
#include "npusim/transaction.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/runtime/sim_test_util.h"

namespace {

enum class Answer { Completed, UpdatedEndReq, UpdatedBeginResp, AcceptedEndReqLater, AcceptedRespOnly };
constexpr int kAnswers = 5;

struct EveryAnswerMemory : sc_core::sc_module {
  tlm_utils::multi_passthrough_target_socket<EveryAnswerMemory> socket;
  tlm_utils::peq_with_cb_and_phase<EveryAnswerMemory> peq;
  int violations = 0;
  uint64_t requests = 0, responses = 0;
  uint64_t byWay[kAnswers] = {};
  bool requestOpen = false;
  tlm::tlm_generic_payload* awaitingEndResp = nullptr;
  std::map<tlm::tlm_generic_payload*, int> port;
  std::map<int, uint64_t> dmaReading, dmaMaxReading;  // channel -> read bytes in flight
  std::map<int, uint64_t> coreReading;                // core -> read bytes in flight
  int coresReading = 0, maxCoresReading = 0;

  explicit EveryAnswerMemory(sc_core::sc_module_name n)
      : sc_module(n), socket("socket"), peq(this, &EveryAnswerMemory::fire) {
    socket.register_nb_transport_fw(this, &EveryAnswerMemory::fw);
  }
  static sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

  void track(tlm::tlm_generic_payload& p, bool begin) {
    const auto* o = p.get_extension<npusim::TransactionOrigin>();
    if (!o || !p.is_read()) return;
    const uint64_t b = p.get_data_length();
    if (o->kind == npusim::InitiatorKind::Dma) {
      uint64_t& r = dmaReading[o->index];
      r = begin ? r + b : r - b;
      dmaMaxReading[o->index] = std::max(dmaMaxReading[o->index], r);
    } else if (o->kind == npusim::InitiatorKind::AiCore) {
      uint64_t& r = coreReading[o->index];
      if (begin && r == 0) ++coresReading;
      r = begin ? r + b : r - b;
      if (!begin && r == 0) --coresReading;
      maxCoresReading = std::max(maxCoresReading, coresReading);
    }
  }

  tlm::tlm_sync_enum fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    if (ph == tlm::END_RESP) {
      if (&p != awaitingEndResp) ++violations;
      awaitingEndResp = nullptr;
      return tlm::TLM_COMPLETED;
    }
    if (ph != tlm::BEGIN_REQ || requestOpen || awaitingEndResp) ++violations;
    const uint64_t k = requests++;
    const auto way = static_cast<Answer>(k % kAnswers);
    ++byWay[k % kAnswers];
    port[&p] = id;
    p.acquire();
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    track(p, true);
    // Answers long after the request (so what limits the pieces in flight is the initiators'
    // windows), later pieces of each group of four sooner: responses out of order.
    const sc_core::sc_time respond = ns(30000 - 25 * static_cast<double>(k % 4));
    switch (way) {
      case Answer::Completed:
        d += ns(1);
        answered(p);
        return tlm::TLM_COMPLETED;
      case Answer::UpdatedEndReq:
        ph = tlm::END_REQ;
        peq.notify(p, tlm::BEGIN_RESP, respond);
        return tlm::TLM_UPDATED;
      case Answer::UpdatedBeginResp:
        ph = tlm::BEGIN_RESP;
        d += ns(1);
        awaitingEndResp = &p;
        answered(p);
        return tlm::TLM_UPDATED;
      case Answer::AcceptedEndReqLater:
        requestOpen = true;
        peq.notify(p, tlm::END_REQ, ns(1));
        peq.notify(p, tlm::BEGIN_RESP, respond);
        return tlm::TLM_ACCEPTED;
      case Answer::AcceptedRespOnly:
        requestOpen = true;
        peq.notify(p, tlm::BEGIN_RESP, ns(2));
        return tlm::TLM_ACCEPTED;
    }
    return tlm::TLM_COMPLETED;
  }
  void answered(tlm::tlm_generic_payload& p) {
    ++responses;
    track(p, false);
    port.erase(&p);
    p.release();
  }
  void fire(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase) {
    tlm::tlm_phase ph = phase;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const int id = port[&p];
    requestOpen = false;
    if (phase == tlm::END_REQ) {
      if (socket[id]->nb_transport_bw(p, ph, d) != tlm::TLM_ACCEPTED) ++violations;
      return;
    }
    const tlm::tlm_sync_enum r = socket[id]->nb_transport_bw(p, ph, d);
    if (!(r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP))) ++violations;
    answered(p);
  }
};

EveryAnswerMemory* model = nullptr;

const bool registered = npusim::registerMemoryModel(
    "every_answer", npusim::Protocol::ApproximatelyTimed,
    [](tlm::tlm_initiator_socket<>& npusimSide, const npusim::MemoryTargetInfo& info) {
      auto* m = new EveryAnswerMemory(info.instanceName.c_str());
      if (info.device == 0) model = m;
      npusimSide.bind(m->socket);
    });

void expectACleanProtocol() {
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->violations, 0);
  EXPECT_EQ(model->responses, model->requests);
  for (uint64_t n : model->byWay) EXPECT_GT(n, 0u);  // every way was used
}

}  // namespace

TEST(AtInitiators, CopiesThroughEveryAnswerKeepTheirDataAndTheDmaWindow) {
  npusim::test::configure("hbm.model=every_answer");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t bytes = (1 << 20) + 100;  // not a multiple of the burst
  std::vector<uint8_t> host(bytes), back(bytes, 0);
  std::iota(host.begin(), host.end(), 11);
  void *d0 = nullptr, *d1 = nullptr;
  ASSERT_EQ(aclrtMalloc(&d0, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d1, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(d0, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(static_cast<uint8_t*>(d1) + 3, bytes - 3, d0, bytes - 3, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back.data(), bytes - 3, static_cast<uint8_t*>(d1) + 3, bytes - 3,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  back.resize(bytes - 3);
  host.resize(bytes - 3);
  EXPECT_EQ(back, host);
  expectACleanProtocol();
  ASSERT_FALSE(model->dmaMaxReading.empty());
  for (auto [channel, most] : model->dmaMaxReading) {
    EXPECT_GT(most, 16384u) << "channel " << channel << ": one burst at a time";  // sim.dma_burst_bytes
    EXPECT_LE(most, 262144u) << "channel " << channel;                            // dma.outstanding_bytes
  }
  aclrtFree(d0);
  aclrtFree(d1);
  aclFinalize();
}

TEST(AtInitiators, AnOperatorThroughEveryAnswerComputesRightWithCoresInParallel) {
  npusim::test::configure("hbm.model=every_answer");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const int64_t n = 256 * 1024 + 7;
  aicore_test::DevTensor a({n}, ACL_FLOAT), b({n}, ACL_FLOAT), c({n}, ACL_FLOAT);
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n)), z(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i)] = static_cast<float>(i), y[static_cast<size_t>(i)] = 0.25f;
  ASSERT_EQ(aclrtMemcpy(a.dev, a.bytes, x.data(), a.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.dev, b.bytes, y.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  model->maxCoresReading = 0;
  aicore_test::add(a, b, c, s);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_GT(model->maxCoresReading, 8);  // the 48 vector cores load at once, not one by one
  ASSERT_EQ(aclrtMemcpy(z.data(), c.bytes, c.dev, c.bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_FLOAT_EQ(z[static_cast<size_t>(i)], static_cast<float>(i) + 0.25f) << i;
  expectACleanProtocol();
  aclrtDestroyStream(s);
  aclFinalize();
}
