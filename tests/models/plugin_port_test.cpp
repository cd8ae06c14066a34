// The plug-in port (models/common/plugin_port.h): every access reaches the model as naturally
// aligned power-of-two pieces no longer than the maximum, pointing into the caller's data, each
// with the public TransactionOrigin extension; in approximately-timed mode every legal answer of
// a target (END_REQ or BEGIN_RESP by TLM_UPDATED, early TLM_COMPLETED, TLM_ACCEPTED with END_REQ
// withheld, BEGIN_RESP without END_REQ, responses out of order) completes the access, with the
// request exclusion rule kept and the access done when its last response arrives.
#include "models/common/plugin_port.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/sim_time.h"
#include "models/common/transaction.h"
#include "npusim/transaction.h"
#include "tests/models/scripted_target.h"

using namespace npusim;
using npusim::test::Answer;
using npusim::test::ScriptedTarget;

TEST(PluginPort, PiecesAreAlignedPowersOfTwoNoLongerThanTheMaximum) {
  EXPECT_EQ(PluginPort::pieceLength(6, 10, 64), 2u);
  EXPECT_EQ(PluginPort::pieceLength(8, 8, 64), 8u);
  EXPECT_EQ(PluginPort::pieceLength(0, 16384, 64), 64u);
  EXPECT_EQ(PluginPort::pieceLength(4096 + 32, 100, 64), 32u);
  EXPECT_EQ(PluginPort::pieceLength(4096 + 64, 100, 64), 64u);
  EXPECT_EQ(PluginPort::pieceLength(4096 + 64, 63, 64), 32u);
  EXPECT_EQ(PluginPort::pieceLength(7, 1, 64), 1u);
}

namespace {

struct Piece {
  uint64_t addr;
  unsigned len;
  const uint8_t* data;
  TransactionOrigin origin;
};

// A loosely-timed model that records what it sees: each piece takes 1 ns per byte from arrival.
struct Recorder : sc_core::sc_module {
  tlm_utils::simple_target_socket<Recorder> socket;
  std::vector<Piece> seen;
  explicit Recorder(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Recorder::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& d) {
    const auto* o = p.get_extension<TransactionOrigin>();
    EXPECT_NE(o, nullptr);
    seen.push_back({p.get_address(), p.get_data_length(), p.get_data_ptr(), o ? *o : TransactionOrigin()});
    d += sc_core::sc_time(p.get_data_length(), sc_core::SC_NS);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Sends one access through the port from a thread and records when it completed.
struct Sender : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Sender> socket;
  PayloadPool pool;
  uint64_t addr = 0, bytes = 0;
  Tick arrival = 0, done = 0;
  std::vector<uint8_t> data = std::vector<uint8_t>(1 << 16);
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  explicit Sender(sc_core::sc_module_name n) : sc_module(n), socket("socket") { SC_THREAD(run); }
  SC_HAS_PROCESS(Sender);
  void run() {
    tlm::tlm_generic_payload* p = pool.acquire();
    p->set_command(tlm::TLM_WRITE_COMMAND);
    p->set_address(addr);
    p->set_data_ptr(data.data());
    p->set_data_length(static_cast<unsigned>(bytes));
    p->set_streaming_width(static_cast<unsigned>(bytes));
    TransactionInfo& x = info(*p);
    x.engine = Engine::Dma, x.engineIndex = 3, x.device = 1, x.stream = 5, x.task = 9;
    sc_core::sc_time d = toScTime(arrival);
    socket->b_transport(*p, d);
    done = simNow() + static_cast<Tick>(d.value());
    status = p->get_response_status();
    p->release();
  }
};

}  // namespace

TEST(PluginPort, LooselyTimedPiecesCoverTheAccessWithItsDataAndOrigin) {
  PluginPort port("port", Protocol::LooselyTimed, 64);
  Recorder model("model");
  Sender s("s");
  s.socket.bind(port.in);
  port.out.bind(model.socket);
  s.addr = 6, s.bytes = 250, s.arrival = 100 * kNs;
  sc_core::sc_start();
  ASSERT_FALSE(model.seen.empty());
  uint64_t next = 6;
  for (const Piece& q : model.seen) {
    EXPECT_EQ(q.addr, next);
    EXPECT_LE(q.len, 64u);
    EXPECT_EQ(q.len & (q.len - 1), 0u) << q.len;
    EXPECT_EQ(q.addr % q.len, 0u) << q.addr;
    EXPECT_EQ(q.data, s.data.data() + (q.addr - 6));
    EXPECT_EQ(q.origin.device, 1);
    EXPECT_EQ(q.origin.kind, InitiatorKind::Dma);
    EXPECT_EQ(q.origin.index, 3);
    EXPECT_EQ(q.origin.stream, 5u);
    EXPECT_EQ(q.origin.task, 9u);
    next += q.len;
  }
  EXPECT_EQ(next, 256u);
  // 6..256: 2 + 8 + 16 + 32 + 64 + 64 + 64 = 250 bytes in 7 pieces.
  EXPECT_EQ(model.seen.size(), 7u);
  // Every piece arrives with the access; the longest (64 ns) finishes last.
  EXPECT_EQ(s.done, 100 * kNs + 64 * kNs);
  EXPECT_EQ(s.status, tlm::TLM_OK_RESPONSE);
}

namespace {

// Sends ten pieces' worth at 1 us; returns the order the model answered them in.
std::vector<int> expectEveryPieceAnswered(std::vector<Answer> answers) {
  PluginPort port("port", Protocol::ApproximatelyTimed, 64);
  ScriptedTarget model("model");
  model.wantUpdatedEndResp = true;
  Sender s("s");
  s.socket.bind(port.in);
  port.out.bind(model.socket);
  model.answers = std::move(answers);
  s.addr = 0, s.bytes = 64 * 10, s.arrival = 1 * kUs;
  sc_core::sc_start();
  EXPECT_EQ(model.requests, 10);
  EXPECT_EQ(model.responses, 10);
  EXPECT_EQ(s.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(s.done, model.lastResponse());  // the access ends with its last response
  EXPECT_GE(s.done, 1 * kUs);
  EXPECT_EQ(port.pieces(), 10u);
  return model.order;
}

}  // namespace

TEST(PluginPort, ApproximatelyTimedEarlyCompletion) { expectEveryPieceAnswered({Answer::Completed}); }

TEST(PluginPort, ApproximatelyTimedEndReqByUpdateAndResponsesOutOfOrder) {
  // All ten in flight at once; later requests answer sooner: the last one first.
  const std::vector<int> order = expectEveryPieceAnswered({Answer::UpdatedEndReq});
  ASSERT_EQ(order.size(), 10u);
  EXPECT_EQ(order.front(), 9);
  EXPECT_EQ(order.back(), 0);
}

TEST(PluginPort, ApproximatelyTimedBeginRespByUpdate) {
  expectEveryPieceAnswered({Answer::UpdatedBeginResp});
}

TEST(PluginPort, ApproximatelyTimedEndReqWithheld) {
  expectEveryPieceAnswered({Answer::AcceptedEndReqLater});
}

TEST(PluginPort, ApproximatelyTimedBeginRespWithoutEndReq) {
  expectEveryPieceAnswered({Answer::AcceptedRespOnly});
}

TEST(PluginPort, ApproximatelyTimedEveryAnswerMixed) {
  expectEveryPieceAnswered({Answer::Completed, Answer::AcceptedEndReqLater, Answer::UpdatedEndReq,
                            Answer::AcceptedRespOnly, Answer::UpdatedBeginResp});
}
