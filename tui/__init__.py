"""memkeeper.tui — the Textual curation desk and the memkeeper command line."""
