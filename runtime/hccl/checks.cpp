#include "runtime/hccl/checks.h"

#include "runtime/hccl/reduce_kernels.h"

namespace npusim::hccl {

Comm* commArg(rt::ApiCall& api, HcclComm comm, HcclResult* err) {
  auto* c = static_cast<Comm*>(comm);
  if (!c) {
    *err = fail(api, HCCL_E_PTR, "comm is NULL");
    return nullptr;
  }
  if (!isLive(c)) {
    *err = fail(api, HCCL_E_PARA, "comm {} is not a live communicator (destroyed?)", comm);
    return nullptr;
  }
  return c;
}

rt::Stream* streamArg(rt::ApiCall& api, const Comm& c, aclrtStream stream, HcclResult* err) {
  aclError e;
  std::string why;
  rt::Stream* s = api.rt.resolveStream(stream, &e, &why);
  if (!s) {
    *err = fail(api, HCCL_E_PARA, "stream: {}", why);
    return nullptr;
  }
  if (s->device != c.device) {
    *err = fail(api, HCCL_E_PARA,
                "stream {} belongs to device {}, but rank {} of communicator {} is on device {}", s->hw->id,
                s->device, c.rank, c.group->name, c.device);
    return nullptr;
  }
  return s;
}

HcclResult bufferArg(rt::ApiCall& api, const Comm& c, const void* p, uint64_t bytes, const char* name) {
  if (bytes == 0) return HCCL_SUCCESS;
  if (!p) return fail(api, HCCL_E_PTR, "{} is NULL", name);
  rt::MemoryManager& mem = api.rt.memory();
  rt::PointerInfo info = mem.classify(p);
  if (info.kind != rt::PointerKind::Device)
    return fail(api, HCCL_E_PARA,
                "{} {} is not device memory (collectives read and write device memory only)", name, p);
  if (info.device != c.device)
    return fail(api, HCCL_E_PARA, "{} {} is memory of device {}, but rank {} runs on device {}", name, p,
                info.device, c.rank, c.device);
  if (!mem.rangeInside(info, p, bytes))
    return fail(api, HCCL_E_PARA, "{} {}: {} bytes do not fit in its device allocation", name, p, bytes);
  return HCCL_SUCCESS;
}

HcclResult typeArg(rt::ApiCall& api, HcclDataType type, const char* name) {
  if (elementSize(type) != 0) return HCCL_SUCCESS;
  if (type == HCCL_DATA_TYPE_INT128 || (type >= HCCL_DATA_TYPE_HIF8 && type <= HCCL_DATA_TYPE_FP8E8M0))
    return fail(api, HCCL_E_NOT_SUPPORT,
                "{} {} is not supported on Atlas A2 (INT128 and the fp8 types are for newer parts)", name,
                static_cast<int>(type));
  return fail(api, HCCL_E_PARA, "{} {} is not an HcclDataType", name, static_cast<int>(type));
}

HcclResult opArg(rt::ApiCall& api, HcclReduceOp op) {
  if (op == HCCL_REDUCE_SUM || op == HCCL_REDUCE_PROD || op == HCCL_REDUCE_MAX || op == HCCL_REDUCE_MIN)
    return HCCL_SUCCESS;
  return fail(api, HCCL_E_PARA, "op {} is not an HcclReduceOp (SUM, PROD, MAX, MIN)", static_cast<int>(op));
}

HcclResult rankArg(rt::ApiCall& api, const Comm& c, uint32_t rank, const char* name) {
  if (rank < c.group->size) return HCCL_SUCCESS;
  return fail(api, HCCL_E_PARA, "{} {} is out of range: communicator {} has ranks 0..{}", name, rank,
              c.group->name, c.group->size - 1);
}

}  // namespace npusim::hccl
