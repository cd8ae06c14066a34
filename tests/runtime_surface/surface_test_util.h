#pragma once
// Helpers for the runtime-surface tests (each TEST runs in its own process).
#include "npusim/npusim.h"
#include "tests/runtime/sim_test_util.h"
