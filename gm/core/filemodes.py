"""Who may read gm's files: the store, the data folder, secret files and Maildir files.

Every file gm creates holds what players sent or only they may read, so it is made 0600
(folders 0700) by default.  A GM whose CLI runs as another user than the daemon sets
``group: <name>``: the data folder then belongs to that group with mode 2770 (setgid, so SQLite's
-wal and -shm get the group too), files 0660, folders 2770.

The choice is read from the folder a file is made in (shared()), so the code that makes a file
needs no config: prepare() marks the data folder once, before the store is opened.  Modes are
set explicitly (os.open's mode, then fchmod / chmod), so the umask neither loosens nor tightens them.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from pathlib import Path

PRIVATE_FILE, PRIVATE_DIR = 0o600, 0o700
SHARED_FILE, SHARED_DIR = 0o660, 0o2770


class GroupError(ValueError):
    """The configured group does not exist, or this user cannot give files to it."""


def shared(directory: Path) -> bool:
    """Files made in ``directory`` are for its group: it is setgid and group read-write-search."""
    try:
        mode = os.stat(directory).st_mode
    except OSError:
        return False
    return bool(mode & stat.S_ISGID) and mode & 0o070 == 0o070


def file_mode(directory: Path) -> int:
    return SHARED_FILE if shared(directory) else PRIVATE_FILE


def make_dirs(path: Path) -> Path:
    """``path`` and any missing parents, each new one 0700 (2770 inside a shared folder)."""
    path = Path(path)
    missing = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        mode = SHARED_DIR if shared(folder.parent) else PRIVATE_DIR
        try:
            folder.mkdir(mode=mode & 0o777)
        except FileExistsError:  # made meanwhile by another process: its mode is its maker's
            continue
        os.chmod(folder, mode)
    return path


def create_file(path: Path) -> bool:
    """Make ``path`` empty with the mode of its folder (0600, or 0660 shared) unless it exists;
    True if it was made here."""
    path = Path(path)
    make_dirs(path.parent)
    mode = file_mode(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return True


def open_new(path: Path, flags: int = os.O_WRONLY | os.O_CREAT | os.O_TRUNC) -> int:
    """os.open for writing a file gm makes, with its folder's mode (for Maildir and secret files)."""
    mode = file_mode(Path(path).parent)
    fd = os.open(path, flags, mode)
    try:
        os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def group_id(name: str) -> int:
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        raise GroupError(f"group {name!r} does not exist") from None


def prepare(data_dir: Path, group: str | None) -> None:
    """Make the data folder (0700), or with ``group`` give it to that group, mode 2770, with the
    files gm keeps at its top (the store, its -wal and -shm, the secret files) 0660 in that group."""
    data_dir = make_dirs(Path(data_dir))
    if not group:
        return
    gid = group_id(group)
    try:
        os.chown(data_dir, -1, gid)
        os.chmod(data_dir, SHARED_DIR)
        for folder, dirs, files in os.walk(data_dir):  # what gm made before the group was set
            for name, mode in [(d, SHARED_DIR) for d in dirs] + [(f, SHARED_FILE) for f in files]:
                entry = Path(folder) / name
                info = entry.lstat()
                if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid():
                    continue
                if info.st_gid != gid or stat.S_IMODE(info.st_mode) != mode:
                    os.chown(entry, -1, gid)
                    os.chmod(entry, mode)
    except PermissionError as exc:
        raise GroupError(f"cannot give {data_dir} to group {group!r}: {exc}") from exc



def too_open(path: Path, group: bool, read: bool = True) -> str | None:
    """Why users other than gm's may read or write ``path`` (``read`` False: write only, for a
    file that holds no secret), or None.  With ``group:`` in the config its group is meant to
    (0660); else a group bit counts only where the file's group holds another user (a user's own
    group, or root:gm 0640 for the gm user, gives nobody else anything).  None if no such file."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    mode, bits = stat.S_IMODE(info.st_mode), 0o066 if read else 0o022
    what = "read" if read and mode & 0o044 else "write"
    if mode & bits & 0o007:
        return f"mode {mode:04o}: every user of this host may {what} it"
    if mode & bits & 0o070 and not group and not own_group(info.st_gid):
        return f"mode {mode:04o}: the users of its group may {what} it, and no group: is set"
    return None


def own_group(gid: int) -> bool:
    """Nobody but this process's user is in group ``gid`` (as a member or by their primary group)."""
    try:
        me = pwd.getpwuid(os.getuid()).pw_name
        members = set(grp.getgrgid(gid).gr_mem)
        users = {entry.pw_name for entry in pwd.getpwall() if entry.pw_gid == gid}
    except KeyError:
        return False
    return (members | users) <= {me}


def replace_file(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a reader never sees half of it): through a temporary file
    of a name nobody can guess, made new in the same folder (O_EXCL|O_NOFOLLOW: a symlink planted
    there is never followed), then renamed over ``path``.  Its mode is 0666 less the umask, as a
    plain open's: these are files gm publishes (the archive), not its private ones."""
    path = Path(path)
    import secrets  # hashlib and random: only where a file is written

    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
