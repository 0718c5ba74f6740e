"""The referee's end of a bot's pipes: whole lines, with a deadline and a byte cap.

Never an uncapped ``readline()`` (measured: a flooding bot grew the referee to 399 MB in
a second): every read is ``poll()`` with the time left, then ``os.read`` of at most the cap.
"""

from __future__ import annotations

import math
import os
import select
import time
from typing import Callable

REPLY_CAP = 64 * 1024


class ChannelClosed(Exception):
    """The bot closed its end (it exited, or closed its stdout/stdin)."""


class ReplyTooLong(Exception):
    """The bot wrote more than the cap without ending the line."""


class LineChannel:
    """Send bytes to ``write_fd`` and read newline-terminated replies from ``read_fd``."""

    def __init__(self, write_fd: int, read_fd: int, cap: int = REPLY_CAP) -> None:
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.cap = cap
        self._buf = b""
        # Non-blocking writes: a bot that stops reading must not block the referee once a
        # big request fills the pipe.
        os.set_blocking(write_fd, False)
        self._in_poll = select.poll()
        self._in_poll.register(read_fd, select.POLLIN)

    def send(self, data: bytes, timeout: float, on_block: Callable[[], None] | None = None) -> None:
        """Write all of ``data`` within ``timeout`` seconds; :class:`TimeoutError` if not.

        ``on_block`` is called before waiting for the bot to read (a frozen bot must be let
        run first, or it never would).
        """
        try:
            written = os.write(self.write_fd, data)
        except BlockingIOError:
            written = 0
        except BrokenPipeError as exc:
            raise ChannelClosed("the bot closed its input") from exc
        if written < len(data):
            if on_block is not None:
                on_block()
            self._send_slowly(memoryview(data)[written:], time.monotonic() + timeout)

    def _send_slowly(self, rest: memoryview, deadline: float) -> None:
        """Finish a write the pipe could not take at once, waiting at most until ``deadline``."""
        out = select.poll()
        out.register(self.write_fd, select.POLLOUT)
        while rest:
            if not out.poll(_ms(deadline - time.monotonic())):
                raise TimeoutError("the bot does not read its input")
            try:
                rest = rest[os.write(self.write_fd, rest):]
            except BlockingIOError:
                continue
            except BrokenPipeError as exc:
                raise ChannelClosed("the bot closed its input") from exc

    def read_line(self, timeout: float) -> bytes | None:
        """One reply line without its newline, or None if none is complete within ``timeout``.

        Raises :class:`ChannelClosed` at end of file and :class:`ReplyTooLong` past the cap.
        """
        line = self._take_line()
        if line is not None:
            return line
        deadline = time.monotonic() + timeout
        while True:
            if not self._in_poll.poll(_ms(deadline - time.monotonic())):
                return None
            chunk = os.read(self.read_fd, self.cap + 1 - len(self._buf))
            if not chunk:
                raise ChannelClosed("the bot closed its output")
            self._buf += chunk
            line = self._take_line()
            if line is not None:
                return line

    def _take_line(self) -> bytes | None:
        """Pop a complete line from the buffer; enforce the cap on a partial one."""
        end = self._buf.find(b"\n")
        if end < 0:
            if len(self._buf) > self.cap:
                raise ReplyTooLong(f"a reply longer than {self.cap} bytes")
            return None
        if end > self.cap:
            raise ReplyTooLong(f"a reply longer than {self.cap} bytes")
        line, self._buf = self._buf[:end], self._buf[end + 1 :]
        return line

    def close(self) -> None:
        """Close both pipe ends held by the referee."""
        for fd in (self.write_fd, self.read_fd):
            try:
                os.close(fd)
            except OSError:
                pass


def _ms(seconds: float) -> int:
    """Milliseconds for ``poll()``, rounded up so a wait never ends early; never negative."""
    return max(0, math.ceil(seconds * 1000))
