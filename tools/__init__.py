"""Development tools: run from the repository's root (``python -m tools.<name>``), never imported by the bot."""
