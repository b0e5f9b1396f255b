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
    ``hello`` the referee sends; a ``new_game``, the next game of a series in the same sandbox, adds one
    to ``game`` and sets the seat again). Every other call goes to the wrapped connection unchanged.
    """

    def __init__(
        self, conn: Any, game: int = 0, per_decision: int = PER_DECISION_BYTES, total: int = TOTAL_BYTES
    ) -> None:
        self._conn = conn
        self.game = game
        self.seat = -1
        self.rows: list[list[Any]] = []
        self._decision = -1
        self._cursor = bot_text.StderrCursor()
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
        elif line.startswith(b'{"type":"new_game"'):
            # The next game of a series in the same sandbox: what is left goes with the last decision of
            # the game that ended; the new game has its own number and seat.
            if self._decision >= 0:
                self._collect()
            self._decision = -1
            self.game += 1
            self._read_seat(line)
        elif self.seat < 0 and line.startswith(b'{"type":"hello"'):
            self._read_seat(line)
        self._conn.send(line)

    def _read_seat(self, line: bytes) -> None:
        with contextlib.suppress(ValueError, KeyError, TypeError):
            self.seat = int(json.loads(line)["seat"])

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

    def _collect(self) -> None:
        time.sleep(0)  # let the runner's stderr thread take what the bot wrote just before answering
        try:
            raw = self._cursor.new_output(self._conn)
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
