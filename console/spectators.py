"""Spectators at the console (issue #49): ``/game watch``, ``/game unwatch``, ``/follow``, ``/unfollow``,
``/following``, ``/settings tv_channel:`` and ``/notify followers:``, as in Discord; after each line the
watchers' and followers' direct messages that are due are printed, and the TV channel as the cards it would post,
edit or delete (each with what it shows)."""

from __future__ import annotations

from i18n import _, pgettext
from table import cards
from table.replies import Reply, User, Where

from . import lines

COMMANDS = ("/follow", "/unfollow", "/following")
GAME_COMMANDS = ("watch", "unwatch")


def _number(text: str | None) -> int | None | str:
    text = (text or "").strip().lstrip("#")
    if not text:
        return None
    return int(text) if text.isdigit() else "bad"


async def game_command(svc, where: Where, user: User, sub: str, options: dict[str, str]) -> Reply:
    """``/game watch [game:<number>] [send:rounds|end]`` and ``/game unwatch [game:<number>]``."""
    game = _number(options.get("game"))
    if game == "bad":
        return Reply.fail(user.id, _("game is a game's number, such as `game:12`."))
    if sub == "unwatch":
        return await svc.watching.unwatch(where, user, game)
    return await svc.watching.watch(where, user, game, options.get("send") or None)


async def command(svc, where: Where, user: User, top: str, options: dict[str, str]) -> Reply:
    """``/follow user:<user>``, ``/unfollow user:<user>``, ``/following`` (at the console a user is a name)."""
    if top == "/following":
        return await svc.following.following(user)
    name = (options.get("user") or "").strip().lstrip("@")
    if not name:
        return Reply.fail(user.id, _("Use `{command} user:<user>`.", command=top))
    target = User(name, name)
    if top == "/follow":
        return await svc.following.follow(user, where, target)
    return await svc.following.unfollow(user, target)


async def tv_setting(svc, where: Where, user: User, channel: str) -> Reply:
    """``/settings tv_channel:<channel>`` (``off``: none); at the console the bot may post anywhere."""
    channel = channel.strip().lstrip("#")
    off = channel.lower() in ("off", pgettext("value", "off").lower(), "")
    return await svc.tv.set_channel(where.guild, user, True, None if off else channel)


async def after_line(console) -> None:
    """What waits after a line: the due direct messages, then every TV channel's cards brought up to date."""
    svc = console.service

    from .table import linked

    async def dm(user_id: str, reply: Reply, nonce: str) -> None:
        await reply.render()
        for p in reply.private:
            controls = lines.controls_lines(reply.controls)
            console.print_card(cards.private_card(p, controls=bool(controls), limit=None), controls,
                               lambda text: pgettext("console", "[direct message to {user}] {text}", user=user_id,
                                                     text=text),
                               lambda path: pgettext("console", "  image (only {user}): {path}", user=user_id,
                                                     path=path), linked)

    await svc.spectator_mail(dm)
    for guild in await svc.tv.rows.tv_channels():
        while await svc.tv.step(guild, lambda *a: tv_card(console, *a)):
            pass


async def tv_card(console, op: str, channel: str, message: str | None, reply: Reply | None,
                  nonce: str | None) -> str | None:
    """A TV card as the console shows it: which card, and what it shows now."""
    from .table import linked

    if op == "delete":
        console.write(pgettext("console", "[TV #{channel}] card {message} removed", channel=channel, message=message))
        return None
    await reply.render()
    message = message or f"tv-{reply.game_id}"
    if op == "post":
        what = pgettext("console", "[TV #{channel}] new card {message}:", channel=channel, message=message)
    else:
        what = pgettext("console", "[TV #{channel}] card {message} edited:", channel=channel, message=message)
    controls = lines.controls_lines(reply.controls)
    console.print_card(cards.public_card(reply, controls=bool(controls), limit=None), controls,
                       lambda text: f"{what} {text}", lambda path: pgettext("console", "  image: {path}", path=path),
                       linked)
    return message
