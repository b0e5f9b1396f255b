"""One bot's side of a game, as the referee sees it: its connection, its clock and its fault.

A :class:`BotLink` turns everything that can go wrong with a bot (a runner that cannot start it, a
timeout, an exit, a flood, a line that is not JSON, a wrong message, a line written when no request is
open) into a :class:`Fault` whose message says what the bot did and what to do instead; once it has a
fault the bot is stopped and every later call is a no-op, so the referee never has to catch anything.
In a series (:func:`arena.play.referee.run_series`) the connection outlives the link: :meth:`BotLink.adopt`
takes a sandbox that played the previous game, :meth:`BotLink.detach` hands it on.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from arena.play import bot_text, protocol
from sandbox.errors import BotExited, BotOutputTooLong, BotTimeout, RunnerRefused, SandboxUnavailable

FAULT_KINDS: Final = (
    "start",  # the runner could not start the bot
    "handshake",  # no valid "ready" in answer to "hello" within the start-up time
    "timeout",  # no answer within the decision time plus the time bank (or it did not read its input)
    "crash",  # it exited with a non-zero status or was killed by a signal (a limit, a bug)
    "exit",  # it exited with status 0 or closed its output during the match
    "invalid_json",  # it wrote a line that is not UTF-8 JSON
    "invalid_message",  # valid JSON, but not the message expected (no action, wrong id, wrong type)
    "illegal_action",  # a well-formed action that is not legal now
    "flood",  # a line longer than the limit (or that much output without a newline)
)
"""Every fault kind, in the order docs/protocol.md explains them."""

INFRASTRUCTURE_ERRORS: Final = (SandboxUnavailable, RunnerRefused)
"""Errors of ``connect()`` that are the machine's fault, not the bot's: they abort the match."""

ERROR_GRACE: Final = 0.2
"""Seconds a bot faulted for a bad answer gets to read the ``error`` message and log it (the link waits
until its stderr grows, at most this long) before it is stopped."""

FLUSH_HINT: Final = "did it flush stdout? (Python: print(..., flush=True); the uno_bot helper flushes)"
NEWLINE_HINT: Final = "end every message with a newline (\\n) and flush"


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a bot was stopped: fault ``kind`` (see :data:`FAULT_KINDS`), the index of the ``decision`` in
    the game's replay at which it happened (-1: before the first decision), a ``message`` (one line), the
    last KBs of the bot's stderr (owner-only), its ``seat`` and the ``game`` of the match (duplicate
    deals). The message and the stderr are :func:`arena.play.bot_text.clean` text."""

    kind: str
    decision: int
    message: str
    stderr_tail: str = ""
    seat: int = -1
    game: int = 0

    def public(self) -> dict[str, Any]:
        """The part that goes into the (public) replay: no stderr."""
        return {
            "kind": self.kind,
            "decision": self.decision,
            "message": self.message,
            "seat": self.seat,
            "game": self.game,
        }


@dataclass(frozen=True)
class LinkLimits:
    """The limits one link enforces (from ``MatchSettings``)."""

    decision_timeout: float
    time_bank: float
    startup_timeout: float
    max_line_bytes: int
    fault_stderr_bytes: int
    stderr_bytes: int = 64 * 1024
    game_time: float = 0.0
    """Thinking time for the whole game, free time included (0: no such limit)."""


@dataclass
class BotLink:
    """A bot playing one seat of one game."""

    seat: int
    name: str
    limits: LinkLimits
    game_index: int = 0
    conn: Any = None
    fault: Fault | None = None
    bank: float = 0.0
    cursor: int = 0
    """Index in ``game.events`` of the first event this bot has not been sent yet."""
    stderr: str = ""
    """The end of the bot's stderr once it is stopped (clean text, at most ``limits.stderr_bytes``)."""
    bot_name: str | None = None
    """The name the bot gave in ``ready`` (validated by :func:`arena.play.protocol.decode_ready`)."""
    series: bool = False
    """Whether the bot said in ``ready`` that it plays a series in one sandbox (``new_game``)."""
    think_total: float = field(default=0.0)
    think_before: float = 0.0
    """Think time of the earlier games its sandbox served (a series)."""
    adopted: bool = False
    """Whether its sandbox served an earlier game of the series (it was greeted with ``new_game``)."""
    answers: int = 0
    """Requests it answered in time (in this game)."""
    after: str = "hello"
    """What the bot was last sent or last did, for a line it writes when no request is open."""
    stderr_cursor: bot_text.StderrCursor = field(default_factory=bot_text.StderrCursor)
    """Where this game's stderr starts in the connection's (a kept sandbox played earlier games)."""

    def __post_init__(self) -> None:
        self.bank = self.limits.time_bank
        self.game_left = self.limits.game_time or math.inf
        """Thinking time left for this game (``LinkLimits.game_time``; infinite without that limit)."""
        self._lock = threading.Lock()
        self._abandoned = False
        self._has_unread: Callable[[], bool] | None = None
        self.started = threading.Event()
        """Set once :meth:`connect` has a connection or a fault."""

    @property
    def live(self) -> bool:
        """True while the bot plays (started, not faulted)."""
        return self.fault is None and self.conn is not None

    def start(self, connect: Callable[[], Any], hello_line: bytes) -> None:
        """Start the bot and greet it (:meth:`connect`, :meth:`greet`, :meth:`await_ready`)."""
        self.connect(connect)
        self.greet(hello_line)
        self.await_ready(time.monotonic() + self.limits.startup_timeout)

    def connect(self, connect: Callable[[], Any]) -> None:
        """Start the bot; a ``start`` fault on failure. Infrastructure errors propagate. A connection
        that arrives after :meth:`abandon` is closed at once."""
        try:
            conn = connect()
        except INFRASTRUCTURE_ERRORS:
            self.started.set()
            raise
        except Exception as exc:
            with self._lock:
                if not self._abandoned:
                    self._set_fault("start", -1, f"the bot could not be started: {type(exc).__name__}: {exc}")
            self.started.set()
            return
        with self._lock:
            if not self._abandoned:
                self._attach(conn)
                self.started.set()
                return
        with contextlib.suppress(Exception):
            conn.close()

    def _attach(self, conn: Any) -> None:
        self.conn = conn
        self._has_unread = getattr(conn, "has_unread", None)

    def adopt(self, conn: Any, cursor: bot_text.StderrCursor, bot_name: str | None, think: float) -> None:
        """Take the live sandbox of the same bot from an earlier game of a series (greet it with
        ``new_game``); ``cursor`` marks where its stderr stands, ``think`` is its think time so far."""
        self._attach(conn)
        self.stderr_cursor = cursor
        self.bot_name = bot_name
        self.think_before = think
        self.series = True
        self.adopted = True
        self.started.set()

    def detach(self) -> Any:
        """Hand the live connection on to the next game of a series (not closed); this game's stderr is
        what the bot wrote since the game started. Returns the connection."""
        conn = self.conn
        self.stderr = self._stderr_since_start(conn)
        self.conn = None
        self._has_unread = None
        return conn

    def _stderr_since_start(self, conn: Any) -> str:
        settle = getattr(conn, "settle_stderr", None)  # what it wrote before its last answer is this game's
        try:
            if settle is not None:
                settle()
            raw = self.stderr_cursor.new_output(conn)
        except Exception:
            return ""
        return bot_text.clean(raw, self.limits.stderr_bytes, keep="tail")

    def abandon(self, seconds: float) -> None:
        """Give up on a start that has taken ``seconds`` already (a ``start`` fault)."""
        with self._lock:
            if self.conn is not None or self.fault is not None:
                return
            self._abandoned = True
        self._set_fault("start", -1, f"the runner did not start the bot within {seconds} s")

    def greet(self, hello_line: bytes, greeting: str = "hello") -> None:
        """Send the greeting (``hello``, or ``new_game`` in a kept sandbox); a ``handshake`` fault if the bot
        cannot take it."""
        if self.live:
            try:
                self.conn.send(hello_line)
            except Exception as exc:
                self.stop("handshake", -1, f"it did not take {greeting}: {describe(exc)}")

    def await_ready(self, deadline: float, answering: str = "hello") -> None:
        """Read ``ready`` (the answer to ``answering``: ``hello`` or ``new_game``) by ``deadline`` (a
        ``time.monotonic`` time); a ``handshake`` fault otherwise."""
        if not self.live:
            return
        try:
            line = self.conn.readline(max(0.001, deadline - time.monotonic()))
            if len(line) > self.limits.max_line_bytes:
                raise BotOutputTooLong(self.limits.max_line_bytes)
            ready = protocol.decode_ready(line, answering)
        except protocol.ProtocolError as exc:
            self.stop("handshake", -1, f"bad answer to {answering}: {exc}")
        except BotTimeout:
            self.stop(
                "handshake",
                -1,
                f"no ready in answer to {answering} within the start-up time ({self.limits.startup_timeout} s): "
                + self._silence("ready"),
            )
        except Exception as exc:
            self.stop("handshake", -1, f"before it said ready in answer to {answering}: {describe(exc)}")
        else:
            self.bot_name = ready.name or self.bot_name
            self.series = ready.series
            self.after = "its ready line"

    def _silence(self, what: str) -> str:
        """What the bot wrote while the referee waited in vain for its ``what`` line (``ready`` or
        ``answer``), and the likely cause: a line without its newline, or nothing at all (not flushed)."""
        partial = self._unread()
        if partial:
            return f"it wrote {len(partial)} bytes without a newline: {protocol.excerpt(partial)}: {NEWLINE_HINT}"
        if what == "answer" and self.answers:
            return f"nothing received (its {self.answers} earlier answers came in time: too slow this time?)"
        return f"nothing received: {FLUSH_HINT}"

    def _unread(self) -> bytes:
        unread = getattr(self.conn, "unread", None)
        if unread is None:
            return b""
        try:
            data = unread()
        except Exception:
            return b""
        return bytes(data) if isinstance(data, bytes | bytearray) else b""

    def send(self, line: bytes, decision: int) -> bool:
        """Send a line; on failure the bot is faulted (at ``decision``) and False is returned."""
        if not self.live:
            return False
        try:
            self.conn.send(line)
        except Exception as exc:
            kind, message = classify(exc)
            self.stop(kind, decision, message)
            return False
        return True

    def send_request(self, line: bytes, decision: int) -> bool:
        """Send request ``decision``, after checking that the bot wrote nothing since its last answer
        (or ``ready``, or a ``hand_end``); a line written when no request is open is an
        ``invalid_message`` fault of its own, and False is returned."""
        if not self.live:
            return False
        has_unread = self._has_unread
        if has_unread is not None and has_unread():
            self._unsolicited(decision)
            return False
        return self.send(line, decision)

    def notify(self, line: bytes, decision: int, kind: str) -> None:
        """Send a message that takes no answer (``hand_end``: ``kind``); a line the bot writes before its
        next request is then blamed on that message, not on the request."""
        if self.send(line, decision):
            self.after = kind

    def _unsolicited(self, decision: int) -> None:
        try:
            line = self.conn.readline(0.05)
        except BotTimeout:
            line = self._unread()
        except Exception as exc:
            kind, message = classify(exc)
            self.stop(kind, decision, message)
            return
        if self.after == "hand_end":
            why = "hand_end takes no answer (only a request does, with one line)"
        else:
            why = f"nothing was asked after {self.after} (one line per request)"
        hint = f"; {protocol.STDOUT_HINT}" if protocol.looks_like_log(line) else ""
        self.stop(
            "invalid_message",
            decision,
            f"it wrote {protocol.excerpt(line)} while no request was open: {why}{hint}",
            tell=True,
        )

    def read_action(
        self, decision: int, sent_at: float, legal: Sequence[str] = ()
    ) -> tuple[str | None, float]:
        """Read the answer to request ``decision`` (sent at ``sent_at``, a ``perf_counter`` time; its
        ``legal`` actions are quoted when the answer is no action string).

        Returns (the action string, or None after a fault; the think time in seconds). The time over the
        per-decision allowance comes out of the bank.
        """
        allowance = self.limits.decision_timeout
        wait = allowance + self.bank
        capped = self.game_left < wait  # the game's thinking time ends first
        if capped:
            wait = max(0.0, self.game_left)
        try:
            line = self.conn.readline(wait)
            think = time.perf_counter() - sent_at
            if len(line) > self.limits.max_line_bytes:
                raise BotOutputTooLong(self.limits.max_line_bytes)
            action = protocol.decode_action(line, decision, legal)
        except protocol.ProtocolError as exc:
            think = time.perf_counter() - sent_at
            message = str(exc)
            if self.after == "hand_end":
                message += " (was it an answer to hand_end? hand_end takes no answer)"
            self.stop(exc.kind, decision, message, tell=True)
            return None, think
        except Exception as exc:
            think = time.perf_counter() - sent_at
            kind, message = classify(exc)
            if kind == "timeout" and capped:
                message = (
                    f"its thinking time for the game ({self.limits.game_time} s) ran out: no answer "
                    f"within the {wait:.3f} s it had left ({think:.3f} s waited)"
                )
            elif kind == "timeout":
                message = (
                    f"no answer within {allowance} s plus its time bank of {self.bank:.3f} s "
                    f"({think:.3f} s waited): {self._silence('answer')}"
                )
            self.stop(kind, decision, message)
            return None, think
        self.think_total += think
        self.game_left -= think
        self.answers += 1
        answered = f"its answer to request {decision}"
        if self.after == "hand_end":
            answered += (
                " (which came after a hand_end: did one of its lines answer hand_end? it takes no answer)"
            )
        self.after = answered
        if think > allowance:
            self.bank = max(0.0, self.bank - (think - allowance))
        return action, think

    def ask(self, line: bytes, decision: int, legal: Sequence[str] = ()) -> tuple[str | None, float]:
        """Send a request and read its answer (see :meth:`send_request` and :meth:`read_action`)."""
        sent_at = time.perf_counter()
        if not self.send_request(line, decision):
            return None, time.perf_counter() - sent_at
        return self.read_action(decision, sent_at, legal)

    def stop(self, kind: str, decision: int, message: str, tell: bool = False) -> Fault:
        """Fault the bot: optionally tell it why (``error`` message, best effort, with
        :data:`ERROR_GRACE` to log it), stop it, keep its stderr."""
        if tell and self.conn is not None:
            self._tell(protocol.encode(protocol.error(kind, bot_text.clean(message, one_line=True))))
        self.close()
        return self._set_fault(kind, decision, message)

    def _tell(self, line: bytes) -> None:
        """Send ``line`` and give the bot :data:`ERROR_GRACE` seconds to react: until its stderr grows
        (the helper prints the error there) or it exits. Without this pause the bot would be killed
        before it has read the line (a process starts to run only when it is scheduled)."""
        conn = self.conn
        try:
            conn.send(line)
        except Exception:  # best effort: it is being stopped anyway
            return
        before = bot_text.stderr_total(conn)
        if before is None:
            return
        deadline = time.monotonic() + ERROR_GRACE
        while time.monotonic() < deadline:
            time.sleep(0.002)
            if bot_text.stderr_total(conn) != before:
                time.sleep(0.002)  # the rest of the line, if it came in two writes
                return

    def _set_fault(self, kind: str, decision: int, message: str) -> Fault:
        if self.fault is None:
            # The message may quote the bot's output (or an error about it): cleaned like everything else.
            text = bot_text.clean(message, bot_text.MAX_MESSAGE_BYTES, one_line=True)
            tail = bot_text.clean(self.stderr, self.limits.fault_stderr_bytes, keep="tail")
            self.fault = Fault(kind, decision, text, tail, self.seat, self.game_index)
        return self.fault

    def close(self) -> None:
        """Stop the bot (idempotent) and keep the tail of its stderr, cleaned (:mod:`arena.play.bot_text`)."""
        conn = self.conn
        if conn is None:
            return
        with contextlib.suppress(Exception):  # close must never stop the referee
            conn.close()
        self.stderr = self._stderr_since_start(conn)
        self.conn = None
        self._has_unread = None


def classify(exc: BaseException) -> tuple[str, str]:
    """The fault kind and message for an error raised by a bot connection."""
    if isinstance(exc, BotTimeout):
        return "timeout", str(exc)
    if isinstance(exc, BotOutputTooLong):
        return "flood", str(exc)
    if isinstance(exc, BotExited):
        code = exc.returncode
        return ("exit" if not code else "crash"), str(exc)
    return "crash", describe(exc)


def describe(exc: BaseException) -> str:
    """A one-line description of an error."""
    if isinstance(exc, BotExited | BotTimeout | BotOutputTooLong):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
