# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb.Error and its subclasses: one per status of the C library.

The message is the library's own: ``path: section: offset 0x…: rule: detail``
for a broken file. ``status`` is the C status, ``rule`` the rule's name when
the message carries one."""
import re

_RULE = re.compile(r": offset 0x[0-9a-fA-F]+: ([A-Za-z0-9_.-]+):")


class Error(Exception):
    """A failure reported by the hpcdb C library."""

    status = 0

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

    @property
    def rule(self):
        """The rule the file breaks ("section-bounds", ...) or None."""
        m = _RULE.search(self.message)
        return m.group(1) if m else None


class NotFormatError(Error):
    """Not this format (bad magic, unknown file)."""
    status = -1


class VersionError(Error):
    """A version this library does not read."""
    status = -2


class TruncatedError(Error):
    """The data ends before a structure does."""
    status = -3


class CorruptError(Error):
    """A rule of the format is broken."""
    status = -4


class IOFailedError(Error):
    """The operating system said no."""
    status = -5


class InvalidArgumentError(Error, ValueError):
    """The caller's arguments are wrong."""
    status = -7


class UnsupportedError(Error):
    """Valid input this library cannot represent."""
    status = -8


class ExistsError(Error):
    """The output exists and may not be overwritten (use force=True)."""
    status = -9


BY_STATUS = {cls.status: cls for cls in (NotFormatError, VersionError, TruncatedError, CorruptError, IOFailedError,
                                         InvalidArgumentError, UnsupportedError, ExistsError)}
