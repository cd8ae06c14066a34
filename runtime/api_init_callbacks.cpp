// ACL entry points: aclInitCallbackRegister / aclFinalizeCallbackRegister and their unregister
// calls. A component (model executor, operator executor, data channels, ...) registers a
// function that aclInit calls with the configuration text and aclFinalize calls before the
// devices are released; one registration per (type, function), the latest user data kept.
#include <algorithm>
#include <vector>

#include "runtime/init_callbacks.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

template <typename F>
struct Registration {
  aclRegisterCallbackType type;
  F func;
  void* userData;
};

template <typename F>
std::vector<Registration<F>>& registry() {
  static auto* r = new std::vector<Registration<F>>();  // read until the process ends
  return *r;
}

bool knownType(aclRegisterCallbackType t) {
  return (t >= ACL_REG_TYPE_ACL_MODEL && t <= ACL_REG_TYPE_ACL_RETR) || t == ACL_REG_TYPE_OTHER;
}

template <typename F>
aclError add(const char* name, aclRegisterCallbackType type, F func, void* userData) {
  ApiCall api(name);
  // Registrations are the process's: they are made before an aclInit too, after an aclFinalize.
  if (!api.ok() && !api.rt.ended()) return api.notReady();
  if (!func) return api.fail(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL");
  if (!knownType(type))
    return api.fail(ACL_ERROR_INVALID_PARAM, "type {} is not an aclRegisterCallbackType", type);
  auto& r = registry<F>();
  auto it = std::find_if(r.begin(), r.end(), [&](const auto& e) { return e.type == type && e.func == func; });
  if (it != r.end())
    it->userData = userData;
  else
    r.push_back({type, func, userData});
  return api.done();
}

template <typename F>
aclError remove(const char* name, aclRegisterCallbackType type, F func) {
  ApiCall api(name);
  if (!api.ok() && !api.rt.ended()) return api.notReady();
  if (!func) return api.fail(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL");
  auto& r = registry<F>();
  auto it = std::find_if(r.begin(), r.end(), [&](const auto& e) { return e.type == type && e.func == func; });
  if (it == r.end())
    return api.fail(ACL_ERROR_INVALID_PARAM, "this callback is not registered for type {}", type);
  r.erase(it);
  return api.done();
}

}  // namespace

namespace npusim::rt {

aclError runInitCallbacks(const std::string& config) {
  for (const auto& e : registry<aclInitCallbackFunc>())
    if (aclError err = e.func(config.c_str(), config.size(), e.userData)) return err;
  return ACL_SUCCESS;
}

aclError runFinalizeCallbacks() {
  auto& r = registry<aclFinalizeCallbackFunc>();
  for (auto it = r.rbegin(); it != r.rend(); ++it)
    if (aclError err = it->func(it->userData)) return err;
  return ACL_SUCCESS;
}

}  // namespace npusim::rt

extern "C" {

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void* userData) {
  return add("aclInitCallbackRegister", type, cbFunc, userData);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  return remove("aclInitCallbackUnRegister", type, cbFunc);
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void* userData) {
  return add("aclFinalizeCallbackRegister", type, cbFunc, userData);
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
  return remove("aclFinalizeCallbackUnRegister", type, cbFunc);
}

}  // extern "C"
