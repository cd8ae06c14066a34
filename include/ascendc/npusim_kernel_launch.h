#ifndef NPUSIM_KERNEL_LAUNCH_H_
#define NPUSIM_KERNEL_LAUNCH_H_
// What the source filter (ascendc_filter.py) turns Ascend C's launch syntax into:
//   kernel<<<blockDim, l2ctrl, stream>>>(args...)
//     -> ::npusim::kernel::Launcher(kernel, "kernel", blockDim, l2ctrl, stream)(args...)
// and how a kernel binary (ascendc_fatbin_library) exposes its kernels to aclrtBinaryGetFunction
// and aclrtLaunchKernel*: an exported table entry per kernel that unpacks a packed argument
// buffer into the kernel's parameters.
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

template <class... P>
struct Bound {
  void (*fn)(P...);
  std::tuple<std::decay_t<P>...> args;
  static void run(void* self) {
    auto* b = static_cast<Bound*>(self);
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

// One exported entry per kernel of a binary (symbol npusim_kernel_entry_<name>).
struct Entry {
  const char* name;
  size_t argsSize;  // bytes of packed arguments the kernel takes
  // Binds a copy of packed arguments for npusimKernelLaunch.
  void* (*bind)(const void* args);
  npusimKernelBody run;
  npusimKernelFree release;
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
  return e;
}

[[noreturn]] inline void trap() { npusimKernelFault(1, "trap instruction"); }

}  // namespace npusim::kernel

#define NPUSIM_KERNEL_ENTRY(kname)                            \
  extern "C" __attribute__((visibility("default")))           \
  const ::npusim::kernel::Entry npusim_kernel_entry_##kname = \
      ::npusim::kernel::makeEntry<&kname>(&kname, #kname)

#endif  // NPUSIM_KERNEL_LAUNCH_H_
