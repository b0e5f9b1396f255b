"""A bot's stderr, decision by decision: a wrapper around a ``BotConnection`` (owner-only data).

The referee keeps the end of each bot's stderr for the whole game. For the replay viewer the owner of a
bot wants the lines it wrote *while making each decision*. :class:`DecisionStderr` wraps the connection a
runner returns and watches the lines the referee sends: each ``request`` (protocol v1:
``{"type":"request","id":<decision>,...``) closes the previous decision, and everything the bot wrote to
stderr since then is filed under that decision, as is whatever it writes after its last decision (read
when the connection is closed). So the text filed under decision *d* is what the bot wrote from the moment
it was asked for *d* until it was asked for its next decision; what it wrote before its first decision
goes with the first one. The stderr pipe is drained by the runner's own thread; measuring at the next
request (not at the answer) leaves that thread time to catch up, so lines are rarely misfiled.

Caps: each decision keeps the last :data:`PER_DECISION_BYTES`; once a game's rows reach
:data:`TOTAL_BYTES`, the rest is counted but dropped (a final row says how much). Every row's text is
:func:`arena.play.bot_text.clean` text, cut from the raw bytes the connection kept (``stderr_bytes()``).

    >>> recorder = DecisionStderr(conn, game=0)   # doctest: +SKIP
    >>> recorder.rows                             # doctest: +SKIP
    [[0, 2, 5, "thinking...\\n"], ...]            # [game, seat, decision, text]
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any, Final

from arena.play import bot_text

PER_DECISION_BYTES: Final = 4096
TOTAL_BYTES: Final = 64 * 1024
_REQUEST: Final = re.compile(rb'\{"type":"request","id":(\d+),')


class DecisionStderr:
    """A ``BotConnection`` that files the bot's stderr under the decision it was written during.

    ``rows`` holds ``[game, seat, decision, text]`` for every decision with output (the seat comes from the
    ``hello`` the referee sends). Every other call goes to the wrapped connection unchanged.
    """

    def __init__(
        self, conn: Any, game: int = 0, per_decision: int = PER_DECISION_BYTES, total: int = TOTAL_BYTES
    ) -> None:
        self._conn = conn
        self.game = game
        self.seat = -1
        self.rows: list[list[Any]] = []
        self._decision = -1
        self._seen = 0
        self._per_decision = per_decision
        self._budget = total
        self._dropped = 0
        self._closed = False

    def send(self, line: bytes) -> None:
        """Send a line to the bot; a request first files the stderr of the bot's previous decision."""
        match = _REQUEST.match(line)
        if match is not None:
            if self._decision >= 0:
                self._collect()
            self._decision = int(match.group(1))
        elif self.seat < 0 and line.startswith(b'{"type":"hello"'):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self.seat = int(json.loads(line)["seat"])
        self._conn.send(line)

    def readline(self, timeout: float) -> bytes:
        """One line from the bot (unchanged)."""
        line: bytes = self._conn.readline(timeout)
        return line

    def stderr_tail(self) -> str:
        """The end of the bot's stderr (unchanged)."""
        return str(self._conn.stderr_tail())

    def close(self) -> None:
        """Close the bot, then file what it wrote after its last decision (idempotent)."""
        self._conn.close()
        if not self._closed:
            self._closed = True
            if self._decision >= 0:
                self._collect()
            if self._dropped:
                self.rows.append(
                    [
                        self.game,
                        self.seat,
                        self._decision,
                        f"[{self._dropped} more bytes of stderr not kept]\n",
                    ]
                )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _total(self) -> int | None:
        """Bytes the bot wrote to stderr in all, when the connection counts them (``stderr_total``: a
        property of the sandbox's connections, or a method)."""
        total = getattr(self._conn, "stderr_total", None)
        if callable(total):
            total = total()
        return total if isinstance(total, int) else None

    def _tail(self) -> bytes:
        """The kept end of the bot's stderr as bytes (raw from the sandbox's connections)."""
        tail = bot_text.stderr_of(self._conn)
        return tail if isinstance(tail, bytes) else tail.encode("utf-8", "surrogatepass")

    def _new_output(self) -> bytes:
        """What the bot wrote to stderr since the last call (as far as the kept tail reaches), raw."""
        total = self._total()
        if total is None:  # no byte count: compare the tail's length (exact until it reaches its cap)
            tail = self._tail()
            new_data = tail[self._seen :] if len(tail) > self._seen else b""
            self._seen = max(self._seen, len(tail))
            return new_data
        if total <= self._seen:
            return b""
        for _attempt in range(10):  # the tail and the count must be read with no write in between
            tail = self._tail()
            after = self._total() or 0
            if after == total:
                break
            total = after
        new = total - self._seen
        self._seen = total
        return tail[-new:] if new < len(tail) else tail

    def _collect(self) -> None:
        time.sleep(0)  # let the runner's stderr thread take what the bot wrote just before answering
        try:
            raw = self._new_output()
        except Exception:  # the recorder must never disturb the match
            return
        if not raw:
            return
        text = bot_text.clean(raw)
        data = text.encode()
        if len(data) > self._per_decision:
            cut = len(data) - self._per_decision
            text = f"[{cut} bytes cut]\n" + bot_text.clean(text, self._per_decision, keep="tail")
            data = text.encode()
        if self._dropped or len(data) > self._budget:
            self._dropped += len(data)
            return
        self._budget -= len(data)
        self.rows.append([self.game, self.seat, self._decision, text])
