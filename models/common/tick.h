#pragma once
// Simulated time (picoseconds) is shared with traces/, so it lives in the public headers.
#include "npusim/tick.h"
