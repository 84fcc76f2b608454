"""What a statement says, in pieces two statements can be compared on (SPEC §5.1).

Pure: a text in, an `Analysis` out; no clock, no file other than the package's word lists. `analyze` splits a
statement into tokens and clauses and reads:

- **typed value slots**: clock times, weekdays and parts of the day, dates (partial: "the 14th", "December 2025",
  "Q3", "mid-2027"), durations, frequencies, quantities with units (and rates: "300 requests a minute"), versions
  ("Python 3.12", "v2"), members of exclusive value classes (log levels, languages, databases, time zones, ...),
  places ("the third floor", "room 204", "the shed") and addresses (e-mail, URL, channel). Each value knows its
  clause, whether it is a bound ("by 05:00", "up to 3 days") or approximate ("about 08:15"), whether a negation
  covers it, and its role in "from X to Y";
- **names**: people, teams, products and other proper nouns ("Aiko Tanaka", "Harper & Co", "LaunchDarkly",
  "OPS-412");
- **polarity**: the terms a negation covers ("does not use X", "never", "X-free", "rather than Y", "intolerant"),
  and states with two poles ("up"/"down", "accepted"/"rejected", "supported"/"deprecated");
- **change cues** ("no longer", "switched", "moved from X to Y") and **hedges** ("I think", "apparently");
- **terms**: stemmed content words with a weight, what `subjects.py` compares.

Word lists and value classes live in `data/relations.toml`; nothing here names a particular statement.

The modules, bottom up: `lexicon` (the word lists, `fold`, `stem`), `markdown` (a note's blocks as plain text),
`tokens` (tokens, sentences and clauses, phrase lookups), `values` (the `Value` record and what every value reader shares), the value readers `when`
(clock times, parts of the day, weekdays, dates, frequencies), `quantities` (quantities, durations, rates, labels,
versions) and `enums` (class members, places), `names`, `polarity` (negation scopes, states, change cues), and
`analysis`, which runs them in order and gathers the `Analysis`. Other modules import from the package, not from
its modules.
"""

from .analysis import Analysis, analyze
from .lexicon import Lexicon, fold, lexicon, spellings, stem
from .names import Name
from .polarity import State
from .tokens import Tok, tokenize
from .values import Value

__all__ = [
    "Analysis",
    "Lexicon",
    "Name",
    "State",
    "Tok",
    "Value",
    "analyze",
    "fold",
    "lexicon",
    "spellings",
    "stem",
    "tokenize",
]
