"""The fake Discord of tests/fakediscord.py, proven with a throwaway bot driven by the real discord.py client."""

import contextlib
import gc
import io
import logging
import os
import re
import threading
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import EPHEMERAL, FakeDiscord, InteractionFailed

MOVES = ["place red", "place blue", "pass", "play card 1", "play card 2"]


def png_bytes(colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 24), colour).save(buf, "PNG")
    return buf.getvalue()


class Bump(discord.ui.DynamicItem[discord.ui.Button], template=r"bump:(?P<table>\d+):(?P<version>\d+)"):
    """A stateless, persistent button: everything it needs is in its custom id and the (shared) store."""

    def __init__(self, table: int, version: int):
        super().__init__(discord.ui.Button(label="Bump", style=discord.ButtonStyle.primary,
                                           custom_id=f"bump:{table}:{version}"))  # fmt: skip
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        store = interaction.client.store  # re-read state: survives a restart
        if self.version != store[self.table]:
            await interaction.response.send_message(f"this has moved on (now {store[self.table]})", ephemeral=True)
            return
        store[self.table] += 1
        view = discord.ui.View(timeout=None)
        view.add_item(Bump(self.table, store[self.table]))
        await interaction.response.edit_message(content=f"table {self.table} at {store[self.table]}", view=view)


class NoteModal(discord.ui.Modal, title="A note"):
    text = discord.ui.Label(text="Your note", component=discord.ui.TextInput(custom_id="note-text"))
    old = discord.ui.TextInput(label="Old-style input", custom_id="note-old", required=False, default="kept")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"noted: {self.text.component.value} / {self.old.value}", ephemeral=True
        )


class Confirm(discord.ui.View):
    """An ordinary (non-persistent) view: dispatched by message id from the callback's response."""

    def __init__(self):
        super().__init__(timeout=30)

    @discord.ui.button(label="Yes, abandon", style=discord.ButtonStyle.danger)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.defer()  # deferred update of the clicked message...
        await interaction.edit_original_response(content="Abandoned.", view=None)  # ...then edited
        await interaction.followup.send("Table abandoned by " + interaction.user.display_name)
        self.stop()


def make_bot(fake: FakeDiscord, store: dict, *, global_sync: bool = False) -> commands.Bot:
    intents = discord.Intents.none()
    intents.guilds = True
    bot = commands.Bot(command_prefix="!", intents=intents, help_command=None)
    bot.store = store
    game = app_commands.Group(name="game", description="Play a game")

    @game.command(name="new", description="Open a table")
    @app_commands.choices(game=[app_commands.Choice(name="Pebbles", value="pebbles"),
                                app_commands.Choice(name="Wassamasaw", value="wassamasaw")])  # fmt: skip
    async def new(interaction: discord.Interaction, game: app_commands.Choice[str]):
        table = len(store) + 1
        store[table] = 0
        view = discord.ui.View(timeout=None)
        view.add_item(Bump(table, 0))
        sel = discord.ui.Select(custom_id=f"opt:{table}", options=[discord.SelectOption(label=x) for x in "abc"])
        view.add_item(sel)
        await interaction.response.send_message(
            f"{interaction.user.display_name} opened {game.value} (table {table}) @everyone",
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @game.command(name="move", description="Make a move")
    async def move(interaction: discord.Interaction, action: str):
        await interaction.response.send_message(f"you did {action}")

    @move.autocomplete("action")
    async def move_auto(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=m, value=m) for m in MOVES if current.lower() in m][:25]

    @game.command(name="hand", description="Your private view")
    async def hand(interaction: discord.Interaction):
        file = discord.File(io.BytesIO(png_bytes("green")), filename="hand.png")
        await interaction.response.send_message("your hand: 3 cards", file=file, ephemeral=True)

    @game.command(name="board", description="The board, rendered slowly")
    async def board(interaction: discord.Interaction, seats: int = 2):
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"board for {seats}", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
        await interaction.followup.send("and a private note", ephemeral=True)

    @game.command(name="abandon", description="Abandon the table (with a confirmation)")
    async def abandon(interaction: discord.Interaction):
        view = Confirm()
        await interaction.response.send_message("Really abandon?", view=view, ephemeral=True)

    @game.command(name="misc", description="REST calls the bot may make")
    async def misc(interaction: discord.Interaction, who: discord.Member):
        await interaction.response.defer(ephemeral=True, thinking=True)
        original = await interaction.original_response()
        assert original.flags.ephemeral and original.flags.loading
        public = await interaction.channel.send(f"table for {who.display_name}")
        thread = await public.create_thread(name="table 1")
        await thread.send("in the thread")
        private = await interaction.channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
        await private.add_user(who)
        await who.send("psst")
        member = await interaction.guild.fetch_member(who.id)
        channel = await interaction.client.fetch_channel(interaction.channel_id)
        await public.edit(content=f"table for {member.display_name} in {channel.name}")
        await interaction.edit_original_response(content=f"done: {thread.name}, {private.name}")

    @game.command(name="note", description="Leave a note (a modal)")
    async def note(interaction: discord.Interaction):
        await interaction.response.send_modal(NoteModal())

    bot.tree.add_command(game)

    @bot.listen()
    async def on_interaction(interaction: discord.Interaction):
        if interaction.type is discord.InteractionType.component and interaction.data["custom_id"].startswith("opt:"):
            await interaction.response.send_message(f"chose {interaction.data['values']}", ephemeral=True)

    async def setup_hook():
        bot.add_dynamic_items(Bump)
        if global_sync:
            await bot.tree.sync()
        else:
            bot.tree.copy_global_to(guild=discord.Object(fake.guild.id))
            await bot.tree.sync(guild=discord.Object(fake.guild.id))

    bot.setup_hook = setup_hook
    return bot


def open_sockets() -> int:
    """How many sockets this process holds (Linux; 0 elsewhere)."""
    fds = Path("/proc/self/fd")
    if not fds.exists():
        return 0
    count = 0
    for name in os.listdir(fds):
        with contextlib.suppress(OSError):
            count += os.readlink(fds / name).startswith("socket:")
    return count


@pytest.fixture
async def fake(caplog):
    """A running FakeDiscord; afterwards: no leaked socket, no keep-alive thread, no error logged."""
    before = open_sockets()
    async with FakeDiscord(tally=False) as f:        # its own bot: not counted as Teahouse's
        yield f
    gc.collect()
    for t in threading.enumerate():
        if type(t).__name__ == "KeepAliveHandler":
            t.join(1)
            assert not t.is_alive(), "discord.py's heartbeat thread survived the test"
    assert open_sockets() <= before, "sockets leaked"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_sync_slash_and_components(fake: FakeDiscord):
    store: dict = {}
    async with fake.run(make_bot(fake, store)):
        # the sync payload is captured, as sent
        gid, payload = fake.sync_payloads[-1]
        assert gid == fake.guild.id
        [cmd] = payload
        subcommands = {"new", "move", "hand", "board", "abandon", "misc", "note"}
        assert cmd["name"] == "game" and {o["name"] for o in cmd["options"]} == subcommands
        assert fake.commands(guild=True)[0]["id"].isdigit()
        assert fake.gateway_queries[-1]["compress"] == "zlib-stream"  # honoured: the fake sends zlib frames

        alice = fake.user("alice")
        r = await fake.slash(alice, "general", "game new", options={"game": "wassamasaw"})
        assert r.callback_type == 4 and not r.ephemeral and r.flags == 0
        assert r.content == "Alice opened wassamasaw (table 1) @everyone"
        assert r.message.source == "interaction" and r.message.channel_id == fake.channel("general").id
        assert not r.message.mention_everyone  # allowed_mentions none
        assert [b["custom_id"] for b in r.message.buttons()] == ["bump:1:0"]
        assert r.components[1]["components"][0]["type"] == 3
        assert fake.last_message("general") is r.message

        with pytest.raises(ValueError, match="not a choice"):
            await fake.slash(alice, "general", "game new", options={"game": "chess"})

        c = await fake.click(fake.user("bob"), r.message, label="Bump")
        assert c.callback_type == 7 and c.message is r.message
        assert r.message.content == "table 1 at 1" and r.message.buttons()[0]["custom_id"] == "bump:1:1"
        stale = await fake.click(alice, r.message.id, "bump:1:1")
        assert stale.callback_type == 7 and store[1] == 2

        r2 = await fake.slash("dave", "games", "game new", options={"game": "pebbles"})
        s = await fake.select(alice, r2.message, "opt:2", ["b"])
        assert s.ephemeral and s.flags & EPHEMERAL and s.content == "chose ['b']"


async def test_autocomplete_ephemeral_png(fake: FakeDiscord):
    async with fake.run(make_bot(fake, {})):
        a = await fake.autocomplete(fake.user("bob"), "games", "game move", options={"action": "pla"})
        assert a.callback_type == 8
        assert [c["value"] for c in a.choices] == ["place red", "place blue", "play card 1", "play card 2"]

        h = await fake.slash("carol", "games", "game hand")
        assert h.ephemeral and h.flags == 64 and h.content == "your hand: 3 cards"
        [att] = h.attachments
        assert att.filename == "hand.png" and att.content_type == "image/png"
        img = att.image()
        assert img.format == "PNG" and img.size == (32, 24) and img.getpixel((0, 0)) == (0, 128, 0)
        assert fake.last_message("games") is None  # ephemeral messages are not public
        assert fake.last_message("games", ephemeral=True) is h.message


async def test_deferred_followup_with_file_multipart(fake: FakeDiscord):
    async with fake.run(make_bot(fake, {})):
        r = await fake.slash("alice", "general", "game board", options={"seats": 3})
        assert r.callback_type == 5
        # the first follow-up after a "thinking" defer replaces the loading message, the second is a new one
        assert not r.message.loading and r.content == "board for 3"
        assert r.attachments[0].image().size == (32, 24)
        [note] = await r.wait_followups(1)
        assert note.source == "followup" and note.ephemeral and note.content == "and a private note"
        uploads = [q for q in fake.requests if q.path.startswith("/api/v10/webhooks/") and q.files]
        assert uploads and uploads[0].files[0][0] == "board.png" and uploads[0].json["content"] == "board for 3"


async def test_views_threads_dms_and_fetches(fake: FakeDiscord):
    async with fake.run(make_bot(fake, {})):
        a = await fake.slash("alice", "general", "game abandon")
        assert a.ephemeral and a.message.buttons()[0]["label"] == "Yes, abandon"
        y = await fake.click("alice", a.message, label="Yes, abandon")
        assert y.callback_type == 6 and y.message is a.message
        assert a.message.content == "Abandoned." and a.message.components == [] and a.message.edits == 1
        [f] = await y.wait_followups(1)
        assert f.content == "Table abandoned by Alice" and not f.ephemeral
        assert [e[0] for e in y.events] == ["callback", "edit", "followup"]

        bob = fake.user("bob")
        m = await fake.slash("alice", "general", "game misc", options={"who": bob})
        assert m.callback_type == 5 and m.ephemeral and m.content == "done: table 1, secret"
        public = fake.messages("general", source="channel")[-1]
        assert public.content == "table for Bob in general" and public.edits == 1
        thread = fake.channel("table 1")
        assert thread.id == public.id and thread.type == 11 and thread.parent_id == fake.channel("general").id
        assert fake.last_message(thread).content == "in the thread"
        assert fake.channel("secret").type == 12
        assert fake.last_message(fake.dm_channel(bob)).content == "psst"
        assert not fake.unknown_routes and not fake.errors


async def test_modal(fake: FakeDiscord):
    async with fake.run(make_bot(fake, {})):
        r = await fake.slash("alice", "general", "game note")
        assert r.callback_type == 9 and r.modal["title"] == "A note" and r.message is None
        s = await fake.submit_modal("alice", r, {"note-text": "hello"})
        assert s.ephemeral and s.content == "noted: hello / kept"


async def test_restart_keeps_buttons_working(fake: FakeDiscord):
    store: dict = {}  # the "database" both bot instances share
    async with fake.run(make_bot(fake, store, global_sync=True)):
        assert fake.sync_payloads[-1][0] is None
        r = await fake.slash("alice", "general", "game new", options={"game": "pebbles"})
    assert not fake.connected
    with pytest.raises(AssertionError, match="no bot is connected"):
        await fake.click("bob", r.message, "bump:1:0")

    async with fake.run(make_bot(fake, store, global_sync=True)):  # a NEW bot instance: a restart
        c = await fake.click("bob", r.message, "bump:1:0")
        assert c.callback_type == 7 and r.message.content == "table 1 at 1" and store == {1: 1}
    assert len(fake.identifies) == 2 and fake.identifies[1]["token"] == fake.token


async def test_gateway_resume_after_server_side_close(fake: FakeDiscord):
    async with fake.run(make_bot(fake, {})):
        await fake.close_gateway(code=4000)
        await fake.wait_until_connected()
        assert fake.gateway_received[-1]["op"] in (1, 6) and any(m["op"] == 6 for m in fake.gateway_received)
        r = await fake.slash("alice", "general", "game move", options={"action": "pass"})
        assert r.content == "you did pass"


async def test_errors_show_up_clearly(fake: FakeDiscord):
    bot = make_bot(fake, {})
    async with fake.run(bot):
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/nowhere/{x}", x=1))
        assert fake.unknown_routes == [("GET", "/api/v10/nowhere/1")]
        channel = bot.get_channel(fake.channel("general").id)
        row = {
            "type": 1,
            "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)],
        }
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
        with pytest.raises(discord.HTTPException) as exc:  # discord.py's View would refuse this itself
            await bot.http.request(route, json={"content": "x", "components": [row]})
        assert exc.value.code == 50035 and "6 components" in str(exc.value)
        # the fake's own reason first, then what Discord's OpenAPI description finds
        first, spec = fake.errors[-1]["problems"]
        assert first == "components[0]: 6 components (1..5)" and spec.startswith("OpenAPI: POST /channels/")
        assert fake.openapi_refused == [spec.removeprefix("OpenAPI: ")]
        fake.openapi_refused.clear()       # refused on purpose: the fake would fail the test at its end
        sent = await channel.send("plain", file=discord.File(io.BytesIO(png_bytes()), "p.png"))
        m = fake.message(sent.id)
        assert m.source == "channel" and m.attachments[0].image() and sent.attachments[0].size == m.attachments[0].size
        assert await sent.attachments[0].read() == m.attachments[0].data  # served back by the fake

        @bot.tree.command(name="silent", description="never answers", guild=discord.Object(fake.guild.id))
        async def silent(interaction: discord.Interaction):
            pass

        await bot.tree.sync(guild=discord.Object(fake.guild.id))
        fake.callback_deadline = 0.2
        with pytest.raises(InteractionFailed, match="This interaction failed"):
            await fake.slash("alice", "general", "silent")


async def test_wrong_token_is_refused(fake: FakeDiscord):
    bot = make_bot(fake, {})
    with pytest.raises(discord.LoginFailure):
        async with fake.run(bot, token="wrong"):
            pass
