// Kernel binaries, argument lists, kernel launches and AI-core exception callbacks
// (include/acl/acl_rt_kernel.h). A kernel binary is a host shared object built by
// ascendc_fatbin_library: each kernel in it exports an entry (ascendc/npusim_kernel_launch.h)
// that unpacks packed arguments into the kernel's parameters.
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "ascendc/npusim_kernel_launch.h"
#include "runtime/device_vars.h"
#include "runtime/kernel_exec.h"
#include "runtime/runtime.h"
#include "runtime/unsupported.h"

namespace npusim::rt {

namespace {

struct Binary;

struct Function {
  Binary* bin = nullptr;
  const kernel::Entry* entry = nullptr;
};

struct Param {
  size_t offset = 0, size = 0;
  bool placeholder = false;
  std::vector<uint8_t> host;  // a placeholder's data, copied to device memory at each launch
};

struct Args {
  Function* fn = nullptr;
  std::vector<uint8_t> data;
  std::deque<Param> params;  // stable addresses: a Param* is the aclrtParamHandle
  bool finalized = false;
};

struct Binary {
  void* dl = nullptr;
  std::deque<Function> functions;
  std::deque<Args> args;
  std::vector<uint8_t> image;  // the file's bytes
  void* device = nullptr;      // aclrtBinaryGetDevAddress: the image copied to device memory
  const void* base = nullptr;  // where the object is loaded (owner of kernels and variables)
  // The program's own kernels (aclrtGetFuncBySymbol): the executable or library that holds them,
  // registered at start-up rather than loaded, so it cannot be unloaded.
  bool program = false;
  std::string path;                                // program: the file, read for the image on first use
  aclrtOpExceptionCallback onException = nullptr;  // aclrtBinarySetExceptionCallback
  void* onExceptionData = nullptr;
};

// Kernel entries by kernel function (the host symbol), as the objects holding them registered.
struct SymbolTable {
  std::mutex mu;
  std::map<const void*, const kernel::Entry*> entries;
};
SymbolTable& symbolTable() {
  static auto* t = new SymbolTable();  // registrations run during static (de)initialisation
  return *t;
}

// aclrtCreateBinary: bytes waiting for aclrtBinaryLoad.
struct BinaryData {
  std::vector<uint8_t> bytes;
};

std::set<BinaryData*>& binaryData() {
  static auto* b = new std::set<BinaryData*>();
  return *b;
}

std::set<Binary*>& binaries() {
  static std::set<Binary*> b;
  return b;
}

Function* findFunction(aclrtFuncHandle h) {
  for (Binary* b : binaries())
    for (Function& f : b->functions)
      if (&f == h) return &f;
  return nullptr;
}

Args* findArgs(aclrtArgsHandle h) {
  for (Binary* b : binaries())
    for (Args& a : b->args)
      if (&a == h) return &a;
  return nullptr;
}

Param* findParam(Args& a, aclrtParamHandle h) {
  for (Param& p : a.params)
    if (&p == h) return &p;
  return nullptr;
}

aclError loadBinary(ApiCall& api, const char* path, const char* shown, aclrtBinHandle* out) {
  std::vector<uint8_t> image;
  if (FILE* f = std::fopen(path, "rb")) {
    uint8_t chunk[65536];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
      image.insert(image.end(), chunk, chunk + n);
    std::fclose(f);
  }
  void* dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    const char* why = dlerror();
    return api.fail(ACL_ERROR_INVALID_FILE,
                    "cannot load kernel binary {}: {} (npusim loads binaries built by its "
                    "ascendc_fatbin_library)",
                    shown, why ? why : "unknown error");
  }
  auto* b = new Binary;
  b->dl = dl;
  b->image = std::move(image);
  struct link_map* lm = nullptr;
  if (dlinfo(dl, RTLD_DI_LINKMAP, &lm) == 0 && lm) b->base = reinterpret_cast<const void*>(lm->l_addr);
  binaries().insert(b);
  *out = b;
  return api.done();
}

// Where each argument goes: at the next offset aligned to its size (8 for larger ones).
size_t appendOffset(const Args& a, size_t size) {
  const size_t align = size == 1 || size == 2 || size == 4 ? size : 8;
  return (a.data.size() + align - 1) / align * align;
}

aclError checkCfg(ApiCall& api, const aclrtLaunchKernelCfg* cfg) {
  if (!cfg) return ACL_SUCCESS;
  if (cfg->numAttrs && !cfg->attrs) return api.fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL");
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& a = cfg->attrs[i];
    if (a.id < ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE || a.id > ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING)
      return api.fail(ACL_ERROR_INVALID_PARAM, "unknown launch attribute {}", static_cast<int>(a.id));
    if (a.id == ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE && a.value.engineType == ACL_RT_ENGINE_TYPE_AIC)
      return api.fail(ACL_ERROR_API_NOT_SUPPORT,
                      "kernels on cube cores (ACL_RT_ENGINE_TYPE_AIC) are not simulated; "
                      "npusim runs Ascend C vector kernels on the vector cores");
  }
  return ACL_SUCCESS;
}

}  // namespace

}  // namespace npusim::rt

using namespace npusim::rt;

extern "C" {

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  ApiCall api("aclrtBinaryLoadFromFile");
  if (!api.ok()) return api.notReady();
  if (!binPath || !binHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "binPath or binHandle is NULL");
  if (options && options->numOpt && !options->options)
    return api.fail(ACL_ERROR_INVALID_PARAM, "options->options is NULL");
  api.args.add("path", binPath);
  return loadBinary(api, binPath, binPath, binHandle);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  ApiCall api("aclrtBinaryLoadFromData");
  if (!api.ok()) return api.notReady();
  if (!data || !length || !binHandle)
    return api.fail(ACL_ERROR_INVALID_PARAM, "data, length or binHandle is empty");
  if (options && options->numOpt && !options->options)
    return api.fail(ACL_ERROR_INVALID_PARAM, "options->options is NULL");
  // The loader needs a file: an anonymous in-memory one.
  const int fd = memfd_create("npusim-kernel-binary", MFD_CLOEXEC);
  if (fd < 0) return api.fail(ACL_ERROR_BAD_ALLOC, "cannot create an in-memory file for the binary");
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t done = 0; done < length;) {
    const ssize_t n = write(fd, p + done, length - done);
    if (n <= 0) {
      close(fd);
      return api.fail(ACL_ERROR_BAD_ALLOC, "cannot write the binary to an in-memory file");
    }
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  aclError r = loadBinary(api, path.c_str(), "(data)", binHandle);
  close(fd);
  return r;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  ApiCall api("aclrtBinaryUnLoad");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (b->program)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "binHandle {} holds the program's own kernels (aclrtGetFuncBySymbol); it was not loaded",
                    binHandle);
  // Kernels already queued keep running: wait for the device before unmapping their code.
  for (int d = 0; d < api.rt.deviceCount(); ++d)
    for (const auto& hw : api.rt.platform().device(d).sched->streams())
      if (!hw->destroyed && hw->completed < hw->issued) api.rt.drain(*api.th, hw.get());
  binaries().erase(b);
  npusim::rt::devvars::releaseObject(b->base);  // its __gm__ variables' device copies
  dlclose(b->dl);
  delete b;
  return api.done();
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
  ApiCall api("aclrtBinaryGetFunction");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (!kernelName || !funcHandle)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kernelName or funcHandle is NULL");
  api.args.add("kernel", kernelName);
  const std::string sym = std::string("npusim_kernel_entry_") + kernelName;
  auto* e = static_cast<const npusim::kernel::Entry*>(dlsym(b->dl, sym.c_str()));
  if (!e) return api.fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "the binary has no kernel named '{}'", kernelName);
  for (Function& f : b->functions) {
    if (f.entry == e) {
      *funcHandle = &f;
      return api.done();
    }
  }
  b->functions.push_back(Function{b, e});
  *funcHandle = &b->functions.back();
  return api.done();
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize) {
  ApiCall api("aclrtKernelArgsGetHandleMemSize");
  if (!api.ok()) return api.notReady();
  if (!findFunction(funcHandle) || !memSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle or memSize");
  *memSize = sizeof(Args);
  return api.done();
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t* actualArgsSize) {
  ApiCall api("aclrtKernelArgsGetMemSize");
  if (!api.ok()) return api.notReady();
  if (!findFunction(funcHandle) || !actualArgsSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle or actualArgsSize");
  *actualArgsSize = (userArgsSize + 7) / 8 * 8;
  return api.done();
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  ApiCall api("aclrtKernelArgsInit");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f || !argsHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle or argsHandle");
  f->bin->args.emplace_back();
  f->bin->args.back().fn = f;
  *argsHandle = &f->bin->args.back();
  return api.done();
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle, aclrtArgsHandle, void*, size_t) {
  npusim::rt::reportUnsupported("aclrtKernelArgsInitByUserMem");  // aclrtKernelArgsInit is
  return ACL_ERROR_API_NOT_SUPPORT;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
  ApiCall api("aclrtKernelArgsAppend");
  if (!api.ok()) return api.notReady();
  Args* a = findArgs(argsHandle);
  if (!a || !param || !paramSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad argsHandle, param or paramSize");
  if (a->finalized) return api.fail(ACL_ERROR_INVALID_PARAM, "the argument list was already finalized");
  Param p;
  p.offset = appendOffset(*a, paramSize);
  p.size = paramSize;
  a->data.resize(p.offset + paramSize);
  std::memcpy(a->data.data() + p.offset, param, paramSize);
  a->params.push_back(std::move(p));
  if (paramHandle) *paramHandle = &a->params.back();
  return api.done();
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle) {
  ApiCall api("aclrtKernelArgsAppendPlaceHolder");
  if (!api.ok()) return api.notReady();
  Args* a = findArgs(argsHandle);
  if (!a || !paramHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "bad argsHandle or paramHandle");
  if (a->finalized) return api.fail(ACL_ERROR_INVALID_PARAM, "the argument list was already finalized");
  Param p;
  p.offset = appendOffset(*a, sizeof(void*));
  p.size = sizeof(void*);
  p.placeholder = true;
  a->data.resize(p.offset + p.size);
  a->params.push_back(std::move(p));
  *paramHandle = &a->params.back();
  return api.done();
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                             size_t dataSize, void** bufferAddr) {
  ApiCall api("aclrtKernelArgsGetPlaceHolderBuffer");
  if (!api.ok()) return api.notReady();
  Args* a = findArgs(argsHandle);
  Param* p = a ? findParam(*a, paramHandle) : nullptr;
  if (!p || !p->placeholder || !dataSize || !bufferAddr)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "bad argsHandle, placeholder paramHandle, dataSize or bufferAddr");
  p->host.assign(dataSize, 0);
  *bufferAddr = p->host.data();
  return api.done();
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void* param,
                                   size_t paramSize) {
  ApiCall api("aclrtKernelArgsParaUpdate");
  if (!api.ok()) return api.notReady();
  Args* a = findArgs(argsHandle);
  Param* p = a ? findParam(*a, paramHandle) : nullptr;
  if (!p || p->placeholder || !param || paramSize != p->size)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "bad argsHandle or paramHandle, or paramSize differs from the append");
  std::memcpy(a->data.data() + p->offset, param, paramSize);
  return api.done();
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  ApiCall api("aclrtKernelArgsFinalize");
  if (!api.ok()) return api.notReady();
  Args* a = findArgs(argsHandle);
  if (!a) return api.fail(ACL_ERROR_INVALID_PARAM, "bad argsHandle");
  a->finalized = true;
  return api.done();
}

// Binds packed arguments to a binary kernel, keeping them and the configuration's attributes for
// the task's queries.
// `f` bound to packed arguments of at least its size.
static void bindEntry(Function* f, uint32_t numBlocks, const uint8_t* args, size_t size, kernels::Launch* k) {
  const npusim::kernel::Entry& e = *f->entry;
  k->name = e.name;
  k->blockDim = numBlocks;
  k->run = e.run;
  k->bound = e.bind(args);
  k->release = e.release;
  k->funcHandle = f;
  k->packed = true;
  k->args.assign(args, args + size);
}

static aclError bindTo(ApiCall& api, Function* f, uint32_t numBlocks, const uint8_t* args, size_t size,
                       const aclrtLaunchKernelCfg* cfg, kernels::Launch* k) {
  const npusim::kernel::Entry& e = *f->entry;
  if (size < e.argsSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kernel {} takes {} bytes of arguments, {} given", e.name,
                    e.argsSize, size);
  bindEntry(f, numBlocks, args, size, k);
  if (cfg && cfg->numAttrs) k->attrs.assign(cfg->attrs, cfg->attrs + cfg->numAttrs);
  return ACL_SUCCESS;
}

static aclError launchPacked(ApiCall& api, Function* f, uint32_t numBlocks, const uint8_t* args, size_t size,
                             aclrtStream stream, std::vector<void*> scratch = {},
                             const aclrtLaunchKernelCfg* cfg = nullptr) {
  kernels::Launch k;
  if (aclError r = bindTo(api, f, numBlocks, args, size, cfg, &k)) {
    for (void* q : scratch) aclrtFree(q);
    return r;
  }
  k.scratch = std::move(scratch);
  return api.done(kernels::launch(stream, std::move(k)));
}

}  // extern "C"

namespace npusim::rt::kernels {

aclError bindPacked(ApiCall& api, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* args,
                    size_t size, const aclrtLaunchKernelCfg* cfg, Launch* out) {
  Function* f = findFunction(funcHandle);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle {} is not a kernel of a loaded binary", funcHandle);
  if (!args && size) return api.fail(ACL_ERROR_INVALID_PARAM, "args is NULL");
  if (numBlocks == 0 || numBlocks > 65535)
    return api.fail(ACL_ERROR_INVALID_PARAM, "numBlocks {} is outside 1..65535", numBlocks);
  if (aclError r = checkCfg(api, cfg)) return r;
  return bindTo(api, f, numBlocks, static_cast<const uint8_t*>(args), size, cfg, out);
}

}  // namespace npusim::rt::kernels

extern "C" {

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                           size_t argsSize, aclrtStream stream) {
  ApiCall api("aclrtLaunchKernel");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle {} is not a kernel of a loaded binary", funcHandle);
  if (!argsData && argsSize) return api.fail(ACL_ERROR_INVALID_PARAM, "argsData is NULL");
  return launchPacked(api, f, numBlocks, static_cast<const uint8_t*>(argsData), argsSize, stream);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
  ApiCall api("aclrtLaunchKernelWithConfig");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle {} is not a kernel of a loaded binary", funcHandle);
  Args* a = findArgs(argsHandle);
  if (!a || a->fn != f) return api.fail(ACL_ERROR_INVALID_PARAM, "argsHandle was not made for this kernel");
  if (!a->finalized) return api.fail(ACL_ERROR_INVALID_PARAM, "the argument list is not finalized");
  if (aclError r = checkCfg(api, cfg)) return r;
  // Placeholders: their data goes to device memory of its own for this launch, freed after it ran.
  std::vector<uint8_t> data = a->data;
  std::vector<void*> scratch;
  for (const Param& p : a->params) {
    if (!p.placeholder) continue;
    void* dev = nullptr;
    if (aclError r = aclrtMalloc(&dev, p.host.size() ? p.host.size() : 1, ACL_MEM_MALLOC_HUGE_FIRST)) {
      for (void* q : scratch) aclrtFree(q);
      return r;
    }
    scratch.push_back(dev);
    if (!p.host.empty()) {
      PointerInfo info = api.rt.memory().classify(dev);
      std::memcpy(api.rt.memory().hostView(info, dev), p.host.data(), p.host.size());
    }
    std::memcpy(data.data() + p.offset, &dev, sizeof dev);
  }
  return launchPacked(api, f, numBlocks, data.data(), data.size(), stream, std::move(scratch), cfg);
}

// ---- binaries as data, functions' names, addresses and owners ----

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) {
  ApiCall api("aclrtCreateBinary");
  if (!api.ok()) return nullptr;
  if (!data || !dataLen) {
    api.fail(ACL_ERROR_INVALID_PARAM, "data is NULL or dataLen is 0");
    return nullptr;
  }
  auto* b = new BinaryData{
      std::vector<uint8_t>(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + dataLen)};
  binaryData().insert(b);
  api.done();
  return b;
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  ApiCall api("aclrtDestroyBinary");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<BinaryData*>(binary);
  if (!binaryData().erase(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a binary (aclrtCreateBinary)", binary);
  delete b;
  return api.done();
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle) {
  ApiCall api("aclrtBinaryLoad");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<BinaryData*>(binary);
  if (!binaryData().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a binary (aclrtCreateBinary)", binary);
  return api.done(aclrtBinaryLoadFromData(b->bytes.data(), b->bytes.size(), nullptr, binHandle));
}

// The binary's bytes in device memory of the current device (copied on first use), as the
// device would hold its code.
aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize) {
  ApiCall api("aclrtBinaryGetDevAddress");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (!binAddr || !binSize) return api.fail(ACL_ERROR_INVALID_PARAM, "binAddr or binSize is NULL");
  if (b->program && b->image.empty()) {
    std::ifstream file(b->path, std::ios::binary);
    b->image.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  if (!b->device && !b->image.empty()) {
    aclError err;
    Context* ctx = api.context(&err);
    if (!ctx) return err;
    b->device = api.rt.memory().allocDevice(
        ctx->device, b->image.size(), (b->image.size() + 31) / 32 * 32 + 32, 64, "aclrtBinaryGetDevAddress");
    if (!b->device)
      return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device {} is out of memory", ctx->device);
    PointerInfo info = api.rt.memory().classify(b->device);
    std::memcpy(api.rt.memory().hostView(info, b->device), b->image.data(), b->image.size());
  }
  *binAddr = b->device;
  *binSize = b->image.size();
  return api.done();
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
  ApiCall api("aclrtFunctionGetBinary");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f || !binHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle or binHandle");
  *binHandle = f->bin;
  return api.done();
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  ApiCall api("aclrtGetFunctionName");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f || !name || maxLen == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle, name or maxLen");
  const size_t n = std::min<size_t>(std::strlen(f->entry->name), maxLen - 1);
  std::memcpy(name, f->entry->name, n);
  name[n] = '\0';
  return api.done();
}

}  // extern "C"

namespace {

// A function's address in the binary's device image: the image base plus the entry's offset in the
// loaded library (npusim's kernels are vector kernels: they have no cube-core address).
aclError functionAddress(ApiCall& api, Function* f, void** aiv) {
  void* base = nullptr;
  size_t size = 0;
  if (aclError e = aclrtBinaryGetDevAddress(f->bin, &base, &size)) return api.done(e);
  Dl_info info{};
  uintptr_t off = 0;
  if (dladdr(f->entry, &info) && info.dli_fbase)
    off = reinterpret_cast<uintptr_t>(f->entry) - reinterpret_cast<uintptr_t>(info.dli_fbase);
  *aiv = static_cast<uint8_t*>(base) + (size ? off % size : 0);
  return ACL_SUCCESS;
}

}  // namespace

namespace npusim::rt::kernels {

aclError entriesOf(ApiCall& api, aclrtBinHandle binHandle, std::map<uint64_t, aclrtFuncHandle>* out) {
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_RT_PARAM_INVALID, "binHandle {} is not a loaded binary", binHandle);
  for (Function& f : b->functions) {
    void* aiv = nullptr;
    if (aclError e = functionAddress(api, &f, &aiv)) return e;
    (*out)[reinterpret_cast<uintptr_t>(aiv)] = &f;
  }
  return ACL_SUCCESS;
}

std::string rebound(const Launch& old, aclrtFuncHandle funcHandle, uint32_t numBlocks, Launch* out) {
  Function* f = findFunction(funcHandle);
  if (!f) return "the kernel's binary was unloaded";
  if (numBlocks == 0 || numBlocks > 65535) return fmt::format("numBlocks {} is outside 1..65535", numBlocks);
  const npusim::kernel::Entry& e = *f->entry;
  if (old.args.size() < e.argsSize)
    return fmt::format("kernel {} takes {} bytes of arguments, the task has {}", e.name, e.argsSize,
                       old.args.size());
  bindEntry(f, numBlocks, old.args.data(), old.args.size(), out);
  out->attrs = old.attrs;
  out->argsSummary = old.argsSummary;
  return {};
}

}  // namespace npusim::rt::kernels

extern "C" {

aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr) {
  ApiCall api("aclrtGetFunctionAddr");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f || !aicAddr || !aivAddr)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle, aicAddr or aivAddr");
  if (aclError e = functionAddress(api, f, aivAddr)) return e;
  *aicAddr = nullptr;
  return api.done();
}

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) {
  ApiCall api("aclrtBinaryGetFunctionByEntry");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (!funcHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle is NULL");
  for (Function& f : b->functions) {
    void* aiv = nullptr;
    if (functionAddress(api, &f, &aiv) == ACL_SUCCESS && reinterpret_cast<uintptr_t>(aiv) == funcEntry) {
      *funcHandle = &f;
      return api.done();
    }
  }
  return api.fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                  "no kernel of the binary starts at {:#x} (aclrtGetFunctionAddr gives the addresses)",
                  funcEntry);
}

// The same launch with the launch configuration given.
aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  ApiCall api("aclrtLaunchKernelV2");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle {} is not a kernel of a loaded binary", funcHandle);
  if (!argsData && argsSize) return api.fail(ACL_ERROR_INVALID_PARAM, "argsData is NULL");
  if (aclError r = checkCfg(api, cfg)) return r;
  return launchPacked(api, f, numBlocks, static_cast<const uint8_t*>(argsData), argsSize, stream, {}, cfg);
}

// Arguments in host memory; each placeholder's pointer (at addrOffset) is set to a device copy of
// the data that starts at dataOffset in the same buffer (freed after the kernel ran).
aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
  ApiCall api("aclrtLaunchKernelWithHostArgs");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcHandle {} is not a kernel of a loaded binary", funcHandle);
  if (!hostArgs || !argsSize) return api.fail(ACL_ERROR_INVALID_PARAM, "hostArgs is NULL or argsSize is 0");
  if (placeHolderNum && !placeHolderArray)
    return api.fail(ACL_ERROR_INVALID_PARAM, "placeHolderArray is NULL");
  if (aclError r = checkCfg(api, cfg)) return r;
  std::vector<uint8_t> data(static_cast<uint8_t*>(hostArgs), static_cast<uint8_t*>(hostArgs) + argsSize);
  std::vector<void*> scratch;
  if (placeHolderNum) {
    void* dev = nullptr;
    if (aclError r = aclrtMalloc(&dev, argsSize, ACL_MEM_MALLOC_HUGE_FIRST)) return api.done(r);
    scratch.push_back(dev);
    PointerInfo info = api.rt.memory().classify(dev);
    std::memcpy(api.rt.memory().hostView(info, dev), data.data(), argsSize);
    for (size_t i = 0; i < placeHolderNum; ++i) {
      const aclrtPlaceHolderInfo& p = placeHolderArray[i];
      if (p.addrOffset + sizeof(void*) > argsSize || p.dataOffset >= argsSize) {
        aclrtFree(dev);
        return api.fail(ACL_ERROR_INVALID_PARAM, "placeholder {} (addr {}, data {}) is outside the {} bytes",
                        i, p.addrOffset, p.dataOffset, argsSize);
      }
      void* at = static_cast<uint8_t*>(dev) + p.dataOffset;
      std::memcpy(data.data() + p.addrOffset, &at, sizeof at);
    }
  }
  return launchPacked(api, f, numBlocks, data.data(), data.size(), stream, std::move(scratch), cfg);
}

// ---- exception callbacks ----

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  return kernels::setCallback(callback);
}
aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  return kernels::registerCallback(callback, true);
}
aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  return kernels::registerCallback(callback, false);
}
uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->taskId : 0; }
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->streamId : 0;
}
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->threadId : 0;
}
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->deviceId : 0;
}
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info ? info->errorCode : 0;
}
aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func) {
  if (!info || !func) return ACL_ERROR_INVALID_PARAM;
  *func = const_cast<void*>(info->funcHandle);
  return ACL_SUCCESS;
}

}  // extern "C"

// ---- kernels named by their host symbol, function queries, binary exception callbacks ----

namespace {

// The function handle of a registered kernel entry: in the loaded binary that holds it, or in the
// program binary of the executable or library it was linked into.
Function* functionOf(const npusim::kernel::Entry* e) {
  Dl_info info{};
  const void* base = dladdr(e, &info) ? info.dli_fbase : nullptr;
  Binary* owner = nullptr;
  for (Binary* b : binaries())
    if (b->base == base && (base || b->program)) owner = b;
  if (!owner) {
    owner = new Binary;
    owner->program = true;
    owner->base = base;
    owner->path = info.dli_fname && *info.dli_fname ? info.dli_fname : "/proc/self/exe";
    binaries().insert(owner);
  }
  for (Function& f : owner->functions)
    if (f.entry == e) return &f;
  owner->functions.push_back(Function{owner, e});
  return &owner->functions.back();
}

const npusim::kernel::Entry* entryBySymbol(const void* symbol) {
  SymbolTable& t = symbolTable();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.entries.find(symbol);
  return it == t.entries.end() ? nullptr : it->second;
}

// A function handle, or (aclrtLaunchKernelWithArgsArray) a kernel's host symbol.
Function* functionOrSymbol(const void* func) {
  if (Function* f = findFunction(const_cast<void*>(func))) return f;
  const npusim::kernel::Entry* e = func ? entryBySymbol(func) : nullptr;
  return e ? functionOf(e) : nullptr;
}

}  // namespace

namespace npusim::rt::kernels {

void runBinaryCallback(rtExceptionInfo& info) {
  Function* f = findFunction(const_cast<void*>(info.funcHandle));
  if (f && f->bin->onException) f->bin->onException(&info, f->bin->onExceptionData);
}

}  // namespace npusim::rt::kernels

extern "C" {

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
  ApiCall api("aclrtGetFuncBySymbol");
  if (!api.ok()) return api.notReady();
  if (!symbol || !funcHandle) return api.fail(ACL_ERROR_INVALID_PARAM, "symbol or funcHandle is NULL");
  const npusim::kernel::Entry* e = entryBySymbol(symbol);
  if (!e)
    return api.fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                    "{} is not a __global__ kernel of a source built by ascendc_library (templated kernels "
                    "have no entry)",
                    symbol);
  *funcHandle = functionOf(e);
  api.args.add("kernel", e->name);
  return api.done();
}

// Each parameter's value comes from the host memory args[i] points at, packed as the kernel's
// binary entry unpacks them; then the launch is aclrtLaunchKernelV2's.
aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args) {
  ApiCall api("aclrtLaunchKernelWithArgsArray");
  if (!api.ok()) return api.notReady();
  Function* f = functionOrSymbol(func);
  if (!f)
    return api.fail(ACL_ERROR_INVALID_PARAM, "func {} is neither a function handle nor a kernel symbol",
                    func);
  if (aclError r = checkCfg(api, cfg)) return r;
  const npusim::kernel::Entry& e = *f->entry;
  if (e.paramCount && !args)
    return api.fail(ACL_ERROR_INVALID_PARAM, "args is NULL (kernel {} takes {})", e.name, e.paramCount);
  std::vector<uint8_t> data(e.argsSize);
  for (size_t i = 0; i < e.paramCount; ++i) {
    if (!args[i]) return api.fail(ACL_ERROR_INVALID_PARAM, "args[{}] is NULL", i);
    std::memcpy(data.data() + e.paramOffsets[i], args[i], e.paramSizes[i]);
  }
  return launchPacked(api, f, numBlocks, data.data(), data.size(), stream, {}, cfg);
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  ApiCall api("aclrtFunctionGetParamCount");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(const_cast<void*>(func));
  if (!f || !paramCount) return api.fail(ACL_ERROR_INVALID_PARAM, "bad func or paramCount");
  *paramCount = f->entry->paramCount;
  return api.done();
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize) {
  ApiCall api("aclrtFunctionGetParamInfo");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(const_cast<void*>(func));
  if (!f || !paramOffset || !paramSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad func, paramOffset or paramSize");
  if (paramIndex >= f->entry->paramCount)
    return api.fail(ACL_ERROR_INVALID_PARAM, "kernel {} has {} parameters, index {} asked", f->entry->name,
                    f->entry->paramCount, paramIndex);
  *paramOffset = f->entry->paramOffsets[paramIndex];
  *paramSize = f->entry->paramSizes[paramIndex];
  return api.done();
}

// npusim's kernels are vector (non-SIMT) kernels: no dynamic unified buffer, as the reference says
// for those.
aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize) {
  ApiCall api("aclrtFunctionGetAvailDynUbufPerBlock");
  if (!api.ok()) return api.notReady();
  if (!findFunction(func) || !dynamicUbufSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad func or dynamicUbufSize");
  *dynamicUbufSize = 0;
  return api.done();
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                   int64_t* attrValue) {
  ApiCall api("aclrtGetFunctionAttribute");
  if (!api.ok()) return api.notReady();
  if (!findFunction(funcHandle) || !attrValue)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle or attrValue");
  switch (attrType) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
      *attrValue = ACL_KERNEL_TYPE_VECTOR;  // Ascend C vector kernels only (docs/kernels.md)
      break;
    case ACL_FUNC_ATTR_KERNEL_RATIO: {
      // uint16 [0]: vector cores, [1]: cube cores per block.
      uint16_t ratio[4] = {1, 0, 0, 0};
      std::memcpy(attrValue, ratio, sizeof ratio);
      break;
    }
    case ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
      *attrValue = 0;  // normal: blocks start as cores free up (the AI-core model shares them out)
      break;
    default:
      return api.fail(ACL_ERROR_INVALID_PARAM, "unknown function attribute {}", static_cast<int>(attrType));
  }
  return api.done();
}

// The code size of the kernel function in its object (its ELF symbol's size); no cube-core code.
aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize) {
  ApiCall api("aclrtGetFunctionSize");
  if (!api.ok()) return api.notReady();
  Function* f = findFunction(funcHandle);
  if (!f || !aicSize || !aivSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "bad funcHandle, aicSize or aivSize");
  Dl_info info{};
  void* symEntry = nullptr;
  const bool found = dladdr1(f->entry->symbol, &info, &symEntry, RTLD_DL_SYMENT) != 0;
  const auto* sym = static_cast<const ElfW(Sym)*>(symEntry);
  if (!found || !sym || !info.dli_saddr || info.dli_saddr != f->entry->symbol)
    return api.fail(
        ACL_ERROR_RT_SYMBOL_NOT_FOUND,
        "the code of kernel {} is not in its object's dynamic symbol table (link the kernels into a "
        "shared object or export them)",
        f->entry->name);
  *aicSize = 0;
  *aivSize = sym->st_size;
  return api.done();
}

// A __gm__ variable of the binary by name: its device copy on the current device (device_vars.h).
aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr, size_t* size) {
  ApiCall api("aclrtBinaryGetGlobal");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (!name || (!dptr && !size))
    return api.fail(ACL_ERROR_INVALID_PARAM, "name is NULL, or both dptr and size");
  api.args.add("name", name);
  void* addr = b->dl ? dlsym(b->dl, name) : nullptr;
  npusim::rt::devvars::Info v;
  if (!addr || !npusim::rt::devvars::find(addr, &v))
    return api.fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "the binary has no __gm__ variable named '{}'", name);
  if (dptr) {
    aclError err;
    Context* ctx = api.context(&err);
    if (!ctx) return err;
    void* dev = npusim::rt::devvars::deviceCopy(addr, ctx->device);
    if (!dev) return api.fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device {} is out of memory", ctx->device);
    *dptr = dev;
  }
  if (size) *size = v.size;
  return api.done();
}

// Called (after the exception callbacks) when a kernel of this binary raised an exception.
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback,
                                         void* userData) {
  ApiCall api("aclrtBinarySetExceptionCallback");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(binHandle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "binHandle {} is not a loaded binary", binHandle);
  if (!callback) return api.fail(ACL_ERROR_INVALID_PARAM, "callback is NULL");
  b->onException = callback;
  b->onExceptionData = userData;
  return api.done();
}

// AI CPU kernels only: npusim's binaries hold AI-core (vector) kernels, for which the reference
// answers ACL_ERROR_RT_PARAM_INVALID; AI CPU binaries themselves cannot be loaded (no AI CPU).
aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName, const char* kernelName,
                              aclrtFuncHandle* funcHandle) {
  ApiCall api("aclrtRegisterCpuFunc");
  if (!api.ok()) return api.notReady();
  auto* b = static_cast<Binary*>(handle);
  if (!binaries().count(b))
    return api.fail(ACL_ERROR_INVALID_PARAM, "handle {} is not a loaded binary", handle);
  if (!funcName || !*funcName || !kernelName || !*kernelName || !funcHandle)
    return api.fail(ACL_ERROR_INVALID_PARAM, "funcName, kernelName or funcHandle is empty");
  npusim::rt::reportUnsupported(
      "aclrtRegisterCpuFunc",
      "AI CPU kernels: the binary holds AI-core kernels and npusim simulates no AI CPU");
  return api.done(ACL_ERROR_RT_PARAM_INVALID);
}

}  // extern "C"

// ---- the kernel ABI: entries register themselves (include/ascendc/npusim_kernel_abi.h) ----

extern "C" void npusimKernelRegister(const void* entry, int add) {
  const auto* e = static_cast<const npusim::kernel::Entry*>(entry);
  SymbolTable& t = symbolTable();
  std::lock_guard<std::mutex> lock(t.mu);
  if (add)
    t.entries[e->symbol] = e;
  else if (t.entries.count(e->symbol) && t.entries[e->symbol] == e)
    t.entries.erase(e->symbol);
}
