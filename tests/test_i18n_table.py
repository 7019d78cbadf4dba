"""The table in Italian (#17): the console speaking Italian, each interaction's caller and channel in their
own languages, notices in the server's remembered language and direct messages in the user's."""

import pytest

import i18n
import tests.tinygame  # noqa: F401
from engine import GAMES, IllegalAction
from engine.ai import Stats, hint_text
from engine.core import summary_text
from table import User, Where
from tests.support import err, run_console, started

H = 3600


async def test_console_in_italian_plays_a_game_with_italian_commands(tmp_path, italian):
    text = await run_console(tmp_path, """
        alice@lobby /partita nuova gioco:pebbles rounds:1
        bob@lobby /partita unisciti
        eve@lobby /partita nuova gioco:pebbles
        bob@lobby /partita inizia
        alice@lobby /partita inizia ordine:arrivo
        alice@lobby /partita azioni
        alice@lobby /partita mossa azione:bid 3
        eve@lobby /partita mossa azione:bid 1
        bob@lobby /partita mossa azione:bid 1
        alice@lobby /partita mossa azione:keep
        bob@lobby /partita cronologia pagina:7
        alice@wa /partita nuova gioco:wagara
        alice@wa /partita aggiungi_bot livello:difficile
        alice@wa /impostazioni ore_promemoria:2 menziona:no
        alice@wa /partita boh
        nonsense
        /aiuto
        """)
    # the lobby, in Italian
    assert "[#lobby] alice ha aperto un tavolo." in text
    assert "**Pebbles** — tavolo aperto in questo canale. Pebbles si gioca da 2 a 4 giocatori." in text
    assert "[#lobby] bob si è unito al tavolo." in text
    # errors, to their user alone
    assert "[lo vede solo eve] In questo canale c’è già una partita a Pebbles in sala d’attesa." in text
    assert "[lo vede solo bob] Solo chi ha aperto il tavolo (alice) può avviare la partita." in text
    assert "[lo vede solo eve] Non giochi in questa partita" in text
    assert "[lo vede solo bob] La cronologia ha 1 pagina" in text
    # turns and the result
    assert "[#lobby] Si comincia a Pebbles! Ordine dei posti: alice, bob." in text
    assert "Si aspetta la scelta di alice, bob." in text
    assert "[lo vede solo alice] Le tue scelte: bid 1; bid 2; bid 3" in text       # actions stay canonical
    assert "🔒 alice, bob: scegliete in privato (`/partita azioni` elenca le vostre scelte)" in text
    assert "Tocca ad alice." in text and "  pulsanti di alice, ognuno con la riga che fa lo stesso:" in text
    assert "    keep → /partita mossa azione:keep" in text and "    ritira → /partita mossa azione:reroll" in text
    assert "**Partita finita.** 🏆 Vince alice! Punteggi: alice " in text
    # a real game's table, a computer at an Italian level, settings in words
    assert "**Wagara** — tavolo aperto in questo canale." in text
    assert "alice ha aggiunto un giocatore computer (difficile)." in text
    assert "Impostazioni salvate.\nPromemoria: ogni 2 h." in text and "Menzione al proprio turno: no." in text
    assert "Comando sconosciuto `/partita boh`. Prova `/aiuto`." in text
    assert "! Inizia la riga con UTENTE@CANALE" in text
    # the help lists the commands by their Italian names
    assert "/partita nuova gioco:<chiave>" in text and "/wagara gioca carta:<n>" in text and "/game new" not in text
    for english in ("opened a table", "joined", "Waiting for", "to play.", "Game over", "Your choices", "Only the"):
        assert english not in text, english


async def test_console_game_command_usage_in_italian(tmp_path, italian):
    text = await run_console(tmp_path, """
        alice@t /wagara
        alice@t /wassamasaw prendi
        """)
    assert "Comandi di /wagara: /wagara gioca carta:…, /wagara mossa azione:…" in text
    assert "Usa `/wassamasaw prendi dado:… [cella:…]`." in text


async def test_the_caller_reads_in_their_language_the_channel_in_the_servers(svc):
    """An Italian user in an English server: what the channel reads is English, what only they read Italian."""
    here = Where("chan", guild="g", locale="en")
    alice, bob, cy = User("111", "Alice", "it"), User("222", "Bob", "en"), User("333", "Cy", "it")
    r = await svc.open_table(here, alice, "pebbles")
    assert r.ok and r.text.startswith("Alice opened a table.\n**Pebbles** — table open in this channel.")
    assert err(await svc.open_table(here, alice, "pebbles")).startswith(
        "In questo canale c’è già una partita a Pebbles in sala d’attesa.")
    assert err(await svc.set_option(here, alice, "rounds", "9")) == \
        "L’opzione 'rounds' può valere 1, 2, 3, 4, 5; non '9'."          # the engine's refusal, translated
    assert err(await svc.set_option(here, alice, "rounds", "tre")) == "'tre' non è un numero intero."
    assert (await svc.join(here, bob)).text.startswith("Bob joined.")
    assert err(await svc.start(here, bob)) == "Only the host (Alice) can start the game."
    r = await svc.start(here, alice)
    assert "Pebbles begins! Seat order: Alice, Bob." in r.text and "Waiting for Alice, Bob to choose." in r.text
    old = r.version
    prompt = await svc.prompt(here, alice)
    assert prompt.private[0].text == "Le tue scelte: bid 1; bid 2; bid 3"
    assert err(await svc.act(here, cy, "bid 1")).startswith("Non giochi in questa partita")
    r = await svc.act(here, alice, "bid 3")
    assert r.ok and "Bob to play." in r.text
    stale = await svc.act(here, alice, "bid 1", version=old)
    assert err(stale) == ("La partita è andata avanti da quel messaggio; ecco a che punto è. "
                          "Tocca a Bob.")
    assert err(await svc.hint(here, cy)) == "I suggerimenti sono per chi gioca questa partita."
    assert err(await svc.history(here, alice, page=5)) == \
        "La cronologia ha 1 pagina; chiedi la pagina 1."
    history = await svc.history(here, alice)
    assert history.private[0].text.startswith("Cronologia di **Pebbles** — pagina 1 di 1")
    settings = await svc.change_settings("g", alice, False)
    assert err(settings) == "Solo i membri che possono gestire questo server possono cambiarne le impostazioni."


async def test_notices_in_the_servers_language_direct_messages_in_each_users(svc, store, clock):
    alice, bob = User("111", "Alice"), User("222", "Bob")
    await store.remember_locale("guild:g", "it")
    await store.remember_locale("user:111", "it")
    await store.remember_locale("user:222", "en")
    await started(svc, alice, bob)                      # both bid at once: both are awaited
    await svc.set_notify(alice, True)
    await svc.set_notify(bob, True)
    clock.now += 4 * H + 1
    [reminder] = await svc.due()
    assert reminder.reply.text == "⏰ Promemoria: Alice, Bob — Pebbles è in attesa da 4 ore."
    dms = {p.user: p.text for p in reminder.dm}
    assert dms == {"111": "⏰ Tocca a te in Pebbles (in attesa da 4 ore).",
                   "222": "⏰ It is your move in Pebbles (waiting 4 hours)."}
    clock.now += 20 * H
    notices = [n for n in await svc.due() if n.reply.offer is not None]
    assert len(notices) == 1
    offer = notices[0]
    assert offer.reply.text.startswith("⌛ Alice, Bob non gioca da 24 ore.")
    assert {p.user: p.text for p in offer.dm} == {
        "111": "⌛ Il tuo turno in Pebbles ha superato la scadenza; ora gli altri possono saltarti.",
        "222": "⌛ Your turn in Pebbles is past its deadline; the others may now skip you."}


async def test_a_skip_past_the_deadline_in_the_servers_language(svc, store, clock):
    """The log keeps English; the channel reads its lines in Italian."""
    alice, bob = User("111", "Alice", "it"), User("222", "Bob", "it")
    here = Where("chan", guild="g", locale="it")
    await started(svc, alice, bob, where=here)
    await svc.act(here, alice, "bid 1")
    clock.now += 25 * H
    await svc.due()
    r = await svc.skip(here, alice, "222")
    assert r.ok
    assert r.text.startswith("Bob ha mancato la scadenza; Alice ha saltato il turno: il computer ha giocato "
                             "al suo posto.")
    assert r.text.endswith("\nTocca ad Alice.")
    assert err(await svc.remove(here, bob, "111")) == "Alice ha ancora 24 ore prima della scadenza del turno."
    assert err(await svc.skip(here, alice, "111")) == "Sei tu: fai semplicemente la tua mossa."
    row = await store.open_game("chan")
    lines = [e.line for e in await store.log(row.id)]
    assert all("computer ha" not in line for line in lines)          # stored in English


def test_engine_and_service_lines_translate():
    game = GAMES["pebbles"]
    with i18n.speaking("it"):
        assert i18n.line(game.players_message()) == "Pebbles si gioca da 2 a 4 giocatori."
        assert i18n.line("111 took back their last move.") == "111 ha ripreso la sua ultima mossa."
        assert i18n.line("111 was removed from the game; a computer plays the seat.") == \
            "111 è stato rimosso dalla partita; il suo posto lo gioca il computer."
        summary = summary_text("Pebbles", {"to_act": ["111"]}, scores={"111": 3, "222": 2})
        assert i18n.line(summary) == "Pebbles. Punteggi: 111 3, 222 2. Tocca a 111."
        over = summary_text("Pebbles", {"result": {"winners": ["111", "222"]}})
        assert i18n.line(over) == "Pebbles. Partita finita: 111 e 222 si dividono la vittoria."
        assert i18n.line(hint_text(Stats([("keep", 40, 0.625), ("reroll", 20, 0.4)], 60))) == (
            "💡 Il livello difficile giocherebbe **keep** (vince in circa il 62% di 40 simulazioni), davanti a "
            "**reroll** (40% di 20).")
        try:
            game.check_options({"colour": "red"})
        except IllegalAction as e:
            assert i18n.illegal(e) == "Pebbles non ha l’opzione 'colour' (opzioni: rounds)."
    assert i18n.line(game.players_message()) == "Pebbles is for 2 to 4 players."     # English by default


def test_every_table_sentence_has_its_italian():
    tools = pytest.importorskip("tools.i18n_catalogs")
    assert tools.problems(["table"]) == []
