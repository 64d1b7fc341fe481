#ifndef ALBUM_CSYSTEM_SHIM_H
#define ALBUM_CSYSTEM_SHIM_H
/* glibc headers that Swift's Glibc module leaves out. */
#include <sys/xattr.h>
#include <sys/signalfd.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>

/* renameat2(2) is in glibc since 2.28, declared in <stdio.h> only under _GNU_SOURCE, which Swift's Glibc module
   does not define; the declaration is glibc's own (stdio.h). RENAME_NOREPLACE is <linux/fs.h>'s value. */
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/* Renames `from` to `to` unless `to` exists (then -1 with errno EEXIST), atomically: the no-replace rename. */
static inline int album_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
}
#endif
