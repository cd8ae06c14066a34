/*
 * npusim: dump (CANN's libascend_dump). Implemented in runtime/api_dump.cpp: dump paths come from
 * aclmdlSetDump's JSON configuration or aclopStartDumpArgs; data reaches the callback registered with
 * acldumpRegCallback, or files under the dump path.
 */
#ifndef NPUSIM_INCLUDE_ACL_ACL_DUMP_H_
#define NPUSIM_INCLUDE_ACL_ACL_DUMP_H_

#include <stdint.h>

#include "acl_base.h"

#define ACL_DUMP_API __attribute__((visibility("default")))
#define ACL_DUMP_WEAK __attribute__((weak))

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* absolute path of the dump file the chunk belongs to */
  uint32_t bufLen;                              /* bytes in dataBuf */
  uint32_t isLastChunk;                         /* 1 on the file's last chunk */
  int64_t offset;                               /* offset in the file; -1 appends */
  int32_t flag;                                 /* reserved */
  __extension__ uint8_t dataBuf[0]; /* the chunk's data follows the header */
} acldumpChunk;

ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t),
                                         int32_t flag);
ACL_DUMP_API void acldumpUnregCallback(void);

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
  AIC_ERR_BRIEF_DUMP = 1,
  AIC_ERR_NORM_DUMP = 2,
  AIC_ERR_DETAIL_DUMP = 3,
  DATA_DUMP = 4,
  OVERFLOW_DUMP = 5
} acldumpType;
ACL_FUNC_VISIBILITY const char* acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25
typedef enum acldumpTensorType {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT,
  ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;
typedef enum acldumpTensorAddressType {
  ACL_DUMP_ADDR_PTR = 0, /* one dereference gives the data address */
  ACL_DUMP_ADDR_PTR_PTR, /* two dereferences */
  ACL_DUMP_ADDR_RAW      /* the data address itself */
} acldumpTensorAddressType;
typedef enum acldumpTensorPlacement {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST,
  ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;
typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;
  int32_t format;
  int32_t dataType;
  int64_t* tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;
  uint32_t shapeNum;
  uint32_t originShapeNum;
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                                                    const acldumpTensorInfo* tensors,
                                                                    size_t tensorCount);
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACL_ACL_DUMP_H_ */
