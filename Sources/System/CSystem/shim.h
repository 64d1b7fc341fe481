#ifndef ALBUM_CSYSTEM_SHIM_H
#define ALBUM_CSYSTEM_SHIM_H
/* glibc headers that Swift's Glibc module leaves out. */
#include <sys/xattr.h>
#include <sys/signalfd.h>
#endif
