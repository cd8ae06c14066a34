# The ASC compiler is npusim's wrapper around the host C++ compiler CMake has already tested.
set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
