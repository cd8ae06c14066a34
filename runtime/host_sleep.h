#pragma once
// The C library's own nanosleep, for the runtime's internal waits (a signal handler must not
// take the runtime lock that the interposed sleeps of runtime/host_sleep.cpp take).
#include <time.h>

namespace npusim::rt {

int realNanosleep(const timespec* req, timespec* rem);

}  // namespace npusim::rt
