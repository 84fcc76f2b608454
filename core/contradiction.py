"""Contradiction detection between two memory statements (SPEC §5.1).

Pure and deterministic: no I/O at import, no mutable module state, no UI. `load_fixture` (reading a labelled file) and
`main` (the bench entry point) are the only functions that touch the file system.

Pipeline of `classify_pair(existing, incoming)`
------------------------------------------------
1. **Related?** (`is_related`) Same canonical key (both non-empty, compared case-insensitively), *or* "about the same
   thing": token Jaccard >= 0.5, computed twice and accepted if either passes —
   * on `text.token_set` (the plain spec measure), and
   * on **frame tokens**: content tokens lightly stemmed and alias-folded ("uses"/"use", "PostgreSQL"/"Postgres"),
     with polarity words (negations, always/never, "no longer", "now"...) and numeric/temporal values (amounts,
     clock times, dates, weekdays, months, quarters, versions) removed. Without this, the spec's own examples
     "uses Postgres"/"does not use Postgres" and "Budget $50k"/"Budget $80k" would never be compared. Named values
     (Postgres, Vercel...) stay in the frame, so "DB is Postgres"/"DB is MySQL" is related only through a shared key.
   Unrelated pairs return `unrelated`.
2. **Analysis** of each statement into clauses. A clause is negated when it holds an odd number of negation cues:
   `text.NEGATIONS`, other n't-contractions, "no longer", negative verbs (skip, drop, remove, deprecate...),
   antonyms that are folded into "not <base>" (disabled -> not enabled, optional -> not required,
   dislikes -> not prefers). Rejected alternatives open a negated clause of their own: "X over Y" after a preference
   verb, "X instead of Y", "X rather than Y", "X, not Y", "replace X with Y", "move from X to Y". Quantity-bound idioms
   ("no more than", "not later than", "not only") are not negations.
   Values are typed: quantities (number + unit/suffix/currency/counted noun, ranges, thousands separators, decimals,
   number words; units are normalised: 2 weeks == 14 days, 1 TB == 1,000 GB, 1.2 s == 1,200 ms, rates per second),
   clock times (2pm == 14:00), dates, weekdays, months, quarters, versions ("Python 3.11"), names from a small
   gazetteer of interchangeable alternatives (databases, clouds, CI systems, package managers, tabs/spaces, ...),
   and generic proper names / identifiers (capitalised mid-sentence, CamelCase, letters+digits).
3. **Signals**, checked in this order:
   * `direct_negation` — a clause of one statement and a clause of the other have opposite polarity and make the
     same claim: they share at least two words ("use" + "postgres") or one clause contains the other. A shared
     subject alone is not enough ("signup is no longer open" vs "signup is invite-only"), nor is a negation about a
     different value ("don't deploy Friday" vs "deploy Monday"), nor a bound on a different number. When the pair is
     related only by wording (no shared key) and each clause also talks about something the other does not ("the
     public API has a limit" vs "the internal API has no limit"), the flip is not trusted either.
   * `quantitative_drift` — compatible quantities (same dimension after unit normalisation) are paired one-to-one,
     closest first; drift = |a - b| / min(|a|, |b|), symmetric, so "differs by more than 20%" holds from either side.
     Percentages are also compared on their remainder (99.9% vs 99.5% uptime = 0.1% vs 0.5% downtime; 80% vs 90%
     coverage), which is how people read them. Drift > 0.20 is a conflict; <= 0.20 is a restatement.
   * `mutually_exclusive` — each side affirms a value the other does not mention, and both values are of the same
     type (two databases, two weekdays, two clock times, two versions of the same thing), or at least one is a
     generic name in an otherwise identical frame. Without a shared key the frames must match: at most one side may
     carry extra non-value words.
4. **Precedence** (first match wins):

       decision_supersession > direct_negation > quantitative_drift > mutually_exclusive > source_disagreement

   * `decision_supersession` comes first because it describes the situation the person has to arbitrate: both
     records are decisions for the same key and the new one differs (by any signal above, or by divergent content).
     The reason string still names the underlying signal ("new decision replaces the active one: values differ: ...").
   * Content signals come next, most specific first.
   * `source_disagreement` is the fallback: same key, different non-empty `source_ref`s, and content that diverges
     without a more specific signal. Diverging means each side *asserts* substantive words the other lacks (a negated
     aside such as "don't deploy Friday" competes with nothing) and either they share less than half of their
     substantive words or each side brings its own value. Two texts that share a precise anchor (an agreeing
     quantity, a clock time, a date, a URL) and bring no competing value are paraphrases, not a disagreement.
     Nearly every capture has its own source, so ranking this type higher would swallow every other type.
5. Everything else that is related is a **restatement** (the engine consolidates): same polarity and values, a
   paraphrase, a reordering, drift within 20%, or additive compatible detail ("Use Postgres" / "Use Postgres 16 with
   pgvector"). Divergent content with the same source (or no sources) and no signal is also a restatement: the
   detector only claims a conflict it can name.

`evaluate`, `format_report` and `load_fixture` measure the detector on a labelled fixture
(`tests/core/fixtures/conflict_pairs.jsonl`); `python -m memkeeper.core.contradiction [fixture]` prints the table and
the misclassified pairs, for `make bench`.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .text import NEGATIONS, STOPWORDS, ascii_fold, jaccard, token_set
from .text import stem as _stem

CONFLICT_TYPES = (
    "direct_negation",
    "mutually_exclusive",
    "quantitative_drift",
    "decision_supersession",
    "source_disagreement",
)
RELATIONS = ("unrelated", "restatement", *CONFLICT_TYPES)

RELATED_JACCARD = 0.5  # SPEC §5.1 "about the same thing"
DRIFT_THRESHOLD = 0.20  # SPEC §5.1: more than 20% is a conflict, up to 20% consolidates
DIVERGENCE_JACCARD = 0.5  # below this share of substantive words, two claims for one key say different things


@dataclass(frozen=True)
class Statement:
    text: str  # the memory content (title may be prepended by the caller)
    category: str = "fact"  # preference|project|decision|direction|fact|insight|lesson|milestone|commitment|...
    canonical_key: str | None = None
    source_ref: str | None = None


@dataclass(frozen=True)
class PairVerdict:
    relation: str  # "unrelated" | "restatement" | one of CONFLICT_TYPES
    reason: str  # short human-readable explanation


# --------------------------------------------------------------------------------------------------------------------
# Lexicon. General vocabulary, not fitted to particular sentences: sets of interchangeable alternatives (two members of
# one class in the same frame exclude each other), aliases, and polarity vocabulary.
# --------------------------------------------------------------------------------------------------------------------

_WEEKDAYS = {
    "monday": "monday", "mon": "monday", "tuesday": "tuesday", "tue": "tuesday", "tues": "tuesday",
    "wednesday": "wednesday", "wed": "wednesday", "thursday": "thursday", "thu": "thursday", "thur": "thursday",
    "thurs": "thursday", "friday": "friday", "fri": "friday", "saturday": "saturday", "sat": "saturday",
    "sunday": "sunday", "sun": "sunday",
}
_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
# Abbreviations that are also ordinary words only count when capitalised ("Sun", "Sat", "Mar", "May").
_AMBIGUOUS_CALENDAR = frozenset({"mon", "sun", "sat", "wed", "mar", "may", "jan", "dec", "oct", "aug"})

_VALUE_CLASSES: dict[str, str] = {
    "datastore": "postgres mysql mariadb sqlite mongodb dynamodb cockroachdb cassandra clickhouse snowflake bigquery "
    "redshift duckdb firestore supabase planetscale neon redis memcached valkey elasticsearch opensearch",
    "language": "python golang rust typescript javascript java kotlin swift ruby php csharp cpp scala elixir haskell "
    "clojure dart lua zig",
    "runtime": "nodejs deno bun",
    "ui_framework": "react vue angular svelte sveltekit solidjs nextjs nuxt remix astro htmx react_native flutter "
    "ember",
    "backend_framework": "django flask fastapi rails express nestjs spring laravel phoenix",
    "hosting": "aws gcp azure vercel netlify flyio heroku render railway digitalocean cloudflare hetzner linode "
    "cloud_run app_engine",
    "orchestrator": "kubernetes nomad ecs docker_swarm",
    "ci": "github_actions gitlab_ci circleci jenkins travis buildkite drone teamcity",
    "js_package_manager": "npm yarn pnpm bun",
    "py_package_manager": "pip poetry uv pipenv conda pdm rye hatch",
    "system_package_manager": "homebrew nix apt macports chocolatey",
    "test_framework": "jest vitest mocha jasmine pytest unittest rspec minitest",
    "e2e_framework": "playwright cypress selenium puppeteer",
    "editor": "vscode vim neovim emacs intellij pycharm webstorm cursor zed sublime helix",
    "os": "macos linux windows ubuntu debian fedora",
    "channel": "slack email discord microsoft_teams zoom google_meet whatsapp telegram",
    "tracker": "jira linear github_issues trello asana shortcut clickup",
    "wiki": "notion confluence google_docs coda",
    "vcs_host": "github gitlab bitbucket",
    "queue": "kafka rabbitmq sqs nats pubsub kinesis",
    "orm": "prisma drizzle sqlalchemy typeorm sequelize django_orm activerecord",
    "css": "tailwind bootstrap css_modules styled_components sass",
    "state": "redux zustand mobx jotai recoil pinia vuex",
    "api_style": "rest graphql grpc trpc",
    "auth_provider": "auth0 clerk cognito firebase_auth keycloak okta",
    "observability": "datadog sentry grafana prometheus new_relic honeycomb loki",
    "llm": "claude gpt-4 gpt-4o gemini llama mistral",
    "lint_format": "prettier biome eslint black ruff flake8 pylint",
    "payments": "stripe paddle braintree paypal lemonsqueezy",
    "email_provider": "sendgrid postmark mailgun ses resend",
    "object_storage": "s3 gcs r2",
    "analytics": "posthog mixpanel amplitude google_analytics plausible",
    "shell": "bash zsh fish",
    "design_tool": "figma sketch penpot",
    "indentation": "tabs spaces",
    "case_style": "snake_case camelcase pascalcase kebab-case",
    "quote_style": "single_quotes double_quotes",
    "theme": "dark_mode light_mode",
    "daypart": "morning afternoon evening night",
    "frequency": "hourly daily nightly weekly biweekly monthly quarterly yearly",
    "work_location": "remote onsite hybrid",
    "merge_strategy": "squash rebase merge_commit",
    "branching": "trunk_based gitflow",
    "repo_layout": "monorepo polyrepo",
    "git_branch": "main master develop trunk",
    "rendering": "ssr csr ssg",
    "license": "mit apache gpl agpl bsd",
    "timezone": "utc gmt cet cest est edt pst pdt pt et ist jst bst aest pacific",
    "quarter": "q1 q2 q3 q4",
    "reldate": "today tomorrow tonight yesterday eod eow eom next_week next_month this_week this_month",
}


def _class_index() -> dict[str, frozenset[str]]:
    index: dict[str, frozenset[str]] = {day: frozenset({"weekday"}) for day in _WEEKDAYS.values()}
    for cls, members in _VALUE_CLASSES.items():
        for member in members.split():
            index[member] = index.get(member, frozenset()) | {cls}  # bun is a runtime and a package manager
    return index


_CLASS_OF = _class_index()

# Gazetteer members that are also everyday English words: they only count as a value when capitalised.
_CASE_SENSITIVE = frozenset(
    "rest render railway linear shortcut cursor express spring remix black bun drone swift zoom fish "
    "pt et est ist bst mit sketch coda loki neon helix zed dart ember astro mocha resend rye hatch".split()
)

# Multi-word names and spelling variants folded into one canonical token before tokenising.
_PHRASE_ALIASES: tuple[tuple[str, str], ...] = (
    (r"github actions", "github_actions"), (r"gitlab ci", "gitlab_ci"), (r"circle ?ci", "circleci"),
    (r"travis ci", "travis"), (r"google cloud run|cloud run", "cloud_run"),
    (r"google cloud(?: platform)?", "gcp"), (r"amazon web services", "aws"),
    (r"digital ?ocean", "digitalocean"), (r"fly\.io|fly io", "flyio"),
    (r"app engine", "app_engine"), (r"cloudflare (?:workers|pages)", "cloudflare"),
    (r"visual studio code|vs ?code", "vscode"), (r"microsoft teams|ms teams", "microsoft_teams"),
    (r"google meet", "google_meet"), (r"google docs", "google_docs"), (r"github issues", "github_issues"),
    (r"react native", "react_native"), (r"next\.?js", "nextjs"), (r"nuxt\.?js", "nuxt"), (r"vue\.?js", "vue"),
    (r"node\.?js", "nodejs"), (r"solid\.?js", "solidjs"), (r"redux toolkit", "redux"),
    (r"styled[- ]components", "styled_components"), (r"css modules", "css_modules"), (r"new relic", "new_relic"),
    (r"grafana loki", "loki"), (r"google analytics", "google_analytics"), (r"firebase auth", "firebase_auth"),
    (r"django orm", "django_orm"), (r"docker swarm", "docker_swarm"), (r"ruby on rails", "rails"),
    (r"c#", "csharp"), (r"c\+\+", "cpp"), (r"postgresql|postgre", "postgres"), (r"mongo", "mongodb"),
    (r"amazon s3|aws s3", "s3"), (r"gpt[- ]4o", "gpt-4o"), (r"gpt[- ]4", "gpt-4"),
    (r"dark (?:mode|theme)", "dark_mode"), (r"light (?:mode|theme)", "light_mode"),
    (r"single quotes?", "single_quotes"), (r"double quotes?", "double_quotes"),
    (r"snake case", "snake_case"), (r"camel ?case", "camelcase"), (r"pascal ?case", "pascalcase"),
    (r"kebab case", "kebab-case"), (r"trunk[- ]based(?: development)?", "trunk_based"), (r"git ?flow", "gitflow"),
    (r"merge commits?", "merge_commit"), (r"squash(?:[- ]and)?[- ]merg(?:es?|ing)", "squash"),
    (r"rebase[- ]merg(?:es?|ing)", "rebase"),
    (r"every other week|every (?:two|2) weeks|fortnightly|bi-?weekly", "biweekly"),
    (r"every (?:single )?day", "daily"), (r"every night", "nightly"), (r"every week", "weekly"),
    (r"every month", "monthly"), (r"every quarter", "quarterly"), (r"every year|annually", "yearly"),
    (r"on[- ]site|in[- ](?:the )?office", "onsite"), (r"pull requests?", "pull_request"),
    (r"end[- ]to[- ]end", "e2e"), (r"on call", "on-call"), (r"stand[- ]ups?", "standup"),
    (r"24/7|round[- ]the[- ]clock|around the clock", "round_the_clock"), (r"1:1s?|one[- ]on[- ]ones?", "one_on_one"),
    (r"server[- ]side", "server_side"), (r"client[- ]side", "client_side"),
    (r"next week", "next_week"), (r"next month", "next_month"), (r"this week", "this_week"),
    (r"this month", "this_month"), (r"end of (?:the )?day", "eod"), (r"end of (?:the )?week", "eow"),
    (r"sign[- ]?off", "approval"),
)
_PHRASE_RE = [(re.compile(rf"(?<![\w.]){pat}(?![\w])", re.IGNORECASE), repl) for pat, repl in _PHRASE_ALIASES]

# Single-word synonyms (applied before stemming) so paraphrases meet on one term.
_SYNONYMS = {
    "db": "database", "dbs": "database", "k8s": "kubernetes", "prod": "production", "repo": "repository",
    "repos": "repository", "env": "environment", "envs": "environment", "config": "configuration",
    "configs": "configuration", "docs": "documentation", "js": "javascript", "ts": "typescript", "py": "python",
    "pr": "pull_request", "prs": "pull_request", "auth": "authentication", "infra": "infrastructure",
    "req": "request", "reqs": "request", "msg": "message", "msgs": "message", "pkg": "package", "pkgs": "package",
    "deps": "dependency", "perf": "performance", "like": "prefer", "likes": "prefer", "liked": "prefer",
    "favor": "prefer", "favors": "prefer", "favour": "prefer", "favours": "prefer", "favored": "prefer",
    "prefers": "prefer", "preferred": "prefer", "preference": "prefer", "preferences": "prefer", "loves": "prefer",
    "love": "prefer", "reachable": "accessible", "front-end": "frontend", "back-end": "backend",
    "e-mail": "email", "emails": "email", "approve": "approval", "approved": "approval", "approves": "approval",
    "golang": "golang", "mins": "minute", "secs": "second", "hrs": "hour",
}

# Words that mean "not <base>": folded so that "disabled" contradicts "enabled".
_ANTONYMS = {
    "disable": "enable", "disabled": "enable", "disables": "enable", "disabling": "enable",
    "disallow": "allow", "disallowed": "allow", "disallows": "allow", "forbid": "allow", "forbids": "allow",
    "forbidden": "allow", "prohibit": "allow", "prohibited": "allow", "prohibits": "allow", "ban": "allow",
    "bans": "allow", "banned": "allow", "exclude": "include", "excluded": "include", "excludes": "include",
    "optional": "required", "unavailable": "available", "inaccessible": "accessible", "unreachable": "accessible",
    "unsupported": "support", "dislike": "prefer", "dislikes": "prefer", "hate": "prefer", "hates": "prefer",
    "unencrypted": "encrypted", "unpaid": "paid", "private": "public", "closed": "open",
}

# Negation cues: text.NEGATIONS plus verbs whose object is "not done any more" and spelling variants.
_NEGATION_CUES = frozenset(NEGATIONS) | frozenset(
    "nobody nowhere none nothing neither nor never without cannot dont doesnt didnt isnt arent wasnt werent cant "
    "couldnt shouldnt wouldnt hasnt havent hadnt mustnt neednt stops stopping avoids avoided avoiding skip skips "
    "skipped skipping drop drops dropped dropping remove removes removed removing ditch ditched abandon abandoned "
    "deprecate deprecated deprecates refuse refuses refused reject rejects rejected exempt exempted lack lacks lacking "
    "strip strips stripped stripping omit omits omitted omitting redact redacts redacted delete deletes deleted".split()
)
_COMPARATIVES = frozenset("more less later earlier fewer greater higher lower longer sooner bigger smaller".split())
_PARTICLES = frozenset({"no", "not", "never"})
_OFF_AFTER = frozenset(
    "is are was were be been stays stay turned turn turns switched switch toggled kept keep left set".split()
)
_PREFER_VERBS = frozenset({"prefer", "choose", "chose", "pick", "picked", "want", "wants", "use", "uses"})
_CLAUSE_WORDS = frozenset(
    "but however although though whereas so because since unless except while whilst then if".split()
)
_CONTRAST_END = frozenset("in on at for with to from by during within across via when where after before until".split())
_MOVE_VERBS = frozenset("switch switched switching move moved moving migrate migrated migrating transition "
                        "transitioned port ported".split())
_REPLACE_VERBS = frozenset({"replace", "replaced", "replaces", "replacing", "swap", "swapped"})

# Words that carry no claim of their own: modality, tense, "decision:" markers, light verbs, change verbs, hedges.
_FILLER_WORDS = frozenset(
    """
    always usually generally typically normally currently now still anymore longer yet already really actually
    definitely strictly please basically mostly decision decisions decide decided decides agreed agree settled going
    gonna will shall should must need needs needed keep keeps kept stay stays remain remains use uses used using
    utilize utilise have has get gets go goes make makes follow follows prefer want wants every each new moved move
    moves switch switched switches change changed changes default possible where when whenever approximately approx
    around roughly nearly almost under below above over less fewer more least max maximum min minimum target targets
    set instead anyway etc happen happens happening done everything something stuff thing things way ok okay lot
    next last coming following once even
    """.split()
)
# Polarity/change words dropped from the relatedness frame (they are how a contradiction is phrased, not its topic).
_FRAME_DROP_WORDS = frozenset(
    "always usually sometimes often rarely generally never now currently anymore longer still yet instead next last "
    "coming following this even approximately approx around roughly nearly almost".split()
)
_TEMPORAL_CLASSES = frozenset({"time", "date", "dom", "year", "weekday", "month", "quarter", "reldate", "version"})
# Values precise enough that sharing one means two statements are about the same fact.
_ANCHOR_CLASSES = _TEMPORAL_CLASSES | {"address"}

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "ninety": 90, "hundred": 100, "dozen": 12,
}

_SECONDS = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001,
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
    "w": 604800, "wk": 604800, "wks": 604800, "week": 604800, "weeks": 604800,
    "mo": 2629800, "month": 2629800, "months": 2629800,
    "y": 31557600, "yr": 31557600, "yrs": 31557600, "year": 31557600, "years": 31557600,
}
_BYTES = {
    "b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "pb": 1e15,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "mm": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp"}
_CURRENCY_WORDS = {
    "usd": "usd", "dollar": "usd", "dollars": "usd", "eur": "eur", "euro": "eur", "euros": "eur",
    "gbp": "gbp", "pound": "gbp", "pounds": "gbp",
}
_PERCENT_WORDS = frozenset({"%", "percent", "pct", "per cent"})
_RATE_SHORTHANDS = {"rps": ("n:request", 1), "qps": ("n:query", 1), "rpm": ("n:request", 60)}

# --------------------------------------------------------------------------------------------------------------------
# Tokenising and light stemming
# --------------------------------------------------------------------------------------------------------------------

_SCAN = re.compile(
    r"""
     (?P<date>\b\d{4}-\d{1,2}-\d{1,2}\b)
    |(?P<time>\b(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\b\.?)?
              |\b(?:1[0-2]|0?[1-9])\s?[ap]\.?m\b\.?
              |\bnoon\b|\bmidnight\b)
    |(?P<num>(?:[$€£]\s?)?\d+(?:,\d{3})*(?:\.\d+)?(?:\s?[-\u2013]\s?\d+(?:,\d{3})*(?:\.\d+)?)?(?:\s?%|[a-zA-Z]+\b)?)
    |(?P<ident>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://[^\s,;()]+)
    |(?P<word>[A-Za-z][A-Za-z0-9]*(?:[.'_/+#-][A-Za-z0-9]+)*[+#]*'?)
    |(?P<slash>/)
    |(?P<punct>[,;:!?()\[\]{}"]|\.(?!\w)|\s[-\u2013—]\s)
    """,
    re.VERBOSE,
)
_SENTENCE_END = frozenset({".", "!", "?", ":", ";"})
_NUM_BODY = re.compile(r"^([$€£])?\s?(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s?[-\u2013]\s?(\d+(?:,\d{3})*(?:\.\d+)?))?(.*)$")

@dataclass(frozen=True)
class _Tok:
    term: str  # canonical comparison term (stemmed for ordinary words, canonical value for typed values)
    surface: str  # lower-cased word as written, for reasons
    clause: int
    classes: frozenset[str]  # value types; empty for ordinary words


@dataclass(frozen=True)
class _Qty:
    value: float
    dim: str  # "usd", "%", "s", "bytes", "n:<noun>", "num", optionally "/<per>"
    text: str
    clause: int


@dataclass(frozen=True)
class _Analysis:
    toks: tuple[_Tok, ...]
    qtys: tuple[_Qty, ...]
    negated: tuple[bool, ...]  # per clause

    def polarity(self, clause: int) -> bool:
        """True when the clause is asserted (even number of negation cues)."""
        return not self.negated[clause]

    @property
    def terms(self) -> frozenset[str]:
        return frozenset(t.term for t in self.toks)

    @property
    def substantive(self) -> frozenset[str]:
        return frozenset(t.term for t in self.toks if not _is_filler(t))

    @property
    def frame(self) -> frozenset[str]:
        """Topic words for relatedness: no polarity/hedge words, no numeric or temporal values."""
        return frozenset(
            t.term
            for t in self.toks
            if not t.classes & _TEMPORAL_CLASSES
            and t.surface not in _FRAME_DROP_WORDS
            and t.term not in _FRAME_DROP_STEMS
        )

    @property
    def asserted(self) -> frozenset[str]:
        return frozenset(t.term for t in self.toks if self.polarity(t.clause))

    def affirmed_values(self) -> dict[str, _Tok]:
        return {t.term: t for t in self.toks if t.classes and self.polarity(t.clause)}


_FILLER_STEMS = frozenset(_stem(w) for w in _FILLER_WORDS)
_FRAME_DROP_STEMS = frozenset(_stem(w) for w in _FRAME_DROP_WORDS)


def _is_filler(tok: _Tok) -> bool:
    return not tok.classes and (tok.surface in _FILLER_WORDS or tok.term in _FILLER_STEMS)


class _Builder:
    """Accumulates tokens, quantities and clause polarity while walking the scanned text once."""

    def __init__(self) -> None:
        self.toks: list[_Tok] = []
        self.qtys: list[_Qty] = []
        self.neg_counts: list[int] = [0]
        self.pending_close: str | None = None  # word that ends a rejected-alternative clause ("with", "to")
        self.in_contrast = False  # inside "over Y" / "instead of Y" / "rather than Y"

    @property
    def clause(self) -> int:
        return len(self.neg_counts) - 1

    def new_clause(self, negated: bool = False) -> None:
        if self.neg_counts[-1] or any(t.clause == self.clause for t in self.toks) or any(
            q.clause == self.clause for q in self.qtys
        ):
            self.neg_counts.append(0)
        self.neg_counts[-1] += 1 if negated else 0

    def negate(self) -> None:
        self.neg_counts[-1] += 1

    def add(self, term: str, surface: str, classes: frozenset[str] = frozenset()) -> None:
        self.toks.append(_Tok(term, surface, self.clause, classes))

    def clause_words(self) -> list[str]:
        return [t.surface for t in self.toks if t.clause == self.clause]


def _fold_aliases(text: str) -> str:
    for pattern, repl in _PHRASE_RE:
        text = pattern.sub(repl, text)
    return text


def _scan(text: str) -> list[tuple[str, str]]:
    """(kind, raw) items in order; kind is date|time|num|ident|word|slash|punct."""
    # ascii_fold would spell € as "EUR" and £ as "PS"; keep the symbols so amounts keep their currency
    pieces = re.split(r"([€£])", text)
    folded = _fold_aliases("".join(p if p in ("€", "£") else ascii_fold(p) for p in pieces).replace("\u2019", "'"))
    out: list[tuple[str, str]] = []
    for m in _SCAN.finditer(folded):
        kind = m.lastgroup or ""
        raw = m.group(kind)
        if kind == "word" and "/" in raw:
            parts = raw.split("/")
            for i, part in enumerate(parts):
                if i:
                    out.append(("slash", "/"))
                if part:
                    out.append(("word", part))
            continue
        out.append((kind, raw.strip() if kind != "punct" else raw.strip() or "-"))
    return out


def _time_minutes(raw: str) -> int:
    s = raw.lower().replace(".", "").replace(" ", "")
    if s == "noon":
        return 12 * 60
    if s == "midnight":
        return 0
    suffix = s[-2:] if s.endswith(("am", "pm")) else ""
    body = s[:-2] if suffix else s
    hh, _, mm = body.partition(":")
    hour, minute = int(hh), int(mm or 0)
    if suffix == "pm" and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    return hour * 60 + minute


def _value_classes(lower: str, raw: str, initial: bool) -> frozenset[str]:
    """Value type(s) of a word, or empty. `initial`: first word of a sentence, where capitals prove nothing."""
    if lower in _CLASS_OF and (lower not in _CASE_SENSITIVE or raw[:1].isupper()):
        return _CLASS_OF[lower]
    singular = lower.removesuffix("s")
    if singular in _WEEKDAYS and (singular not in _AMBIGUOUS_CALENDAR or raw[:1].isupper()):
        return frozenset({"weekday"})
    if singular in _CLASS_OF and singular in {"morning", "afternoon", "evening", "night"}:
        return _CLASS_OF[singular]
    if lower in _MONTHS and (lower not in _AMBIGUOUS_CALENDAR or raw[:1].isupper()):
        return frozenset({"month"})
    if lower in STOPWORDS or lower in _FILLER_WORDS:
        return frozenset()
    has_digit = any(c.isdigit() for c in lower)
    has_alpha = any(c.isalpha() for c in lower)
    inner_caps = any(c.isupper() for c in raw[1:]) and any(c.islower() for c in raw)
    if has_digit and has_alpha:
        return frozenset({"name"})  # identifiers: eu-west-1, gpt-4o, ie11
    if inner_caps or (raw[:1].isupper() and not raw.isupper() and not initial):
        return frozenset({"name"})
    return frozenset()


def _canonical_value(lower: str, classes: frozenset[str]) -> str:
    singular = lower.removesuffix("s")
    if "weekday" in classes:
        return _WEEKDAYS.get(singular, _WEEKDAYS.get(lower, lower))
    if "month" in classes:
        return f"month:{_MONTHS[lower]}"
    if "daypart" in classes:
        return singular
    return lower


def _parse_number(raw: str) -> tuple[str | None, float, str] | None:
    m = _NUM_BODY.match(raw)
    if not m:
        return None
    cur, lo, hi, suffix = m.groups()
    value = float(lo.replace(",", ""))
    if hi:
        value = (value + float(hi.replace(",", ""))) / 2  # a range is read as its midpoint
    return cur, value, suffix.strip().lower()


@functools.lru_cache(maxsize=4096)  # pure and immutable; capture compares one statement with many
def _analyze(text: str) -> _Analysis:
    items = _scan(text)
    b = _Builder()
    i = 0
    sentence_start = True
    while i < len(items):
        kind, raw = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else ("", "")
        if kind == "punct":
            b.new_clause()
            b.in_contrast = False
            sentence_start = raw in _SENTENCE_END
            i += 1
            continue
        if kind == "slash":
            i += 1
            continue
        if kind == "date":
            y, mo, d = (int(p) for p in raw.split("-"))
            b.add(f"date:{mo:02d}-{d:02d}", raw, frozenset({"date"}))
            b.add(f"year:{y}", str(y), frozenset({"year"}))
            i += 1
            sentence_start = False
            continue
        if kind == "time":
            minutes = _time_minutes(raw)
            b.add(f"t:{minutes // 60:02d}:{minutes % 60:02d}", raw.lower(), frozenset({"time"}))
            i += 1
            sentence_start = False
            continue
        if kind == "ident":
            # e-mail addresses and URLs are values in their own right (sender address, webhook target)
            b.add(raw.lower().rstrip("./"), raw.lower(), frozenset({"name", "address"}))
            i += 1
            sentence_start = False
            continue
        if kind == "num":
            i = _consume_number(items, i, b)
            sentence_start = False
            continue
        # --- words
        lower = raw.lower().rstrip("'")
        initial = sentence_start
        sentence_start = False
        if lower.endswith("n't"):
            b.negate()
            lower = {"wo": "will", "ca": "can", "sha": "shall"}.get(lower[:-3], lower[:-3])
        elif "'" in lower:
            lower = lower.split("'")[0]
        nlower = nxt[1].lower().rstrip("'").removesuffix("'s") if nxt[0] == "word" else ""

        if lower == "half" and nlower in {"a", "an"}:
            i += 1  # read with the following "an hour" as 0.5 hours
            continue
        if lower in _NUMBER_WORDS or (lower in {"a", "an"} and nlower in _SECONDS and len(nlower) > 2):
            prev = items[i - 1][1].lower() if i else ""
            if not (lower in {"a", "an"} and prev in {"once", "twice", "per", "every"}):
                amount = 0.5 if prev == "half" else float(_NUMBER_WORDS.get(lower, 1))  # "half an hour"
                consumed = _consume_number(items, i, b, word_value=amount)
                if consumed != i:
                    i = consumed
                    continue
        if lower in _CLAUSE_WORDS:
            b.new_clause()
            i += 1
            continue
        if lower in {"and", "or", "nor"} and nlower in _PARTICLES | {"without"}:
            b.new_clause()  # "tabs and never spaces": the negation starts its own clause
            i += 1
            continue
        if b.in_contrast and lower in _CONTRAST_END and any(
            t.clause == b.clause and not _is_filler(t) for t in b.toks
        ):
            # "composition over inheritance | in the TypeScript code": only the alternative itself is rejected
            b.in_contrast = False
            b.new_clause()
        if (lower, nlower) in {("instead", "of"), ("rather", "than")}:
            b.new_clause(negated=True)
            b.in_contrast = True
            i += 2
            continue
        if lower == "as" and nlower == "opposed":
            b.new_clause(negated=True)
            b.in_contrast = True
            i += 3
            continue
        if lower == "over" and any(_SYNONYMS.get(w, w) in _PREFER_VERBS for w in b.clause_words()):
            b.new_clause(negated=True)
            b.in_contrast = True
            i += 1
            continue
        if lower in _REPLACE_VERBS:
            b.new_clause(negated=True)  # replace X with Y: X is the rejected value
            b.pending_close = "with"
            i += 1
            continue
        if lower == "from" and any(w in _MOVE_VERBS for w in b.clause_words()[-3:]):
            b.new_clause(negated=True)  # move from X to Y
            b.pending_close = "to"
            i += 1
            continue
        if b.pending_close and (lower == b.pending_close or (b.pending_close == "with" and lower == "by")):
            b.pending_close = None
            b.new_clause()
            i += 1
            continue
        if lower in {"no", "not"}:
            following = [w.lower() for k, w in items[i + 1 : i + 3] if k == "word"]
            if following and (following[0] in {"only", "just", "matter"} or (
                following[0] in _COMPARATIVES and len(following) > 1 and following[1] == "than")):
                i += 1
                continue
        if lower in _NEGATION_CUES or (lower == "off" and i and items[i - 1][1].lower() in _OFF_AFTER):
            b.negate()
            i += 1
            continue
        if lower in _ANTONYMS:
            b.negate()
            base = _ANTONYMS[lower]
            b.add(_stem(base), lower)
            i += 1
            continue
        if (raw == "Go" and not initial) or lower == "golang":  # "go" the verb stays a word
            b.add("golang", lower, _CLASS_OF["golang"])
            i += 1
            continue
        if lower in STOPWORDS and not (raw == "May" and (nxt[0] == "num" or not initial)):  # the month, not the modal
            i += 1
            continue
        lower = _SYNONYMS.get(lower, lower)
        classes = _value_classes(lower, raw, initial)
        if classes:
            if "month" in classes and nxt[0] == "num":
                parsed = _parse_number(nxt[1])
                if parsed and parsed[0] is None and 1 <= parsed[1] <= 31 and parsed[2] in {"", "st", "nd", "rd", "th"}:
                    b.add(f"date:{_MONTHS[lower]:02d}-{int(parsed[1]):02d}", lower, frozenset({"date"}))
                    i += 2
                    continue
            b.add(_canonical_value(lower, classes), lower, classes)
        else:
            b.add(_stem(lower), lower)
        i += 1

    negated = tuple(n % 2 == 1 for n in b.neg_counts)
    return _Analysis(tuple(b.toks), tuple(b.qtys), negated)


def _unit_of(word: str) -> tuple[str, float] | None:
    """(dimension, factor) for a unit word or glued suffix."""
    w = word.lower().rstrip(".")
    if w in _PERCENT_WORDS:
        return "%", 1.0
    if w in _SECONDS:
        return "s", float(_SECONDS[w])
    if w in _BYTES:
        return "bytes", float(_BYTES[w])
    if w in {"px", "pixel", "pixels"}:
        return "px", 1.0
    if w == "x":
        return "x", 1.0
    if w in _CURRENCY_WORDS:
        return _CURRENCY_WORDS[w], 1.0
    return None


def _consume_number(items: list[tuple[str, str]], i: int, b: _Builder, word_value: float | None = None) -> int:
    """Read a number and its unit starting at items[i]; record a quantity or a typed value. Returns the next index.

    For number words, returns `i` unchanged when no unit or counted noun follows ("one of the reasons").
    """
    raw = items[i][1]
    prev_kind, prev_raw = items[i - 1] if i else ("", "")
    if word_value is not None:
        cur, value, suffix = None, word_value, ""
    else:
        parsed = _parse_number(raw)
        if parsed is None:
            return i + 1
        cur, value, suffix = parsed
    j = i + 1
    dim: str | None = None

    def word_at(k: int) -> str:
        if k >= len(items) or items[k][0] != "word":
            return ""
        return items[k][1].lower().rstrip("'").removesuffix("'s")  # "two weeks' notice", "a month's notice"

    # glued suffix: 50k, 500ms, 16GB, 2.5%, 1st
    if suffix in {"st", "nd", "rd", "th"} and value.is_integer() and 1 <= value <= 31:
        month = word_at(j + 1) if word_at(j) == "of" else word_at(j)
        b.add(f"dom:{int(value)}", raw, frozenset({"dom"}))
        if month in _MONTHS:
            b.toks.pop()
            b.add(f"date:{_MONTHS[month]:02d}-{int(value):02d}", raw, frozenset({"date"}))
            return j + (2 if word_at(j) == "of" else 1)
        return j
    if suffix in _MULTIPLIERS or (suffix in {"m", "b"} and cur):
        value *= _MULTIPLIERS.get(suffix, 1e6 if suffix == "m" else 1e9)
        suffix = ""
    if suffix in _RATE_SHORTHANDS:
        noun, per = _RATE_SHORTHANDS[suffix]
        dim, value = f"{noun}/s", value / per
        suffix = ""
    elif suffix:
        unit = _unit_of(suffix)
        if unit is None:
            b.add(raw.lower(), raw.lower(), frozenset({"name"}))  # 3x4, 2fa: an identifier, not an amount
            return j
        dim, factor = unit
        value *= factor
    # following words: multiplier, unit, currency, counted noun
    if dim is None:
        w = word_at(j)
        if w in _MULTIPLIERS:
            value *= _MULTIPLIERS[w]
            j += 1
            w = word_at(j)
        unit = _unit_of(w) if w else None
        if unit and not (w in {"m", "s", "d", "w", "y", "b", "x"} and word_value is not None):
            dim, factor = unit
            value *= factor
            j += 1
        elif w in _RATE_SHORTHANDS:
            noun, per = _RATE_SHORTHANDS[w]
            dim, value = f"{noun}/s", value / per
            j += 1
    if cur and dim in (None, "num"):
        dim = _CURRENCY_SYMBOLS[cur]
    if dim is None:
        prev_word = prev_raw if prev_kind == "word" else ""
        prev_lower = prev_word.lower()
        is_versionish = bool(re.fullmatch(r"\d+\.\d+(?:\.\d+)+", raw)) or (
            prev_word and word_value is None and prev_lower not in STOPWORDS and prev_lower not in _FILLER_WORDS
            and (prev_word[:1].isupper() or prev_lower in _CLASS_OF or "." in raw)
        )
        if is_versionish:
            name = _SYNONYMS.get(prev_lower, prev_lower)
            b.add(f"v:{raw}", raw, frozenset({"version", f"version:{name}"}))
            return j
        if word_value is None and value.is_integer() and 1990 <= value <= 2099 and not cur:
            b.add(f"year:{int(value)}", raw, frozenset({"year"}))
            return j
        w = word_at(j)
        if w and w.isalpha() and w not in STOPWORDS and w not in _NEGATION_CUES and w not in _FILLER_WORDS:
            noun = _stem(_SYNONYMS.get(w, w))
            if w in _MONTHS and value.is_integer() and 1 <= value <= 31:
                b.add(f"date:{_MONTHS[w]:02d}-{int(value):02d}", raw, frozenset({"date"}))
                return j + 1
            dim = f"n:{noun}"
            # the noun stays a term too: "5 engineers" is about engineers
            b.add(noun, w)
            j += 1
        elif word_value is not None:
            return i  # a number word that does not count anything
        else:
            dim = "num"
    # rate or per-unit: "/min", "per hour", "a month"
    per_word = ""
    if j < len(items) and items[j][0] == "slash" and word_at(j + 1):
        per_word, j = word_at(j + 1), j + 2
    elif word_at(j) in {"per", "a", "an"} and word_at(j + 1):
        candidate = word_at(j + 1)
        if word_at(j) == "per" or candidate in _SECONDS:
            per_word, j = candidate, j + 2
    if per_word:
        if per_word in _SECONDS:
            dim, value = f"{dim}/s", value / _SECONDS[per_word]
        else:
            per_noun = _stem(_SYNONYMS.get(per_word, per_word))
            dim = f"{dim}/{per_noun}"
            b.add(per_noun, per_word)
    b.qtys.append(_Qty(value, dim, _quantity_text(items, i, j), b.clause))
    return j


def _quantity_text(items: list[tuple[str, str]], start: int, end: int) -> str:
    parts: list[str] = []
    for kind, raw in items[start:end]:
        if parts and kind != "slash" and parts[-1] != "/":
            parts.append(" ")
        parts.append(raw)
    return "".join(parts).strip()


# --------------------------------------------------------------------------------------------------------------------
# Relatedness
# --------------------------------------------------------------------------------------------------------------------


def _same_key(a: Statement, b: Statement) -> bool:
    ka = (a.canonical_key or "").strip().lower()
    kb = (b.canonical_key or "").strip().lower()
    return bool(ka) and ka == kb


def is_related(a: Statement, b: Statement) -> bool:
    """Same canonical key (both non-empty and equal) or 'about the same thing' (token Jaccard >= 0.5).

    The Jaccard is taken on the plain spec tokens and on frame tokens (see the module docstring); either suffices.
    """
    return _related(a, b, lambda: (_analyze(a.text), _analyze(b.text)))


def _related(a: Statement, b: Statement, analyses: Callable[[], tuple[_Analysis, _Analysis]]) -> bool:
    if _same_key(a, b):
        return True
    ta, tb = token_set(a.text), token_set(b.text)
    if not ta or not tb:
        return False  # text.jaccard calls two empty sets identical; an empty statement is about nothing
    if jaccard(ta, tb) >= RELATED_JACCARD:
        return True
    an_a, an_b = analyses()  # only analysed when the cheap tests fail
    fa, fb = an_a.frame, an_b.frame
    return bool(fa) and bool(fb) and jaccard(fa, fb) >= RELATED_JACCARD


# --------------------------------------------------------------------------------------------------------------------
# Signals
# --------------------------------------------------------------------------------------------------------------------


def _near(t: str, others: Iterable[str]) -> bool:
    """Term equality, tolerant of stems the light stemmer leaves apart (manager / managed, update / updates)."""
    for o in others:
        if t == o:
            return True
        short, long_ = (t, o) if len(t) <= len(o) else (o, t)
        if len(short) >= 5 and long_.startswith(short):
            return True
    return False


def _unique(terms: Iterable[str], other: frozenset[str]) -> list[str]:
    return sorted({t for t in terms if not _near(t, other)})


def _words(an: _Analysis, terms: Sequence[str], limit: int = 4) -> str:
    """The words as written for some terms, in text order (reasons are read by people, not by the matcher)."""
    wanted, seen, out = set(terms), set(), []
    for t in an.toks:
        if t.term in wanted and t.term not in seen:
            seen.add(t.term)
            out.append(t.surface)
    return " ".join(out[:limit])


def _surface_phrase(an: _Analysis, clause: int, terms: set[str]) -> str:
    return " ".join(t.surface for t in an.toks if t.clause == clause and t.term in terms)


def _clause_terms(an: _Analysis, clause: int) -> frozenset[str]:
    return frozenset(t.term for t in an.toks if t.clause == clause and t.surface not in _FRAME_DROP_WORDS)


def _opposed_clauses(a: _Analysis, b: _Analysis) -> list[tuple[int, int, frozenset[str]]]:
    """Clause pairs of opposite polarity that make the same claim: (clause in a, clause in b, shared terms).

    The same claim means at least two shared words ("use" + "postgres"), or one clause containing the other. A single
    shared subject is not enough: "signup is no longer open" does not negate "signup is invite-only".
    """
    pairs = []
    for ca in range(len(a.negated)):
        ta = _clause_terms(a, ca)
        for cb in range(len(b.negated)):
            if a.polarity(ca) == b.polarity(cb):
                continue
            tb = _clause_terms(b, cb)
            shared = ta & tb
            if not any(t for t in a.toks if t.clause == ca and t.term in shared and not _is_filler(t)):
                continue
            sub_a = {t.term for t in a.toks if t.clause == ca and not _is_filler(t)}
            sub_b = {t.term for t in b.toks if t.clause == cb and not _is_filler(t)}
            if len(shared) >= 2 or sub_a <= sub_b or sub_b <= sub_a:
                pairs.append((ca, cb, shared))
    return pairs


def _negation(a: _Analysis, b: _Analysis, same_key: bool) -> PairVerdict | None:
    for ca, cb, shared in _opposed_clauses(a, b):
        values_a = [t for t in a.toks if t.clause == ca and t.classes and t.term not in b.terms]
        values_b = [t for t in b.toks if t.clause == cb and t.classes and t.term not in a.terms]
        if any((ta.classes & tb.classes) or "name" in ta.classes | tb.classes for ta in values_a for tb in values_b):
            continue  # "don't deploy Friday" vs "deploy Monday": a different value is negated
        qa = [q for q in a.qtys if q.clause == ca]
        qb = [q for q in b.qtys if q.clause == cb]
        worst = _worst_drift(qa, qb)
        if worst is not None and worst[0] > DRIFT_THRESHOLD:
            continue  # "no more than 3 retries" vs "5 retries" is about the number, not the polarity
        if not same_key:
            extra_a = _unique({t.term for t in a.toks if t.clause == ca and not _is_filler(t)}, b.terms)
            extra_b = _unique({t.term for t in b.toks if t.clause == cb and not _is_filler(t)}, a.terms)
            if extra_a and extra_b:
                continue  # each side talks about something the other does not: likely different subjects
        positive, clause = (a, ca) if a.polarity(ca) else (b, cb)
        phrase = _surface_phrase(positive, clause, set(shared)) or " ".join(sorted(shared))
        return PairVerdict("direct_negation", f"negation of '{phrase}'")
    return None


def _drift(x: float, y: float, dim: str) -> float:
    if x == y:
        return 0.0
    low = min(abs(x), abs(y))
    rel = abs(x - y) / low if low else math.inf
    if dim == "%" and 0 <= x <= 100 and 0 <= y <= 100:
        # a share and its remainder are the same fact: 99.9% vs 99.5% uptime is 0.1% vs 0.5% downtime
        rest_low = min(100 - x, 100 - y)
        rest = abs(x - y) / rest_low if rest_low else math.inf
        rel = max(rel, rest)
    return rel


def _compatible(d1: str, d2: str) -> bool:
    if d1 == d2:
        return True
    base1, _, per1 = d1.partition("/")
    base2, _, per2 = d2.partition("/")
    if per1 != per2:
        return False
    if "num" in (base1, base2):
        return True
    return base1.startswith("n:") and base2.startswith("n:")


def _worst_drift(qa: Sequence[_Qty], qb: Sequence[_Qty]) -> tuple[float, _Qty, _Qty] | None:
    """Pair quantities one-to-one, closest first (exact dimension preferred); return the largest remaining drift."""
    candidates = sorted(
        (
            (0 if x.dim == y.dim else 1, _drift(x.value, y.value, x.dim if x.dim == y.dim else ""), ia, ib)
            for ia, x in enumerate(qa)
            for ib, y in enumerate(qb)
            if _compatible(x.dim, y.dim)
        ),
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    worst: tuple[float, _Qty, _Qty] | None = None
    for _, drift, ia, ib in candidates:
        if ia in used_a or ib in used_b:
            continue
        used_a.add(ia)
        used_b.add(ib)
        if worst is None or drift > worst[0]:
            worst = (drift, qa[ia], qb[ib])
    return worst


def _quantities(a: _Analysis, b: _Analysis, same_key: bool) -> tuple[PairVerdict | None, str | None]:
    """(drift verdict, note for a restatement reason when quantities agree)."""
    qa = [q for q in a.qtys if a.polarity(q.clause)]
    qb = [q for q in b.qtys if b.polarity(q.clause)]
    worst = _worst_drift(qa, qb)
    if worst is None:
        return None, None
    drift, x, y = worst
    if not same_key and _unique(a.substantive, b.terms) and _unique(b.substantive, a.terms):
        return None, None  # "OpenAI spend $900" vs "Vercel spend $300": two quantities, not one that moved
    if drift > DRIFT_THRESHOLD + 1e-9:
        pct = "∞" if math.isinf(drift) else f"{drift:.0%}"
        return PairVerdict("quantitative_drift", f"{x.text} vs {y.text} (differs by {pct})"), None
    return None, f"quantities agree within 20%: {x.text} vs {y.text}"


def _exclusive(a: _Analysis, b: _Analysis, same_key: bool) -> PairVerdict | None:
    va = {term: tok for term, tok in a.affirmed_values().items() if term not in b.terms}
    vb = {term: tok for term, tok in b.affirmed_values().items() if term not in a.terms}
    if not va or not vb:
        return None
    nonvalue_a = _unique({t.term for t in a.toks if not t.classes and not _is_filler(t)}, b.terms)
    nonvalue_b = _unique({t.term for t in b.toks if not t.classes and not _is_filler(t)}, a.terms)
    frames_match = not (nonvalue_a and nonvalue_b)
    for ta in sorted(va.values(), key=lambda t: t.term):
        for tb in sorted(vb.values(), key=lambda t: t.term):
            typed = (ta.classes & tb.classes) - {"name", "version"}
            if typed and (same_key or frames_match):
                return PairVerdict("mutually_exclusive", f"values differ: {ta.surface} vs {tb.surface}")
    if frames_match:
        names_a = [t for t in va.values() if "name" in t.classes or "version" in t.classes]
        names_b = [t for t in vb.values() if "name" in t.classes or "version" in t.classes]
        if names_a or names_b:
            ta = (names_a or sorted(va.values(), key=lambda t: t.term))[0]
            tb = (names_b or sorted(vb.values(), key=lambda t: t.term))[0]
            return PairVerdict("mutually_exclusive", f"values differ: {ta.surface} vs {tb.surface}")
    return None


def _divergence(a: _Analysis, b: _Analysis, numbers_agree: bool) -> str | None:
    """Why two claims for one key say different things, or None when one restates or extends the other."""
    sa, sb = a.substantive, b.substantive
    # only what a side asserts can compete: "don't deploy Friday" adds a constraint, it does not claim a value
    only_a = _unique(a.asserted & sa, b.terms)
    only_b = _unique(b.asserted & sb, a.terms)
    if not only_a or not only_b:
        return None
    values_a = any(t.classes for t in a.toks if t.term in only_a)
    values_b = any(t.classes for t in b.toks if t.term in only_b)
    shared_anchor = any(t.classes & _ANCHOR_CLASSES for t in a.toks if t.term in b.terms)
    if (numbers_agree or shared_anchor) and not (values_a or values_b):
        # same numbers, times or addresses and nothing competing: a paraphrase ("expire after 30 minutes" /
        # "time out after half an hour"), not two sources disagreeing
        return None
    if jaccard(sa, sb) < DIVERGENCE_JACCARD or (values_a and values_b):
        return f"content differs: {_words(a, only_a)} vs {_words(b, only_b)}"
    return None


def _added_detail(a: _Analysis, b: _Analysis) -> str | None:
    extra_b, extra_a = _unique(b.substantive, a.substantive), _unique(a.substantive, b.substantive)
    if extra_b:
        return f"compatible detail added: {_words(b, extra_b)}"
    return f"compatible detail added: {_words(a, extra_a)}" if extra_a else None


# --------------------------------------------------------------------------------------------------------------------
# Public classification
# --------------------------------------------------------------------------------------------------------------------


def classify_pair(existing: Statement, incoming: Statement) -> PairVerdict:
    """unrelated if not is_related; otherwise restatement (compatible -> the engine consolidates) or a conflict type."""
    a, b = _analyze(existing.text), _analyze(incoming.text)
    if not _related(existing, incoming, lambda: (a, b)):
        return PairVerdict("unrelated", "different key and less than half of the words shared")
    same_key = _same_key(existing, incoming)

    drift, agreement = _quantities(a, b, same_key)
    signal = _negation(a, b, same_key) or drift or _exclusive(a, b, same_key)
    divergence = None if signal else _divergence(a, b, numbers_agree=agreement is not None)

    both_decisions = existing.category == "decision" and incoming.category == "decision"
    if same_key and both_decisions and (signal or divergence):
        detail = signal.reason if signal else divergence
        return PairVerdict("decision_supersession", f"new decision replaces the active one: {detail}")
    if signal:
        return signal
    src_a, src_b = (existing.source_ref or "").strip(), (incoming.source_ref or "").strip()
    sources_differ = bool(src_a) and bool(src_b) and src_a != src_b
    if same_key and sources_differ and divergence:
        sources = f"{existing.source_ref} and {incoming.source_ref}"
        return PairVerdict("source_disagreement", f"{sources} disagree: {divergence}")
    reason = agreement or _added_detail(a, b) or "same claim, same polarity and values"
    return PairVerdict("restatement", reason)


# --------------------------------------------------------------------------------------------------------------------
# Measurement
# --------------------------------------------------------------------------------------------------------------------


def _ratio(num: int, den: int, vacuous: bool) -> float:
    # nothing predicted and nothing to find counts as perfect; predicting nothing when there was something counts 0
    if den:
        return num / den
    return 1.0 if vacuous else 0.0


def evaluate(pairs: list[tuple[Statement, Statement, str]]) -> dict[str, Any]:
    """Per-relation precision/recall/support, plus binary conflict detection (any conflict type vs not).

    Returns {"labels": {relation: {precision, recall, support, predicted, correct}}, "overall": {precision, recall,
    support, tp, fp, fn, tn}, "accuracy", "total", "misclassified": [{index, expected, predicted, reason, existing,
    incoming}]}.
    """
    for _, _, label in pairs:
        if label not in RELATIONS:
            raise ValueError(f"unknown relation label: {label!r}")
    verdicts = [classify_pair(e, i) for e, i, _ in pairs]
    gold = [label for _, _, label in pairs]
    pred = [v.relation for v in verdicts]

    labels: dict[str, dict[str, float | int]] = {}
    for rel in RELATIONS:
        support = sum(g == rel for g in gold)
        predicted = sum(p == rel for p in pred)
        correct = sum(g == rel and p == rel for g, p in zip(gold, pred, strict=True))
        labels[rel] = {
            "precision": _ratio(correct, predicted, vacuous=support == 0),
            "recall": _ratio(correct, support, vacuous=predicted == 0),
            "support": support,
            "predicted": predicted,
            "correct": correct,
        }
    is_conflict = [g in CONFLICT_TYPES for g in gold]
    said_conflict = [p in CONFLICT_TYPES for p in pred]
    tp = sum(g and p for g, p in zip(is_conflict, said_conflict, strict=True))
    fp = sum(p and not g for g, p in zip(is_conflict, said_conflict, strict=True))
    fn = sum(g and not p for g, p in zip(is_conflict, said_conflict, strict=True))
    tn = len(gold) - tp - fp - fn
    overall = {
        "precision": _ratio(tp, tp + fp, vacuous=tp + fn == 0),
        "recall": _ratio(tp, tp + fn, vacuous=tp + fp == 0),
        "support": tp + fn,
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
    }
    misclassified = [
        {
            "index": n, "expected": g, "predicted": v.relation, "reason": v.reason,
            "existing": e.text, "incoming": i.text,
        }
        for n, ((e, i, g), v) in enumerate(zip(pairs, verdicts, strict=True))
        if g != v.relation
    ]
    total = len(pairs)
    return {
        "labels": labels,
        "overall": overall,
        "accuracy": _ratio(total - len(misclassified), total, vacuous=True),
        "total": total,
        "misclassified": misclassified,
    }


def format_report(result: dict[str, Any]) -> str:
    """A small aligned text table of `evaluate`'s result."""
    rows = [("relation", "precision", "recall", "support")]
    for rel in RELATIONS:
        m = result["labels"][rel]
        rows.append((rel, f"{m['precision']:.2f}", f"{m['recall']:.2f}", str(m["support"])))
    o = result["overall"]
    rows.append(("any conflict (binary)", f"{o['precision']:.2f}", f"{o['recall']:.2f}", str(o["support"])))
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
        if n == 0 or n == len(rows) - 2:
            lines.append("  ".join("-" * w for w in widths))
    lines.append(f"accuracy {result['accuracy']:.2f} over {result['total']} pairs "
                 f"(conflicts: tp {o['tp']}, fp {o['fp']}, fn {o['fn']}, tn {o['tn']})")
    return "\n".join(lines)


_STATEMENT_FIELDS = frozenset({"text", "category", "canonical_key", "source_ref"})


def _statement(data: dict[str, Any], where: str) -> Statement:
    unknown = set(data) - _STATEMENT_FIELDS
    if unknown or "text" not in data:
        raise ValueError(f"{where}: a statement needs 'text' and only {sorted(_STATEMENT_FIELDS)}; got {sorted(data)}")
    return Statement(
        text=str(data["text"]),
        category=str(data.get("category") or "fact"),
        canonical_key=data.get("canonical_key"),
        source_ref=data.get("source_ref"),
    )


def load_fixture(path: str | Path) -> list[tuple[Statement, Statement, str]]:
    """Labelled pairs from JSONL (one object a line) or JSON (a list): {"existing", "incoming", "label", "note"?}."""
    p = Path(path)
    raw = p.read_text(encoding="utf-8")
    rows = json.loads(raw) if p.suffix == ".json" else [json.loads(line) for line in raw.splitlines() if line.strip()]
    pairs: list[tuple[Statement, Statement, str]] = []
    for n, row in enumerate(rows, 1):
        where = f"{p.name}:{n}"
        label = row.get("label")
        if label not in RELATIONS:
            raise ValueError(f"{where}: unknown label {label!r}")
        pairs.append((_statement(row["existing"], where), _statement(row["incoming"], where), label))
    return pairs


def main(argv: Sequence[str] | None = None) -> int:
    """Bench entry point: `python -m memkeeper.core.contradiction [fixture]` prints the report and the misses."""
    args = list(sys.argv[1:] if argv is None else argv)
    default = Path(__file__).resolve().parent.parent / "tests" / "core" / "fixtures" / "conflict_pairs.jsonl"
    result = evaluate(load_fixture(args[0] if args else default))
    print(format_report(result))
    for miss in result["misclassified"]:
        print(f"  #{miss['index']}: expected {miss['expected']}, got {miss['predicted']} ({miss['reason']})")
        print(f"      {miss['existing']!r} / {miss['incoming']!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
