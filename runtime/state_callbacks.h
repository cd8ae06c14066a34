#pragma once
// aclrtRegStreamStateCallback / aclrtRegDeviceStateCallback (runtime/api_stream_props.cpp):
// the stream and device entry points report their lifecycle here.
#include "acl/acl.h"

namespace npusim::rt {
void streamStateChanged(aclrtStream stream, aclrtStreamState state);
void deviceStateChanged(int32_t device, aclrtDeviceState state);
}  // namespace npusim::rt
