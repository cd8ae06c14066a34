// libsystemc references sc_main; a user's ACL program has its own main, so the library
// supplies this one. It is never called.
extern "C" int sc_main(int, char**) { return 0; }
