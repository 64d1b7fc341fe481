#!/usr/bin/python3
"""powerfs: a FUSE file system that forgets, on command, everything not made durable: a power cut for tests.

    /usr/bin/python3 tools/powercut/powerfs.py STATE MOUNTPOINT [--no-xattr]

Every file and folder lives in this process's memory (the live state, what programs see). Beside it, powerfs keeps
what a power cut would leave (the durable state), and moves things there only when a program asks for durability:

- a file's data, size, mode and extended attributes become durable when the file is fsynced (fsync or fdatasync:
  both are taken as fsync here);
- a folder's entries (names, and which file each names) become durable when the folder itself is fsynced: a file
  created, renamed, linked or unlinked in a folder is not durably there (or gone) until then. This is the POSIX
  minimum, stricter than ext4 in its default data=ordered mode, where an fsynced new file's entry usually survives too;
- a durable entry that names a file whose data was never synced gives a file of 0 bytes (ext4's delayed allocation
  after a power cut: the name survived, the data did not); a folder never synced itself is empty;
- `sync(2)`/`syncfs(2)` are not forwarded to FUSE file systems by the kernel, so only fsync makes anything durable.

SIGUSR1 is the power cut: from that moment every request hangs (nothing more reaches the live or durable state),
and the durable state, as a power cut would leave it, is written to STATE (pickled), then `STATE.cut` appears. The
test then kills the programs and this process, unmounts, and mounts STATE again with a new powerfs. A missing STATE
starts empty. --no-xattr refuses extended attributes (ENOTSUP), as many FUSE layers and NAS shares do.
"""

import errno
import os
import pickle
import signal
import stat
import sys
import time

import pyfuse3
import trio

ROOT = pyfuse3.ROOT_INODE
RENAME_NOREPLACE = 1


class Node:
    """One inode of the live state."""

    def __init__(self, kind, mode, data=b"", entries=None, xattrs=None, target=b""):
        self.kind = kind  # "file", "dir", "link"
        self.mode = mode
        self.data = bytearray(data)
        self.entries = dict(entries or {})  # name (bytes) -> inode, for folders
        self.xattrs = dict(xattrs or {})
        self.target = target
        self.mtime = time.time_ns()
        self.nlink = 1


class PowerFS(pyfuse3.Operations):
    enable_writeback_cache = False

    def __init__(self, state, xattrs):
        super().__init__()
        self.state_path = state
        self.xattrs = xattrs
        self.cut = False
        self.handles = {}
        self.next_handle = 1
        self.live = {}
        self.durable = {}  # inode -> the snapshot fsync last took: ("file", mode, data, xattrs) / ("dir", mode, entries) / ("link", target)
        self.next_inode = ROOT + 1
        if os.path.exists(state):
            with open(state, "rb") as f:
                saved = pickle.load(f)
            self.next_inode = saved["next"]
            for inode, snap in saved["nodes"].items():
                self.live[inode] = self.node_of(snap)
                self.durable[inode] = snap
            self.recount()
        else:
            self.live[ROOT] = Node("dir", stat.S_IFDIR | 0o755)
            self.durable[ROOT] = ("dir", self.live[ROOT].mode, {})

    @staticmethod
    def node_of(snap):
        if snap[0] == "file":
            return Node("file", snap[1], data=snap[2], xattrs=snap[3])
        if snap[0] == "dir":
            return Node("dir", snap[1], entries=snap[2])
        return Node("link", stat.S_IFLNK | 0o777, target=snap[1])

    def recount(self):
        for node in self.live.values():
            if node.kind != "dir":
                node.nlink = 0
        for node in self.live.values():
            for child in node.entries.values():
                if self.live[child].kind != "dir":
                    self.live[child].nlink += 1

    # The power cut.

    def durable_view(self):
        """What a power cut leaves: the durable entries from the root down, each inode's durable snapshot or empty."""
        nodes = {}
        pending = [ROOT]
        while pending:
            inode = pending.pop()
            if inode in nodes:
                continue
            snap = self.durable.get(inode)
            if snap is None:
                node = self.live[inode]
                snap = ("dir", node.mode, {}) if node.kind == "dir" else ("link", node.target) if node.kind == "link" else ("file", node.mode, b"", {})
            nodes[inode] = snap
            if snap[0] == "dir":
                pending.extend(snap[2].values())
        return nodes

    def power_cut(self):
        self.cut = True
        view = {"next": self.next_inode, "nodes": self.durable_view()}
        with open(self.state_path + ".tmp", "wb") as f:
            pickle.dump(view, f)
        os.replace(self.state_path + ".tmp", self.state_path)
        with open(self.state_path + ".cut", "w") as f:
            f.write("cut\n")

    async def gate(self):
        if self.cut:
            await trio.sleep_forever()

    # Helpers.

    def node(self, inode):
        try:
            return self.live[inode]
        except KeyError:
            raise pyfuse3.FUSEError(errno.ENOENT)

    def attributes(self, inode):
        node = self.node(inode)
        entry = pyfuse3.EntryAttributes()
        entry.st_ino = inode
        entry.generation = 0
        entry.entry_timeout = 0
        entry.attr_timeout = 0
        entry.st_mode = node.mode
        entry.st_nlink = 2 if node.kind == "dir" else max(node.nlink, 1)
        entry.st_uid = os.getuid()
        entry.st_gid = os.getgid()
        entry.st_rdev = 0
        size = len(node.data) if node.kind == "file" else len(node.target) if node.kind == "link" else 4096
        entry.st_size = size
        entry.st_blksize = 4096
        entry.st_blocks = (size + 511) // 512
        entry.st_atime_ns = node.mtime
        entry.st_mtime_ns = node.mtime
        entry.st_ctime_ns = node.mtime
        return entry

    def folder(self, inode):
        node = self.node(inode)
        if node.kind != "dir":
            raise pyfuse3.FUSEError(errno.ENOTDIR)
        return node

    def add(self, parent, name, node):
        folder = self.folder(parent)
        if name in folder.entries:
            raise pyfuse3.FUSEError(errno.EEXIST)
        inode = self.next_inode
        self.next_inode += 1
        self.live[inode] = node
        folder.entries[name] = inode
        folder.mtime = time.time_ns()
        return inode

    # Lookups and attributes.

    async def lookup(self, parent_inode, name, ctx=None):
        await self.gate()
        folder = self.folder(parent_inode)
        if name == b".":
            return self.attributes(parent_inode)
        if name == b"..":
            for inode, node in self.live.items():
                if parent_inode in node.entries.values():
                    return self.attributes(inode)
            return self.attributes(ROOT)
        if name not in folder.entries:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return self.attributes(folder.entries[name])

    async def getattr(self, inode, ctx=None):
        await self.gate()
        return self.attributes(inode)

    async def setattr(self, inode, attr, fields, fh, ctx):
        await self.gate()
        node = self.node(inode)
        if fields.update_size:
            size = attr.st_size
            if size < len(node.data):
                del node.data[size:]
            else:
                node.data.extend(b"\0" * (size - len(node.data)))
        if fields.update_mode:
            node.mode = (node.mode & ~0o7777) | (attr.st_mode & 0o7777)
        if fields.update_mtime:
            node.mtime = attr.st_mtime_ns
        return self.attributes(inode)

    async def access(self, inode, mode, ctx):
        await self.gate()
        self.node(inode)
        return True

    async def statfs(self, ctx):
        await self.gate()
        result = pyfuse3.StatvfsData()
        result.f_bsize = 4096
        result.f_frsize = 4096
        result.f_blocks = result.f_bfree = result.f_bavail = 1 << 24
        result.f_files = result.f_ffree = result.f_favail = 1 << 20
        result.f_namemax = 255
        return result

    # Folders.

    async def opendir(self, inode, ctx):
        await self.gate()
        self.folder(inode)
        return inode

    async def readdir(self, fh, start_id, token):
        await self.gate()
        entries = sorted(self.folder(fh).entries.items())
        for index, (name, inode) in enumerate(entries):
            if index < start_id:
                continue
            if not pyfuse3.readdir_reply(token, name, self.attributes(inode), index + 1):
                break

    async def releasedir(self, fh):
        pass

    async def fsyncdir(self, fh, datasync):
        await self.gate()
        folder = self.folder(fh)
        self.durable[fh] = ("dir", folder.mode, dict(folder.entries))

    async def mkdir(self, parent_inode, name, mode, ctx):
        await self.gate()
        inode = self.add(parent_inode, name, Node("dir", stat.S_IFDIR | (mode & 0o7777)))
        return self.attributes(inode)

    async def rmdir(self, parent_inode, name, ctx):
        await self.gate()
        folder = self.folder(parent_inode)
        if name not in folder.entries:
            raise pyfuse3.FUSEError(errno.ENOENT)
        child = self.node(folder.entries[name])
        if child.kind != "dir":
            raise pyfuse3.FUSEError(errno.ENOTDIR)
        if child.entries:
            raise pyfuse3.FUSEError(errno.ENOTEMPTY)
        del folder.entries[name]

    async def unlink(self, parent_inode, name, ctx):
        await self.gate()
        folder = self.folder(parent_inode)
        if name not in folder.entries:
            raise pyfuse3.FUSEError(errno.ENOENT)
        child = self.node(folder.entries[name])
        if child.kind == "dir":
            raise pyfuse3.FUSEError(errno.EISDIR)
        child.nlink -= 1
        del folder.entries[name]

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
        await self.gate()
        if flags & ~RENAME_NOREPLACE:
            raise pyfuse3.FUSEError(errno.EINVAL)
        old, new = self.folder(parent_inode_old), self.folder(parent_inode_new)
        if name_old not in old.entries:
            raise pyfuse3.FUSEError(errno.ENOENT)
        inode = old.entries[name_old]
        if name_new in new.entries:
            if flags & RENAME_NOREPLACE:
                raise pyfuse3.FUSEError(errno.EEXIST)
            replaced = self.node(new.entries[name_new])
            if replaced.kind == "dir":
                if replaced.entries:
                    raise pyfuse3.FUSEError(errno.ENOTEMPTY)
            else:
                replaced.nlink -= 1
        del old.entries[name_old]
        new.entries[name_new] = inode
        old.mtime = new.mtime = time.time_ns()

    async def link(self, inode, new_parent_inode, new_name, ctx):
        await self.gate()
        node = self.node(inode)
        folder = self.folder(new_parent_inode)
        if new_name in folder.entries:
            raise pyfuse3.FUSEError(errno.EEXIST)
        folder.entries[new_name] = inode
        node.nlink += 1
        return self.attributes(inode)

    async def symlink(self, parent_inode, name, target, ctx):
        await self.gate()
        inode = self.add(parent_inode, name, Node("link", stat.S_IFLNK | 0o777, target=target))
        return self.attributes(inode)

    async def readlink(self, inode, ctx):
        await self.gate()
        return self.node(inode).target

    # Files.

    def handle(self, inode):
        fh = self.next_handle
        self.next_handle += 1
        self.handles[fh] = inode
        return pyfuse3.FileInfo(fh=fh)

    async def open(self, inode, flags, ctx):
        await self.gate()
        node = self.node(inode)
        if node.kind != "file":
            raise pyfuse3.FUSEError(errno.EISDIR if node.kind == "dir" else errno.ELOOP)
        if flags & os.O_TRUNC:
            node.data.clear()
        return self.handle(inode)

    async def create(self, parent_inode, name, mode, flags, ctx):
        await self.gate()
        inode = self.add(parent_inode, name, Node("file", stat.S_IFREG | (mode & 0o7777)))
        return self.handle(inode), self.attributes(inode)

    async def read(self, fh, off, size):
        await self.gate()
        return bytes(self.node(self.handles[fh]).data[off:off + size])

    async def write(self, fh, off, buf):
        await self.gate()
        node = self.node(self.handles[fh])
        if off > len(node.data):
            node.data.extend(b"\0" * (off - len(node.data)))
        node.data[off:off + len(buf)] = buf
        node.mtime = time.time_ns()
        return len(buf)

    async def fsync(self, fh, datasync):
        await self.gate()
        inode = self.handles[fh]
        node = self.node(inode)
        self.durable[inode] = ("file", node.mode, bytes(node.data), dict(node.xattrs))

    async def flush(self, fh):
        await self.gate()

    async def release(self, fh):
        self.handles.pop(fh, None)

    # Extended attributes.

    async def setxattr(self, inode, name, value, ctx):
        await self.gate()
        if not self.xattrs:
            raise pyfuse3.FUSEError(errno.ENOTSUP)
        self.node(inode).xattrs[name] = bytes(value)

    async def getxattr(self, inode, name, ctx):
        await self.gate()
        if not self.xattrs:
            raise pyfuse3.FUSEError(errno.ENOTSUP)
        node = self.node(inode)
        if name not in node.xattrs:
            raise pyfuse3.FUSEError(pyfuse3.ENOATTR)
        return node.xattrs[name]

    async def listxattr(self, inode, ctx):
        await self.gate()
        if not self.xattrs:
            raise pyfuse3.FUSEError(errno.ENOTSUP)
        return list(self.node(inode).xattrs)

    async def removexattr(self, inode, name, ctx):
        await self.gate()
        if not self.xattrs:
            raise pyfuse3.FUSEError(errno.ENOTSUP)
        if self.node(inode).xattrs.pop(name, None) is None:
            raise pyfuse3.FUSEError(pyfuse3.ENOATTR)


async def serve(fs):
    async with trio.open_nursery() as nursery:
        async def on_cut():
            with trio.open_signal_receiver(signal.SIGUSR1) as signals:
                async for _ in signals:
                    fs.power_cut()
        nursery.start_soon(on_cut)
        await pyfuse3.main()
        nursery.cancel_scope.cancel()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    fs = PowerFS(args[0], xattrs="--no-xattr" not in sys.argv)
    options = set(pyfuse3.default_options)
    options.add("fsname=powerfs")
    options.discard("default_permissions")
    pyfuse3.init(fs, args[1], options)
    try:
        trio.run(serve, fs)
    finally:
        pyfuse3.close(unmount=False)


if __name__ == "__main__":
    main()
