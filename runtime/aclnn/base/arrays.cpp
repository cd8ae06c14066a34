#include "runtime/aclnn/base/arrays.h"

#include <new>

#include "runtime/aclnn/base/live_handles.h"
#include "runtime/aclnn/base/status.h"

namespace {

template <typename A, typename T>
A* make(const T* value, uint64_t size) {
  if (value == nullptr && size > 0) return nullptr;
  auto* a = new (std::nothrow) A;
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  if (a != nullptr) npusim::aclnn::liveArrays().add(a);
  return a;
}

template <typename L, typename T>
L* makeList(const T* const* value, uint64_t size) {
  if (value == nullptr && size > 0) return nullptr;
  auto* l = new (std::nothrow) L;
  if (l != nullptr && size > 0) l->items.assign(value, value + size);
  return l;
}

template <typename A>
aclnnStatus destroyArray(const char* api, const char* what, const A* a) {
  if (a == nullptr) return OK;
  if (!npusim::aclnn::liveArrays().remove(a)) return npusim::aclnn::refuseDeadHandle(api, what, a);
  delete a;
  return OK;
}

template <typename A>
aclnnStatus sizeOf(const A* a, uint64_t* size) {
  if (a == nullptr || size == nullptr) return npusim::aclnn::kErrParamNullptr;
  *size = a->values.size();
  return OK;
}

}  // namespace

extern "C" {

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) { return make<aclIntArray>(value, size); }
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return make<aclFloatArray>(value, size);
}
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) { return make<aclBoolArray>(value, size); }
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  aclTensorList* l = makeList<aclTensorList>(value, size);
  if (l != nullptr) npusim::aclnn::liveTensorLists().add(l);
  return l;
}
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  return makeList<aclScalarList>(value, size);
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return destroyArray("aclDestroyIntArray", "aclIntArray", array);
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return destroyArray("aclDestroyFloatArray", "aclFloatArray", array);
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return destroyArray("aclDestroyBoolArray", "aclBoolArray", array);
}
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  if (array == nullptr) return OK;
  if (!npusim::aclnn::liveTensorLists().remove(array))
    return npusim::aclnn::refuseDeadHandle("aclDestroyTensorList", "aclTensorList", array);
  for (const aclTensor* t : array->items) aclDestroyTensor(t);
  delete array;
  return OK;
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  if (array == nullptr) return OK;
  for (const aclScalar* s : array->items) aclDestroyScalar(s);
  delete array;
  return OK;
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) { return sizeOf(array, size); }
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) { return sizeOf(array, size); }
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) { return sizeOf(array, size); }

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  if (tensorList == nullptr || size == nullptr) return npusim::aclnn::kErrParamNullptr;
  *size = tensorList->items.size();
  return OK;
}

aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  if (scalarList == nullptr || size == nullptr) return npusim::aclnn::kErrParamNullptr;
  *size = scalarList->items.size();
  return OK;
}

}  // extern "C"
