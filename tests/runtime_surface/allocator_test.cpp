// User allocators (aclrtAllocator*), from the documented behaviour: a descriptor needs the
// allocator object and its alloc, free and get-address functions; registration is per stream,
// the last one wins, and the descriptor may be destroyed once registered; the runtime asks the
// allocator for the workspace of an operator launched without one.
#include <gtest/gtest.h>

#include <vector>

#include "acl/acl.h"
#include "runtime/op_launch.h"
#include "tests/runtime_surface/surface_test_util.h"

using npusim::test::configure;

namespace {
// A trivial pool over aclrtMalloc that counts its calls.
struct Pool {
  std::vector<size_t> allocs;
  int frees = 0, addrs = 0;
  void* last = nullptr;
};
struct Block {
  void* dev;
};
void* poolAlloc(aclrtAllocator a, size_t size) {
  auto* p = static_cast<Pool*>(a);
  p->allocs.push_back(size);
  auto* b = new Block{nullptr};
  if (aclrtMalloc(&b->dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    delete b;
    return nullptr;
  }
  p->last = b->dev;
  return b;
}
void poolFree(aclrtAllocator a, aclrtAllocatorBlock block) {
  ++static_cast<Pool*>(a)->frees;
  auto* b = static_cast<Block*>(block);
  aclrtFree(b->dev);
  delete b;
}
void* poolAddr(aclrtAllocatorBlock block) { return static_cast<Block*>(block)->dev; }
void* poolAdvise(aclrtAllocator, size_t, aclrtAllocatorAddr) { return nullptr; }

aclrtAllocatorDesc makeDesc(Pool* pool) {
  aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
  EXPECT_NE(d, nullptr);
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(d, pool), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(d, poolAlloc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(d, poolFree), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, poolAddr), ACL_SUCCESS);
  return d;
}
}  // namespace

TEST(Allocator, RegistrationPerStream) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  Pool p1, p2;
  aclrtAllocatorDesc incomplete = aclrtAllocatorCreateDesc();
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(incomplete, &p1), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(s, incomplete), ACL_ERROR_INVALID_PARAM);  // no functions
  EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(incomplete, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(incomplete), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(incomplete), ACL_ERROR_INVALID_PARAM);

  aclrtAllocatorDesc d1 = makeDesc(&p1);
  ASSERT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(d1, poolAdvise), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(nullptr, d1), ACL_ERROR_INVALID_PARAM);  // a created stream only
  EXPECT_EQ(aclrtAllocatorGetByStream(s, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);  // nothing registered yet
  ASSERT_EQ(aclrtAllocatorRegister(s, d1), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(d1), ACL_SUCCESS);  // the registration keeps its own copy
  aclrtAllocatorDesc gotDesc = nullptr;
  aclrtAllocator gotObj = nullptr;
  aclrtAllocatorAllocFunc gotAlloc = nullptr;
  aclrtAllocatorFreeFunc gotFree = nullptr;
  aclrtAllocatorAllocAdviseFunc gotAdvise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc gotAddr = nullptr;
  ASSERT_EQ(aclrtAllocatorGetByStream(s, &gotDesc, &gotObj, &gotAlloc, &gotFree, &gotAdvise, &gotAddr),
            ACL_SUCCESS);
  EXPECT_EQ(gotDesc, d1);
  EXPECT_EQ(gotObj, &p1);
  EXPECT_EQ(gotAlloc, &poolAlloc);
  EXPECT_EQ(gotFree, &poolFree);
  EXPECT_EQ(gotAdvise, &poolAdvise);
  EXPECT_EQ(gotAddr, &poolAddr);

  aclrtAllocatorDesc d2 = makeDesc(&p2);
  ASSERT_EQ(aclrtAllocatorRegister(s, d2), ACL_SUCCESS);  // the last registration wins
  ASSERT_EQ(aclrtAllocatorGetByStream(s, nullptr, &gotObj, nullptr, nullptr, &gotAdvise, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(gotObj, &p2);
  EXPECT_EQ(gotAdvise, nullptr);
  ASSERT_EQ(aclrtAllocatorUnregister(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorGetByStream(s, nullptr, &gotObj, nullptr, nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(d2), ACL_SUCCESS);
  EXPECT_TRUE(p1.allocs.empty());
}

TEST(Allocator, RuntimeTakesOperatorWorkspaceFromIt) {
  configure("");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  auto op = [] {
    npusim::rt::OpLaunch o;
    o.name = "NeedsWorkspace";
    o.allocatorWorkspace = 1u << 20;
    return o;
  };
  // Without an allocator the launch is refused with the reason.
  EXPECT_EQ(npusim::rt::launchOperator(s, op()), ACL_ERROR_INVALID_PARAM);
  std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("register an allocator"), std::string::npos) << msg;
  Pool pool;
  aclrtAllocatorDesc d = makeDesc(&pool);
  ASSERT_EQ(aclrtAllocatorRegister(s, d), ACL_SUCCESS);
  ASSERT_EQ(npusim::rt::launchOperator(s, op()), ACL_SUCCESS);
  ASSERT_EQ(npusim::rt::launchOperator(s, op()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(pool.allocs.size(), 2u);
  EXPECT_EQ(pool.allocs[0], 1u << 20);
  EXPECT_EQ(pool.frees, 2);  // each block given back once its operator was enqueued
  ASSERT_EQ(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}
