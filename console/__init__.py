"""The console table: a front end beside Discord's (``cogs/``) on the same table service, for a terminal or a
script. ``python bot.py`` opens it when no Discord token is set."""
