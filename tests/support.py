"""Small helpers shared by the tests: a clock to move by hand, and the message answering an interaction."""


class Clock:
    """A controllable clock for the table service (``TableService(clock=...)``)."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


async def answer(r):
    """The message that answers an interaction recorded by the fake Discord, whether it was sent at once or
    after a deferral."""
    if r.callback_type in (6, 7):   # a click: a follow-up, or the clicked message updated in place
        await r._wait(lambda: r.followups or any(e[0] == "edit" for e in r.events) or r.callback_type == 7,
                      5.0)
        return r.followups[0] if r.followups else r.message
    if r.callback_type == 5:        # deferred "thinking": completed by a follow-up or an edit
        await r.wait_completed()
        return r.messages[-1]
    return r.message
