#pragma once
// The part of CANN's profiling library interface (libprofapi, `profiling/aprof_pub.h`) that host
// programs call directly, as npusim implements it (docs/cann-surface.md, "profiling"). The
// signatures are those of the CANN header; the report and callback functions that only CANN's
// own components use are not provided.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSVP_PROF_API __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

// Binds model `geModelIdx` to a device: its model subscription (aclprofModelSubscribe) then
// receives only that device's operators. 0 on success, -1 for a device that does not exist.
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);
// Removes that binding; -1 when the model is not bound to that device.
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

// A 64-bit id for `length` bytes of text (the same text gives the same id), and the text of an id
// made before (NULL for an unknown id; the string lives until the process ends).
MSVP_PROF_API uint64_t MsprofGetHashId(const char* hashInfo, size_t length);
MSVP_PROF_API uint64_t MsprofStr2Id(const char* hashInfo, size_t length);
MSVP_PROF_API char* MsprofId2Str(const uint64_t Id);

// The calling thread's simulated host time, in ns.
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

// Whether operators of type `op` (type 0: an operator type) are profiled: while aclprofStart runs.
MSVP_PROF_API bool MsprofCheckOpSwitch(uint32_t type, const char* op, size_t len);

#ifdef __cplusplus
}
#endif
