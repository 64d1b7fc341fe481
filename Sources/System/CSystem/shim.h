#ifndef ALBUM_CSYSTEM_SHIM_H
#define ALBUM_CSYSTEM_SHIM_H
/* glibc headers that Swift's Glibc module leaves out. */
#include <sys/xattr.h>
#include <sys/signalfd.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>

/* renameat2(2) is in glibc since 2.28, declared in <stdio.h> only under _GNU_SOURCE, which Swift's Glibc module
   does not define; the declaration is glibc's own (stdio.h). RENAME_NOREPLACE is <linux/fs.h>'s value. */
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/* Renames `from` to `to` unless `to` exists (then -1 with errno EEXIST), atomically: the no-replace rename. */
static inline int album_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
}

/* Opens a folder for the *at calls only (O_PATH, which <fcntl.h> names only under _GNU_SOURCE: glibc's __O_PATH). */
static inline int album_open_folder(const char *path) {
    return open(path, __O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* getxattr(2) of `name` in the open folder `folder` (getxattrat(2), Linux 6.13), following a link as getxattr does:
   the kernel walks that one name, not the folder's whole path again. glibc 2.36 has neither a wrapper nor the
   number; 464 is its number on every architecture (the kernel's common table). -1 with errno ENOSYS on an older
   kernel. The arguments' layout is the kernel's `struct xattr_args` (include/uapi/linux/xattr.h). */
struct album_xattr_args { uint64_t value; uint32_t size; uint32_t flags; };
static inline long album_getxattrat(int folder, const char *name, const char *attribute, void *value, size_t size) {
    struct album_xattr_args args = { (uint64_t)(uintptr_t)value, (uint32_t)size, 0 };
    return syscall(464 /* SYS_getxattrat */, folder, name, 0, attribute, &args, sizeof args);
}
#endif
