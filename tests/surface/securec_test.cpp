// securec.h (libc_sec): the bounded functions and their documented error codes (libboundscheck):
// bad destinations are refused untouched; other failures reset the destination.
#include "securec.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

TEST(Securec, ErrorCodesHaveTheirDocumentedValues) {
  EXPECT_EQ(EOK, 0);
  EXPECT_EQ(EINVAL_AND_RESET, 22 | 128);
  EXPECT_EQ(ERANGE_AND_RESET, 34 | 128);
  EXPECT_EQ(EOVERLAP_AND_RESET, 54 | 128);
}

TEST(Securec, MemcpyChecksSizesNullAndOverlap) {
  char dst[8];
  const char src[] = "abcdefghijkl";
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 8), EOK);
  EXPECT_EQ(std::memcmp(dst, src, 8), 0);
  EXPECT_EQ(memcpy_s(dst, 0, src, 1), ERANGE);      // untouched
  EXPECT_EQ(memcpy_s(nullptr, 8, src, 1), EINVAL);  // untouched
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 9), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst, 8), std::string(8, '\0'));  // reset to zeros
  std::memcpy(dst, "xxxxxxxx", 8);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, nullptr, 4), EINVAL_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  char buf[16] = "0123456789";
  EXPECT_EQ(memcpy_s(buf + 2, 10, buf, 5), EOVERLAP_AND_RESET);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 0), EOK);
}

TEST(Securec, MemmoveAllowsOverlapAndMemsetFillsAtMostDestMax) {
  char buf[16] = "0123456789";
  EXPECT_EQ(memmove_s(buf + 2, 10, buf, 5), EOK);
  EXPECT_EQ(std::string(buf, 7), "0101234");
  char d[4];
  EXPECT_EQ(memset_s(d, sizeof d, 'z', 4), EOK);
  EXPECT_EQ(std::string(d, 4), "zzzz");
  EXPECT_EQ(memset_s(d, sizeof d, 'y', 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(d, 4), "yyyy");  // the whole buffer, not beyond
  EXPECT_EQ(memset_s(nullptr, 4, 0, 1), EINVAL);
}

TEST(Securec, StrcpyAndStrncpy) {
  char d[6];
  EXPECT_EQ(strcpy_s(d, sizeof d, "hello"), EOK);
  EXPECT_STREQ(d, "hello");
  EXPECT_EQ(strcpy_s(d, sizeof d, "hello!"), ERANGE_AND_RESET);  // needs 7 bytes
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strcpy_s(d, sizeof d, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(strcpy_s(nullptr, 6, "a"), EINVAL);
  EXPECT_EQ(strncpy_s(d, sizeof d, "abcdefgh", 3), EOK);
  EXPECT_STREQ(d, "abc");
  EXPECT_EQ(strncpy_s(d, sizeof d, "abcdefgh", 6), ERANGE_AND_RESET);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strncpy_s(d, sizeof d, "ab", 100), EOK);  // count beyond the source is fine
  EXPECT_STREQ(d, "ab");
  char s[16] = "0123456789";
  EXPECT_EQ(strcpy_s(s + 1, 15, s), EOVERLAP_AND_RESET);
}

TEST(Securec, StrcatAndStrncat) {
  char d[8] = "ab";
  EXPECT_EQ(strcat_s(d, sizeof d, "cde"), EOK);
  EXPECT_STREQ(d, "abcde");
  EXPECT_EQ(strcat_s(d, sizeof d, "fgh"), ERANGE_AND_RESET);  // 8 chars + NUL do not fit
  EXPECT_STREQ(d, "");
  std::strcpy(d, "ab");
  EXPECT_EQ(strncat_s(d, sizeof d, "cdefghij", 2), EOK);
  EXPECT_STREQ(d, "abcd");
  char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(strcat_s(unterminated, sizeof unterminated, "x"), EINVAL_AND_RESET);
}

TEST(Securec, PrintfFamily) {
  char d[8];
  EXPECT_EQ(sprintf_s(d, sizeof d, "%d-%s", 42, "ab"), 5);
  EXPECT_STREQ(d, "42-ab");
  EXPECT_EQ(sprintf_s(d, sizeof d, "%s", "too long text"), -1);
  EXPECT_STREQ(d, "");
  // snprintf_s: a count below destMax truncates and reports -1, keeping the truncated text.
  EXPECT_EQ(snprintf_s(d, sizeof d, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(d, "abc");
  EXPECT_EQ(snprintf_s(d, sizeof d, 7, "%s", "abc"), 3);
  EXPECT_EQ(snprintf_s(d, sizeof d, sizeof d, "%s", "abcdefghij"), -1);  // count >= destMax: no truncation
  EXPECT_STREQ(d, "");
  EXPECT_EQ(snprintf_truncated_s(d, sizeof d, "%s", "abcdefghij"), 7);
  EXPECT_STREQ(d, "abcdefg");
}

TEST(Securec, StrtokKeepsItsContext) {
  char text[] = ",a,,bc;d";
  char* ctx = nullptr;
  std::string out;
  for (char* t = strtok_s(text, ",;", &ctx); t; t = strtok_s(nullptr, ",;", &ctx))
    out += std::string(t) + "|";
  EXPECT_EQ(out, "a|bc|d|");
}
