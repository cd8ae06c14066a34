#ifndef NPUSIM_KERNEL_LAUNCH_H_
#define NPUSIM_KERNEL_LAUNCH_H_
// What the source filter (ascendc_filter.py) turns Ascend C's launch syntax into:
//   kernel<<<blockDim, l2ctrl, stream>>>(args...)
//     -> ::npusim::kernel::Launcher(kernel, "kernel", blockDim, l2ctrl, stream)(args...)
// and how a kernel binary (ascendc_fatbin_library) exposes its kernels to aclrtBinaryGetFunction
// and aclrtLaunchKernel*: an exported table entry per kernel that unpacks a packed argument
// buffer into the kernel's parameters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "npusim_kernel_abi.h"

namespace npusim::kernel {

template <class P, class A>
P convertArg(A&& a) {
  if constexpr (std::is_pointer<P>::value && std::is_pointer<std::decay_t<A>>::value)
    return reinterpret_cast<P>(const_cast<void*>(static_cast<const void*>(a)));
  else
    return static_cast<P>(a);
}

// The running block's DMA atomic mode (SetAtomicAdd<T>, npusim_atomic.h): 0 none, else the code
// of the type its copies to GM add as. Every block starts with none.
inline thread_local int blockAtomicAdd = 0;

template <class... P>
struct Bound {
  void (*fn)(P...);
  std::tuple<std::decay_t<P>...> args;
  static void run(void* self) {
    auto* b = static_cast<Bound*>(self);
    blockAtomicAdd = 0;
    std::apply(b->fn, b->args);
  }
  static void release(void* self) { delete static_cast<Bound*>(self); }
};

template <class... P>
class Launcher {
 public:
  Launcher(void (*fn)(P...), const char* name, uint32_t blockDim, void* /*l2ctrl*/, void* stream)
      : fn_(fn), name_(name), blockDim_(blockDim), stream_(stream) {}
  template <class... A>
  uint32_t operator()(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "kernel launched with the wrong number of arguments");
    auto* b = new Bound<P...>{fn_, std::tuple<std::decay_t<P>...>(convertArg<std::decay_t<P>>(args)...)};
    return static_cast<uint32_t>(
        npusimKernelLaunch(name_, blockDim_, stream_, &Bound<P...>::run, b, &Bound<P...>::release));
  }

 private:
  void (*fn_)(P...);
  const char* name_;
  uint32_t blockDim_;
  void* stream_;
};

// ---- kernel binaries: packed arguments ----------------------------------------------------------
// Arguments are packed as the fields of a struct would be: each at its natural alignment.
template <class T>
constexpr size_t alignUp(size_t off) {
  return (off + alignof(T) - 1) / alignof(T) * alignof(T);
}
template <class... P>
constexpr size_t packedSize() {
  size_t off = 0;
  ((off = alignUp<std::decay_t<P>>(off) + sizeof(std::decay_t<P>)), ...);
  return off;
}
template <class... P>
std::tuple<std::decay_t<P>...> unpack(const uint8_t* data) {
  std::tuple<std::decay_t<P>...> t;
  size_t off = 0;
  std::apply(
      [&](auto&... field) {
        ((off = alignUp<std::decay_t<decltype(field)>>(off), std::memcpy(&field, data + off, sizeof(field)),
          off += sizeof(field)),
         ...);
      },
      t);
  return t;
}

// Where each parameter starts in the packed buffer (one more element, so that no kernel gets a
// zero-sized array).
template <class... P>
constexpr std::array<size_t, sizeof...(P) + 1> packedOffsets() {
  std::array<size_t, sizeof...(P) + 1> out{};
  size_t off = 0, i = 0;
  ((off = alignUp<std::decay_t<P>>(off), out[i++] = off, off += sizeof(std::decay_t<P>)), ...);
  (void)off;
  (void)i;
  return out;
}
template <class... P>
struct Layout {
  static constexpr std::array<size_t, sizeof...(P) + 1> offsets = packedOffsets<P...>();
  static constexpr std::array<size_t, sizeof...(P) + 1> sizes{sizeof(std::decay_t<P>)..., 0};
};

// One exported entry per kernel of a binary (symbol npusim_kernel_entry_<name>).
struct Entry {
  const char* name;
  size_t argsSize;  // bytes of packed arguments the kernel takes
  // Binds a copy of packed arguments for npusimKernelLaunch.
  void* (*bind)(const void* args);
  npusimKernelBody run;
  npusimKernelFree release;
  // The parameters in the packed buffer (aclrtFunctionGetParamCount / ParamInfo) and the kernel
  // function itself, the host symbol of aclrtGetFuncBySymbol and aclrtLaunchKernelWithArgsArray.
  size_t paramCount;
  const size_t* paramOffsets;
  const size_t* paramSizes;
  const void* symbol;
};

template <auto Fn, class... P>
Entry makeEntry(void (*)(P...), const char* name) {
  Entry e;
  e.name = name;
  e.argsSize = packedSize<P...>();
  e.bind = [](const void* args) -> void* {
    return new Bound<P...>{Fn, unpack<P...>(static_cast<const uint8_t*>(args))};
  };
  e.run = &Bound<P...>::run;
  e.release = &Bound<P...>::release;
  e.paramCount = sizeof...(P);
  e.paramOffsets = Layout<P...>::offsets.data();
  e.paramSizes = Layout<P...>::sizes.data();
  e.symbol = reinterpret_cast<const void*>(Fn);
  return e;
}

// Registers a kernel's entry, or a file-scope __gm__ variable, for as long as its object is loaded.
struct RegisteredEntry {
  explicit RegisteredEntry(const Entry* e) : entry(e) { npusimKernelRegister(e, 1); }
  ~RegisteredEntry() { npusimKernelRegister(entry, 0); }
  const Entry* entry;
};
struct RegisteredVar {
  RegisteredVar(void* a, size_t s, const char* n) : addr(a), size(s), name(n) {
    npusimKernelRegisterVar(a, s, n, 1);
  }
  ~RegisteredVar() { npusimKernelRegisterVar(addr, size, name, 0); }
  void* addr;
  size_t size;
  const char* name;
};

[[noreturn]] inline void trap() { npusimKernelFault(1, "trap instruction"); }

}  // namespace npusim::kernel

#define NPUSIM_KERNEL_ENTRY(kname)                                                 \
  extern "C" __attribute__((visibility("default")))                                \
  const ::npusim::kernel::Entry npusim_kernel_entry_##kname =                      \
      ::npusim::kernel::makeEntry<&kname>(&kname, #kname);                         \
  static const ::npusim::kernel::RegisteredEntry npusim_kernel_registered_##kname( \
      &npusim_kernel_entry_##kname)

// A file-scope __gm__ variable (the source filter adds one per definition, `tag` a unique name).
#define NPUSIM_DEVICE_VAR(var, tag)                                     \
  static const ::npusim::kernel::RegisteredVar npusim_device_var_##tag( \
      const_cast<void*>(reinterpret_cast<const volatile void*>(&(var))), sizeof(var), #var)

#endif  // NPUSIM_KERNEL_LAUNCH_H_
