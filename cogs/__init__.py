"""Discord front end: each module with a ``setup`` is a cog loaded by the bot (cogs.runner)."""
