"""One module per pane (SPEC §6): browse, conflicts, verify, quiz, tiers, receipts."""
