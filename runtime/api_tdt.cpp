// Data channels (libacl_tdt_channel): data items, datasets and channels between host threads of one
// process. A channel is a FIFO of at most `capacity` datasets; a send deep-copies the dataset's items
// (the sender may reuse its buffers at once) and a receive appends the copies to the caller's dataset,
// which then owns them (acltdtDestroyDataItem frees them). A full channel makes a send wait, an empty
// one a receive, for at most the timeout (ms; -1 for ever, 0 not at all): the result is
// ACL_ERROR_RT_QUEUE_FULL / ACL_ERROR_RT_QUEUE_EMPTY when it runs out. A stopped channel refuses both.
#include <cstring>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "runtime/errors.h"
#include "runtime/host_block.h"
#include "runtime/runtime.h"

struct acltdtDataItem {
  acltdtTensorType type = ACL_TENSOR_DATA_TENSOR;
  aclDataType dataType = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  void* data = nullptr;  // the creator's buffer, or `owned` for received items
  size_t size = 0;
  std::vector<unsigned char> owned;
  size_t sliceNum = 0, sliceId = 0;
};

struct acltdtDataset {
  std::vector<acltdtDataItem*> items;  // not owned: the program destroys its items
  std::string name;
};

struct acltdtChannelHandle {
  uint32_t device = 0;
  std::string name;
  size_t capacity = 0;
  bool stopped = false;
  struct Sent {
    std::vector<std::unique_ptr<acltdtDataItem>> items;
    npusim::Tick at;  // the sender's clock
  };
  std::deque<Sent> fifo;
};

namespace {

using npusim::rt::ApiCall;
using npusim::rt::setRecentError;

// Channels are created and destroyed under the runtime lock (every entry point is an ApiCall).
std::set<const acltdtChannelHandle*>& channels() {
  static auto* s = new std::set<const acltdtChannelHandle*>;
  return *s;
}

// A channel feeds a device of one simulation: aclFinalize destroys the channels still open.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 for (const acltdtChannelHandle* h : channels()) delete h;
                                                 channels().clear();
                                               }),
                                               true);

// Depth of a channel made by acltdtCreateChannel (no capacity given): a stated choice, deep enough
// for the producer/consumer pipelines the samples build.
constexpr size_t kDefaultCapacity = 128;

acltdtChannelHandle* channelOf(ApiCall& api, const acltdtChannelHandle* h) {
  if (!channels().count(h)) {
    api.fail(ACL_ERROR_INVALID_PARAM, "not a channel from acltdtCreateChannel (or already destroyed)");
    return nullptr;
  }
  return const_cast<acltdtChannelHandle*>(h);
}

acltdtChannelHandle* create(const char* api, uint32_t deviceId, const char* name, size_t capacity) {
  ApiCall call(api);
  if (!call.ok()) return nullptr;
  if (!name || !*name) {
    call.fail(ACL_ERROR_INVALID_PARAM, "name is NULL or empty");
    return nullptr;
  }
  if (deviceId >= static_cast<uint32_t>(call.rt.deviceCount())) {
    call.fail(ACL_ERROR_INVALID_DEVICE, "device {} does not exist", deviceId);
    return nullptr;
  }
  if (capacity == 0) {
    call.fail(ACL_ERROR_INVALID_PARAM, "capacity must be at least 1");
    return nullptr;
  }
  auto* ch = new acltdtChannelHandle;
  ch->device = deviceId;
  ch->name = name;
  ch->capacity = capacity;
  channels().insert(ch);
  return ch;
}

}  // namespace

extern "C" {

// ---- items and datasets (pure host objects, no runtime state) ----------------------------------------

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
  return dataItem ? dataItem->type : ACL_TENSOR_DATA_UNDEFINED;
}
aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
  return dataItem ? dataItem->dataType : ACL_DT_UNDEFINED;
}
void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
  return dataItem ? dataItem->data : nullptr;
}
size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) { return dataItem ? dataItem->size : 0; }
size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
  return dataItem ? dataItem->dims.size() : 0;
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId) {
  if (!dataItem || !sliceNum || !sliceId)
    return setRecentError("acltdtGetSliceInfoFromItem", "NULL argument");
  *sliceNum = dataItem->sliceNum;
  *sliceId = dataItem->sliceId;
  return ACL_SUCCESS;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
  if (!dataItem || (!dims && dimNum)) return setRecentError("acltdtGetDimsFromItem", "NULL argument");
  if (dimNum < dataItem->dims.size())
    return setRecentError("acltdtGetDimsFromItem", "dimNum is smaller than the item's dimension count");
  std::copy(dataItem->dims.begin(), dataItem->dims.end(), dims);
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data, size_t size) {
  if ((dimNum && !dims) || (size && !data) || tdtType < ACL_TENSOR_DATA_TENSOR ||
      tdtType > ACL_TENSOR_DATA_END_TENSOR) {
    setRecentError("acltdtCreateDataItem", "dims/data NULL with a non-zero count, or an unknown tensor type");
    return nullptr;
  }
  auto* item = new acltdtDataItem;
  item->type = tdtType;
  item->dataType = dataType;
  item->dims.assign(dims, dims + dimNum);
  item->data = data;
  item->size = size;
  return item;
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
  if (!dataItem) return setRecentError("acltdtDestroyDataItem", "dataItem is NULL");
  delete dataItem;
  return ACL_SUCCESS;
}

acltdtDataset* acltdtCreateDataset() { return new acltdtDataset; }

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
  if (!dataset) return setRecentError("acltdtDestroyDataset", "dataset is NULL");
  delete dataset;
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
  if (!dataset || index >= dataset->items.size()) {
    setRecentError("acltdtGetDataItem", "dataset is NULL or index is out of range");
    return nullptr;
  }
  return dataset->items[index];
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
  if (!dataset || !dataItem) return setRecentError("acltdtAddDataItem", "NULL argument");
  dataset->items.push_back(dataItem);
  return ACL_SUCCESS;
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) { return dataset ? dataset->items.size() : 0; }
const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
  return dataset && !dataset->name.empty() ? dataset->name.c_str() : nullptr;
}

// ---- channels ----------------------------------------------------------------------------------

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
  return create("acltdtCreateChannel", deviceId, name, kDefaultCapacity);
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity) {
  return create("acltdtCreateChannelWithCapacity", deviceId, name, capacity);
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
  ApiCall api("acltdtStopChannel");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  ch->stopped = true;
  api.rt.cv.notify_all();  // waiting senders and receivers give up
  return api.done();
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
  ApiCall api("acltdtDestroyChannel");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  channels().erase(ch);
  delete ch;
  return api.done();
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
  ApiCall api("acltdtCleanChannel");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  ch->fifo.clear();
  return api.done();
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout) {
  ApiCall api("acltdtSendTensor");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  if (!dataset || timeout < -1) return api.fail(ACL_ERROR_INVALID_PARAM, "dataset is NULL or timeout < -1");
  if (aclError e = npusim::rt::blockUntil(
          api, timeout,
          [&] { return !channels().count(ch) || ch->stopped || ch->fifo.size() < ch->capacity; },
          ACL_ERROR_RT_QUEUE_FULL))
    return api.fail(e, "channel '{}' stayed full ({} datasets) for {} ms", ch->name, ch->capacity, timeout);
  if (!channels().count(ch) || ch->stopped)
    return api.fail(ACL_ERROR_FAILURE, "the channel was stopped or destroyed");
  acltdtChannelHandle::Sent sent{{}, api.th->clock};
  size_t bytes = 0;
  for (const acltdtDataItem* item : dataset->items) {
    auto copy = std::make_unique<acltdtDataItem>(*item);
    copy->owned.assign(static_cast<const unsigned char*>(item->data),
                       static_cast<const unsigned char*>(item->data) + item->size);
    copy->data = copy->owned.empty() ? nullptr : copy->owned.data();
    bytes += item->size;
    sent.items.push_back(std::move(copy));
  }
  ch->fifo.push_back(std::move(sent));
  api.args.add("channel", ch->name).add("bytes", static_cast<uint64_t>(bytes));
  return api.done();
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout) {
  ApiCall api("acltdtReceiveTensor");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  if (!dataset || timeout < -1) return api.fail(ACL_ERROR_INVALID_PARAM, "dataset is NULL or timeout < -1");
  if (aclError e = npusim::rt::blockUntil(
          api, timeout, [&] { return !channels().count(ch) || ch->stopped || !ch->fifo.empty(); },
          ACL_ERROR_RT_QUEUE_EMPTY))
    return api.fail(e, "channel '{}' stayed empty for {} ms", ch->name, timeout);
  if (!channels().count(ch) || ch->stopped)
    return api.fail(ACL_ERROR_FAILURE, "the channel was stopped or destroyed");
  auto& sent = ch->fifo.front();
  api.th->clock = std::max(api.th->clock, sent.at);  // data cannot arrive before it was sent
  for (auto& item : sent.items) dataset->items.push_back(item.release());
  ch->fifo.pop_front();
  api.args.add("channel", ch->name);
  return api.done();
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
  ApiCall api("acltdtQueryChannelSize");
  if (!api.ok()) return api.notReady();
  acltdtChannelHandle* ch = channelOf(api, handle);
  if (!ch) return ACL_ERROR_INVALID_PARAM;
  if (!size) return api.fail(ACL_ERROR_INVALID_PARAM, "size is NULL");
  *size = ch->fifo.size();
  return api.done();
}

}  // extern "C"
