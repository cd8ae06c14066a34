// HCCL collectives and point-to-point calls: check the arguments, record this rank's part of the
// call in its communicator (checking it against what the other ranks asked for), then enqueue
// the algorithm's tasks (collectives.cpp). Every call is asynchronous on the caller's stream.
#include <algorithm>
#include <numeric>

#include "hccl/hccl.h"
#include "runtime/hccl/checks.h"
#include "runtime/hccl/collectives.h"
#include "runtime/hccl/reduce_kernels.h"

using npusim::rt::ApiCall;
namespace hc = npusim::hccl;

namespace {

const char* cmdName(HcclCMDType cmd) {
  switch (cmd) {
    case HCCL_CMD_ALLREDUCE:
      return "HcclAllReduce";
    case HCCL_CMD_BROADCAST:
      return "HcclBroadcast";
    case HCCL_CMD_REDUCE:
      return "HcclReduce";
    case HCCL_CMD_ALLGATHER:
      return "HcclAllGather";
    case HCCL_CMD_ALLGATHER_V:
      return "HcclAllGatherV";
    case HCCL_CMD_REDUCE_SCATTER:
      return "HcclReduceScatter";
    case HCCL_CMD_REDUCE_SCATTER_V:
      return "HcclReduceScatterV";
    case HCCL_CMD_SCATTER:
      return "HcclScatter";
    case HCCL_CMD_ALLTOALL:
      return "HcclAlltoAll";
    case HCCL_CMD_ALLTOALLV:
      return "HcclAlltoAllV";
    case HCCL_CMD_ALLTOALLVC:
      return "HcclAlltoAllVC";
    case HCCL_CMD_BARRIER:
      return "HcclBarrier";
    default:
      return "a collective";
  }
}

std::vector<uint64_t> readCounts(const void* p, uint32_t n) {
  std::vector<uint64_t> v(n);
  std::memcpy(v.data(), p, n * sizeof(uint64_t));
  return v;
}

std::vector<uint64_t> evenly(uint32_t n, uint64_t count) {
  std::vector<uint64_t> v(n);
  for (uint32_t p = 0; p < n; ++p) v[p] = p * count;
  return v;
}

uint64_t extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
  uint64_t e = 0;
  for (size_t p = 0; p < counts.size(); ++p)
    if (counts[p]) e = std::max(e, displs[p] + counts[p]);
  return e;
}

// This rank's part of call `proto`: the same collective, count, type, op and root as the ranks
// that called it before, and counts that pair with theirs.
HcclResult joinCall(ApiCall& api, hc::Comm& c, const hc::CallRecord& proto, hc::CallArgs args,
                    uint64_t* seq) {
  hc::Group& g = *c.group;
  hc::CallRecord& rec = g.calls[c.nextCall];
  if (rec.cmd == HCCL_CMD_INVALID) {
    rec = proto;
    rec.args.resize(g.size);
  } else if (rec.cmd != proto.cmd || rec.count != proto.count || rec.type != proto.type ||
             rec.op != proto.op || rec.root != proto.root) {
    return hc::fail(
        api, HCCL_E_PARA,
        "rank {} calls {}(count {}, {}, op {}, root {}) as collective #{} of communicator {}, but another "
        "rank called {}(count {}, {}, op {}, root {}): every rank must call the same collectives in the "
        "same order",
        c.rank, cmdName(proto.cmd), proto.count, hc::typeName(proto.type), static_cast<int>(proto.op),
        proto.root, c.nextCall, g.name, cmdName(rec.cmd), rec.count, hc::typeName(rec.type),
        static_cast<int>(rec.op), rec.root);
  }
  for (uint32_t q = 0; q < g.size; ++q) {
    const hc::CallArgs& o = rec.args[q];
    if (!o.joined || q == c.rank) continue;
    if (!args.sendCounts.empty() && !o.recvCounts.empty() &&
        (args.sendCounts[q] != o.recvCounts[c.rank] || o.sendCounts[c.rank] != args.recvCounts[q]))
      return hc::fail(
          api, HCCL_E_PARA,
          "rank {} sends {} elements to rank {} and expects {} from it, but rank {} expects {} and sends {}",
          c.rank, args.sendCounts[q], q, args.recvCounts[q], q, o.recvCounts[c.rank], o.sendCounts[c.rank]);
    if (proto.cmd == HCCL_CMD_ALLGATHER_V && o.recvCounts != args.recvCounts)
      return hc::fail(api, HCCL_E_PARA, "recvCounts differ between rank {} and rank {}", c.rank, q);
    if (proto.cmd == HCCL_CMD_REDUCE_SCATTER_V && o.sendCounts != args.sendCounts)
      return hc::fail(api, HCCL_E_PARA, "sendCounts differ between rank {} and rank {}", c.rank, q);
  }
  args.joined = true;
  rec.args[c.rank] = std::move(args);
  *seq = c.nextCall++;
  return HCCL_SUCCESS;
}

// Common start of a collective: the communicator and its stream.
struct Start {
  hc::Comm* comm = nullptr;
  npusim::rt::Stream* stream = nullptr;
  HcclResult err = HCCL_SUCCESS;
};

Start start(ApiCall& api, HcclComm comm, aclrtStream stream) {
  Start s;
  if (!api.ok()) {
    s.err = hc::fail(api, HCCL_E_RUNTIME, "the simulator is not ready");
    return s;
  }
  s.comm = hc::commArg(api, comm, &s.err);
  if (!s.comm) return s;
  s.stream = hc::streamArg(api, *s.comm, stream, &s.err);
  return s;
}

// Records the call, then enqueues its tasks with `run`.
HcclResult launch(ApiCall& api, const Start& s, const hc::CallRecord& proto, hc::CallArgs args,
                  void (*run)(hc::Call&)) {
  uint64_t seq = 0;
  if (HcclResult r = joinCall(api, *s.comm, proto, std::move(args), &seq)) return r;
  api.args.add("seq", seq).add("count", proto.count);
  hc::RankTasks tasks(api, *s.comm, s.stream, proto.type, proto.op);
  hc::Call call{tasks, *s.comm, s.comm->group, seq};
  run(call);
  return HCCL_SUCCESS;
}

hc::CallRecord proto(HcclCMDType cmd, uint64_t count, HcclDataType type,
                     HcclReduceOp op = HCCL_REDUCE_RESERVED, uint32_t root = 0) {
  hc::CallRecord r;
  r.cmd = cmd;
  r.count = count;
  r.type = type;
  r.op = op;
  r.root = root;
  return r;
}

#define HCCL_TRY(expr)                     \
  do {                                     \
    if (HcclResult r_ = (expr)) return r_; \
  } while (0)

}  // namespace

extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAllReduce");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  HCCL_TRY(hc::opArg(api, op));
  uint64_t bytes = count * hc::elementSize(dataType);
  HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, bytes, "sendBuf"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, bytes, "recvBuf"));
  if (count == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = recvBuf;
  return launch(api, s, proto(HCCL_CMD_ALLREDUCE, count, dataType, op), std::move(a), hc::runAllReduce);
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) {
  ApiCall api("HcclBroadcast");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  HCCL_TRY(hc::rankArg(api, *s.comm, root, "root"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, buf, count * hc::elementSize(dataType), "buf"));
  if (count == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = a.recv = buf;
  return launch(api, s, proto(HCCL_CMD_BROADCAST, count, dataType, HCCL_REDUCE_RESERVED, root), std::move(a),
                hc::runBroadcast);
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclReduce");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  HCCL_TRY(hc::opArg(api, op));
  HCCL_TRY(hc::rankArg(api, *s.comm, root, "root"));
  uint64_t bytes = count * hc::elementSize(dataType);
  HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, bytes, "sendBuf"));
  if (s.comm->rank == root) HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, bytes, "recvBuf"));
  if (count == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = recvBuf;
  return launch(api, s, proto(HCCL_CMD_REDUCE, count, dataType, op, root), std::move(a), hc::runReduce);
}

static HcclResult reduceScatter(ApiCall& api, const Start& s, void* sendBuf, std::vector<uint64_t> counts,
                                std::vector<uint64_t> displs, void* recvBuf, uint64_t recvCount,
                                HcclDataType dataType, HcclReduceOp op, HcclCMDType cmd) {
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  HCCL_TRY(hc::opArg(api, op));
  const uint64_t e = hc::elementSize(dataType);
  const uint32_t me = s.comm->rank;
  if (counts[me] != recvCount)
    return hc::fail(api, HCCL_E_PARA, "recvCount {} differs from sendCounts[{}] = {}", recvCount, me,
                    counts[me]);
  HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, extent(counts, displs) * e, "sendBuf"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, recvCount * e, "recvBuf"));
  if (extent(counts, displs) == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = recvBuf;
  a.sendCounts = std::move(counts);
  a.sendDispls = std::move(displs);
  uint64_t count = cmd == HCCL_CMD_REDUCE_SCATTER ? recvCount : 0;
  return launch(api, s, proto(cmd, count, dataType, op), std::move(a), hc::runReduceScatter);
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclReduceScatter");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  uint32_t n = s.comm->group->size;
  return reduceScatter(api, s, sendBuf, std::vector<uint64_t>(n, recvCount), evenly(n, recvCount), recvBuf,
                       recvCount, dataType, op, HCCL_CMD_REDUCE_SCATTER);
}

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                              uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                              aclrtStream stream) {
  ApiCall api("HcclReduceScatterV");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  if (!sendCounts || !sendDispls)
    return hc::fail(api, HCCL_E_PTR, "{} is NULL", sendCounts ? "sendDispls" : "sendCounts");
  uint32_t n = s.comm->group->size;
  return reduceScatter(api, s, sendBuf, readCounts(sendCounts, n), readCounts(sendDispls, n), recvBuf,
                       recvCount, dataType, op, HCCL_CMD_REDUCE_SCATTER_V);
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclScatter");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  HCCL_TRY(hc::rankArg(api, *s.comm, root, "root"));
  uint64_t bytes = recvCount * hc::elementSize(dataType);
  if (s.comm->rank == root)
    HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, bytes * s.comm->group->size, "sendBuf"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, bytes, "recvBuf"));
  if (recvCount == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = recvBuf;
  return launch(api, s, proto(HCCL_CMD_SCATTER, recvCount, dataType, HCCL_REDUCE_RESERVED, root),
                std::move(a), hc::runScatter);
}

static HcclResult allGather(ApiCall& api, const Start& s, void* sendBuf, uint64_t sendCount, void* recvBuf,
                            std::vector<uint64_t> counts, std::vector<uint64_t> displs, HcclDataType dataType,
                            HcclCMDType cmd) {
  HCCL_TRY(hc::typeArg(api, dataType, "dataType"));
  const uint64_t e = hc::elementSize(dataType);
  const uint32_t me = s.comm->rank;
  if (counts[me] != sendCount)
    return hc::fail(api, HCCL_E_PARA, "sendCount {} differs from recvCounts[{}] = {}", sendCount, me,
                    counts[me]);
  HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, sendCount * e, "sendBuf"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, extent(counts, displs) * e, "recvBuf"));
  if (extent(counts, displs) == 0) return HCCL_SUCCESS;
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = recvBuf;
  a.recvCounts = std::move(counts);
  a.recvDispls = std::move(displs);
  uint64_t count = cmd == HCCL_CMD_ALLGATHER ? sendCount : 0;
  return launch(api, s, proto(cmd, count, dataType), std::move(a), hc::runAllGather);
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                         HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAllGather");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  uint32_t n = s.comm->group->size;
  return allGather(api, s, sendBuf, sendCount, recvBuf, std::vector<uint64_t>(n, sendCount),
                   evenly(n, sendCount), dataType, HCCL_CMD_ALLGATHER);
}

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                          const void* recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAllGatherV");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  if (!recvCounts || !recvDispls)
    return hc::fail(api, HCCL_E_PTR, "{} is NULL", recvCounts ? "recvDispls" : "recvCounts");
  uint32_t n = s.comm->group->size;
  return allGather(api, s, sendBuf, sendCount, recvBuf, readCounts(recvCounts, n), readCounts(recvDispls, n),
                   dataType, HCCL_CMD_ALLGATHER_V);
}

static HcclResult alltoAll(ApiCall& api, const Start& s, const void* sendBuf, std::vector<uint64_t> sc,
                           std::vector<uint64_t> sd, HcclDataType sendType, const void* recvBuf,
                           std::vector<uint64_t> rc, std::vector<uint64_t> rd, HcclDataType recvType,
                           HcclCMDType cmd) {
  HCCL_TRY(hc::typeArg(api, sendType, "sendType"));
  HCCL_TRY(hc::typeArg(api, recvType, "recvType"));
  if (sendType != recvType)
    return hc::fail(api, HCCL_E_PARA, "sendType {} and recvType {} differ", hc::typeName(sendType),
                    hc::typeName(recvType));
  const uint64_t e = hc::elementSize(sendType);
  const uint32_t me = s.comm->rank;
  if (sc[me] != rc[me])
    return hc::fail(api, HCCL_E_PARA, "rank {} sends {} elements to itself but expects {}", me, sc[me],
                    rc[me]);
  HCCL_TRY(hc::bufferArg(api, *s.comm, sendBuf, extent(sc, sd) * e, "sendBuf"));
  HCCL_TRY(hc::bufferArg(api, *s.comm, recvBuf, extent(rc, rd) * e, "recvBuf"));
  hc::CallArgs a;
  a.send = sendBuf;
  a.recv = const_cast<void*>(recvBuf);
  a.sendCounts = std::move(sc);
  a.sendDispls = std::move(sd);
  a.recvCounts = std::move(rc);
  a.recvDispls = std::move(rd);
  return launch(api, s, proto(cmd, 0, sendType), std::move(a), hc::runAlltoAll);
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAlltoAll");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  uint32_t n = s.comm->group->size;
  return alltoAll(api, s, sendBuf, std::vector<uint64_t>(n, sendCount), evenly(n, sendCount), sendType,
                  recvBuf, std::vector<uint64_t>(n, recvCount), evenly(n, recvCount), recvType,
                  HCCL_CMD_ALLTOALL);
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                         HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                         const void* rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAlltoAllV");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  if (!sendCounts || !sdispls || !recvCounts || !rdispls)
    return hc::fail(api, HCCL_E_PTR, "a count or displacement array is NULL");
  uint32_t n = s.comm->group->size;
  return alltoAll(api, s, sendBuf, readCounts(sendCounts, n), readCounts(sdispls, n), sendType, recvBuf,
                  readCounts(recvCounts, n), readCounts(rdispls, n), recvType, HCCL_CMD_ALLTOALLV);
}

HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType,
                          const void* recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclAlltoAllVC");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  if (!sendCountMatrix) return hc::fail(api, HCCL_E_PTR, "sendCountMatrix is NULL");
  uint32_t n = s.comm->group->size, me = s.comm->rank;
  std::vector<uint64_t> m = readCounts(sendCountMatrix, n * n);
  std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
  for (uint32_t p = 0; p < n; ++p) {
    sc[p] = m[me * n + p];
    rc[p] = m[p * n + me];
    if (p > 0) sd[p] = sd[p - 1] + sc[p - 1], rd[p] = rd[p - 1] + rc[p - 1];
  }
  return alltoAll(api, s, sendBuf, sc, sd, sendType, recvBuf, rc, rd, recvType, HCCL_CMD_ALLTOALLVC);
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
  ApiCall api("HcclBarrier");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  return launch(api, s, proto(HCCL_CMD_BARRIER, 0, HCCL_DATA_TYPE_INT8), hc::CallArgs{}, hc::runBarrier);
}

}  // extern "C"

namespace {

// The k-th send from `from` to `to` pairs with the k-th receive: their sizes must agree.
HcclResult postP2p(ApiCall& api, hc::Comm& c, bool send, void* buf, uint64_t bytes, uint32_t peer,
                   uint64_t* k) {
  hc::Group& g = *c.group;
  uint32_t from = send ? c.rank : peer, to = send ? peer : c.rank;
  auto& sends = g.sends[{from, to}];
  auto& recvs = g.recvs[{from, to}];
  uint64_t index = send ? sends.size() : recvs.size();
  const bool paired = send ? index < recvs.size() : index < sends.size();
  uint64_t other = !paired ? bytes : send ? recvs[index].second : sends[index];
  if (other != bytes)
    return hc::fail(api, HCCL_E_PARA,
                    "send #{} from rank {} to rank {} moves {} bytes but the matching receive expects {}",
                    index, from, to, send ? bytes : other, send ? other : bytes);
  if (send)
    sends.push_back(bytes);
  else
    recvs.emplace_back(buf, bytes);
  *k = index;
  return HCCL_SUCCESS;
}

HcclResult p2pArgs(ApiCall& api, const Start& s, void* buf, uint64_t count, HcclDataType type, uint32_t peer,
                   const char* bufName, const char* peerName) {
  HCCL_TRY(hc::typeArg(api, type, "dataType"));
  HCCL_TRY(hc::rankArg(api, *s.comm, peer, peerName));
  if (peer == s.comm->rank) return hc::fail(api, HCCL_E_PARA, "{} {} is this rank itself", peerName, peer);
  return hc::bufferArg(api, *s.comm, buf, count * hc::elementSize(type), bufName);
}

}  // namespace

extern "C" {

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
  ApiCall api("HcclSend");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(p2pArgs(api, s, sendBuf, count, dataType, destRank, "sendBuf", "destRank"));
  uint64_t bytes = count * hc::elementSize(dataType), k = 0;
  if (bytes == 0) return HCCL_SUCCESS;
  HCCL_TRY(postP2p(api, *s.comm, true, sendBuf, bytes, destRank, &k));
  hc::RankTasks t(api, *s.comm, s.stream, dataType, HCCL_REDUCE_SUM);
  hc::runSend(t, *s.comm, s.stream, sendBuf, bytes, destRank, k);
  return HCCL_SUCCESS;
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
  ApiCall api("HcclRecv");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  HCCL_TRY(p2pArgs(api, s, recvBuf, count, dataType, srcRank, "recvBuf", "srcRank"));
  uint64_t bytes = count * hc::elementSize(dataType), k = 0;
  if (bytes == 0) return HCCL_SUCCESS;
  HCCL_TRY(postP2p(api, *s.comm, false, recvBuf, bytes, srcRank, &k));
  hc::RankTasks t(api, *s.comm, s.stream, dataType, HCCL_REDUCE_SUM);
  hc::runRecvAck(t, *s.comm, s.stream, srcRank);
  hc::runRecvWait(t, *s.comm, s.stream, bytes, srcRank);
  return HCCL_SUCCESS;
}

// Each item runs on the side stream of its peer: first the receives say they are ready, then the
// sends move their data, then the receives wait for it, so a ring of items cannot deadlock.
HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                             aclrtStream stream) {
  ApiCall api("HcclBatchSendRecv");
  Start s = start(api, comm, stream);
  if (!s.stream) return s.err;
  if (!sendRecvInfo && itemNum) return hc::fail(api, HCCL_E_PTR, "sendRecvInfo is NULL");
  for (uint32_t i = 0; i < itemNum; ++i) {
    const HcclSendRecvItem& it = sendRecvInfo[i];
    if (it.sendRecvType != HCCL_SEND && it.sendRecvType != HCCL_RECV)
      return hc::fail(api, HCCL_E_PARA, "item {}: sendRecvType {} is neither HCCL_SEND nor HCCL_RECV", i,
                      static_cast<int>(it.sendRecvType));
    HCCL_TRY(p2pArgs(api, s, it.buf, it.count, it.dataType, it.remoteRank, "buf", "remoteRank"));
  }
  std::vector<uint64_t> index(itemNum, 0);
  for (uint32_t i = 0; i < itemNum; ++i) {
    const HcclSendRecvItem& it = sendRecvInfo[i];
    uint64_t bytes = it.count * hc::elementSize(it.dataType);
    if (bytes)
      HCCL_TRY(postP2p(api, *s.comm, it.sendRecvType == HCCL_SEND, it.buf, bytes, it.remoteRank, &index[i]));
  }
  hc::RankTasks t(api, *s.comm, s.stream, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM);
  t.fork();
  for (int pass = 0; pass < 3; ++pass)
    for (uint32_t i = 0; i < itemNum; ++i) {
      const HcclSendRecvItem& it = sendRecvInfo[i];
      uint64_t bytes = it.count * hc::elementSize(it.dataType);
      if (!bytes) continue;
      npusim::rt::Stream* side = t.side(it.remoteRank);
      if (pass == 0 && it.sendRecvType == HCCL_RECV) hc::runRecvAck(t, *s.comm, side, it.remoteRank);
      if (pass == 1 && it.sendRecvType == HCCL_SEND)
        hc::runSend(t, *s.comm, side, it.buf, bytes, it.remoteRank, index[i]);
      if (pass == 2 && it.sendRecvType == HCCL_RECV) hc::runRecvWait(t, *s.comm, side, bytes, it.remoteRank);
    }
  t.join();
  return HCCL_SUCCESS;
}

}  // extern "C"
