/*
 * npusim: the bounded C string and memory functions CANN ships as libc_sec (securec.h), with their
 * documented error codes. Implemented in runtime/securec.cpp, exported by libascendcl and so by its
 * libc_sec.so name. Error handling, as documented for the library:
 *   EINVAL / ERANGE            bad destination (NULL, destMax 0 or above the limit): nothing written;
 *   *_AND_RESET                the destination was reset (memory functions clear destMax bytes,
 *                              string functions write an empty string) because the source was NULL
 *                              (EINVAL_AND_RESET), did not fit (ERANGE_AND_RESET) or overlapped the
 *                              destination (EOVERLAP_AND_RESET);
 *   printf family              returns the length written, or -1 with an empty destination (the _s
 *                              variants with a count keep the truncated text when count < destMax).
 */
#ifndef NPUSIM_INCLUDE_SECUREC_H_
#define NPUSIM_INCLUDE_SECUREC_H_

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifndef SECUREC_DEFINED_ERRNO_TYPE
#define SECUREC_DEFINED_ERRNO_TYPE
#ifndef errno_t
typedef int errno_t;
#endif
#endif

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150 /* 22 | 128 */
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162 /* 34 | 128 */
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182 /* 54 | 128 */
#endif

/* Largest destMax accepted (the library's default limits). */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#ifdef __cplusplus
extern "C" {
#endif

const char* GetHwSecureCVersion(unsigned short* verNumber);

errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
char* strtok_s(char* strToken, const char* strDelimit, char** context);

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) __attribute__((format(printf, 3, 4)));
int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
    __attribute__((format(printf, 3, 0)));
int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList)
    __attribute__((format(printf, 4, 0)));
/* Truncate instead of failing; return the length written (destMax - 1 when truncated). */
int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList)
    __attribute__((format(printf, 3, 0)));

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_SECUREC_H_ */
