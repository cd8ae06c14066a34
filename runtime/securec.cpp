// The bounded C functions of securec.h (CANN's libc_sec). Written from the library's documented
// behaviour: a bad destination is refused untouched (EINVAL, ERANGE); otherwise a failed call resets
// the destination before returning a *_AND_RESET code, so a caller never reads half-written data.
#include "securec.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

bool badMem(const void* dest, size_t destMax) {
  return !dest || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN;
}
bool badStr(const char* dest, size_t destMax) {
  return !dest || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN;
}
// The size is checked first: a zero or huge destMax is ERANGE even with a NULL destination.
errno_t badCode(size_t destMax, size_t limit) { return destMax == 0 || destMax > limit ? ERANGE : EINVAL; }

bool overlap(const void* a, size_t na, const void* b, size_t nb) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + nb && y < x + na;
}

// Length of s, but at most max (strnlen without relying on POSIX headers).
size_t boundedLen(const char* s, size_t max) {
  const void* end = std::memchr(s, '\0', max);
  return end ? static_cast<size_t>(static_cast<const char*>(end) - s) : max;
}

// Appends n characters of src to dest, which holds a string of length used; common to the four
// string copy/concatenation functions once the inputs are known to be valid.
errno_t put(char* dest, size_t destMax, size_t used, const char* src, size_t n) {
  if (used + n >= destMax) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (overlap(dest, used + n + 1, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + used, src, n);
  dest[used + n] = '\0';
  return EOK;
}

}  // namespace

extern "C" {

const char* GetHwSecureCVersion(unsigned short* verNumber) {
  if (verNumber) *verNumber = 0x500 | 0xa;  // the interface version the functions follow (5.10)
  return "npusim securec (bounded C functions, libboundscheck 5.10 interface)";
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (badMem(dest, destMax)) return badCode(destMax, SECUREC_MEM_MAX_LEN);
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

static errno_t copyMem(void* dest, size_t destMax, const void* src, size_t count, bool allowOverlap) {
  if (badMem(dest, destMax)) return badCode(destMax, SECUREC_MEM_MAX_LEN);
  if (!src) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (!allowOverlap && overlap(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memmove(dest, src, count);
  return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  return copyMem(dest, destMax, src, count, false);
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return copyMem(dest, destMax, src, count, true);
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  if (badStr(strDest, destMax)) return badCode(destMax, SECUREC_STRING_MAX_LEN);
  if (!strSrc) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  if (strDest == strSrc) return EOK;
  return put(strDest, destMax, 0, strSrc, boundedLen(strSrc, destMax));
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (badStr(strDest, destMax)) return badCode(destMax, SECUREC_STRING_MAX_LEN);
  if (!strSrc) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  if (count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  size_t n = boundedLen(strSrc, count < destMax ? count : destMax);
  if (strDest == strSrc) {
    strDest[n < destMax ? n : destMax - 1] = '\0';
    return n < destMax ? EOK : ERANGE_AND_RESET;
  }
  return put(strDest, destMax, 0, strSrc, n);
}

static errno_t concat(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (badStr(strDest, destMax)) return badCode(destMax, SECUREC_STRING_MAX_LEN);
  if (!strSrc) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  size_t used = boundedLen(strDest, destMax);
  if (used == destMax) {  // the destination holds no terminated string
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  return put(strDest, destMax, used, strSrc, boundedLen(strSrc, count < destMax ? count : destMax));
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return concat(strDest, destMax, strSrc, SIZE_MAX);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (count > SECUREC_STRING_MAX_LEN && !badStr(strDest, destMax)) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return concat(strDest, destMax, strSrc, count);
}

char* strtok_s(char* strToken, const char* strDelimit, char** context) {
  if (!context || !strDelimit) return nullptr;
  char* s = strToken ? strToken : *context;
  if (!s) return nullptr;
  s += std::strspn(s, strDelimit);
  if (!*s) {
    *context = s;
    return nullptr;
  }
  char* end = s + std::strcspn(s, strDelimit);
  if (*end) *end++ = '\0';
  *context = end;
  return s;
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (!format || badStr(strDest, destMax) || count > SECUREC_STRING_MAX_LEN) {
    if (strDest && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  bool truncate = count < destMax;  // a count below destMax asks for truncation
  size_t room = truncate ? count + 1 : destMax;
  int n = std::vsnprintf(strDest, room, format, argList);
  if (n < 0 || (!truncate && static_cast<size_t>(n) >= destMax)) {
    strDest[0] = '\0';
    return -1;
  }
  return static_cast<size_t>(n) > count ? -1 : n;  // truncated: the text stays, the result says so
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_s(strDest, destMax, count, format, ap);
  va_end(ap);
  return n;
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  return vsnprintf_s(strDest, destMax, SECUREC_STRING_MAX_LEN, format, argList);
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsprintf_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (!format || badStr(strDest, destMax)) {
    if (strDest && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return static_cast<size_t>(n) >= destMax ? static_cast<int>(destMax - 1) : n;
}

int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_truncated_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

}  // extern "C"
